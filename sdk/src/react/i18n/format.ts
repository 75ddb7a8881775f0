/**
 * Fills a catalogue message: `{name}` takes a value (numbers formatted for the locale), and
 * `{n, plural, =0 {none} one {# day} other {# days}}` picks the words for the count with
 * Intl.PluralRules (# is the formatted count). No other ICU syntax: the catalogue needs none.
 */

export type MessageValues = Record<string, string | number>;

/** The placeholders' names in a message ("{email}" → "email", "{n, plural, …}" → "n"), in order, once each. */
export function placeholdersOf(message: string): string[] {
  const names: string[] = [];
  for (const match of message.matchAll(/\{\s*([A-Za-z_][\w]*)\s*(?:,|\})/g)) {
    const name = match[1] as string;
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

/** The index just past the brace that closes the one opened at `open`. */
function closingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}" && --depth === 0) return i + 1;
  }
  return text.length;
}

/** The branch of a plural block ("=0 {…} one {…} other {…}") for `count`. */
function pluralBranch(body: string, count: number, locale: string): string {
  const branches = new Map<string, string>();
  let i = 0;
  while (i < body.length) {
    const label = /^\s*(=\d+|zero|one|two|few|many|other)\s*\{/.exec(body.slice(i));
    if (!label) break;
    const open = i + label[0].length - 1;
    const end = closingBrace(body, open);
    branches.set(label[1] as string, body.slice(open + 1, end - 1));
    i = end;
  }
  let category = "other";
  try {
    category = new Intl.PluralRules(locale).select(count);
  } catch {
    // An unknown locale tag: English rules.
  }
  return branches.get(`=${count}`) ?? branches.get(category) ?? branches.get("other") ?? "";
}

function formatValue(value: string | number | undefined, locale: string): string {
  if (value === undefined) return "";
  if (typeof value === "number") {
    try {
      return new Intl.NumberFormat(locale).format(value);
    } catch {
      return String(value);
    }
  }
  return value;
}

/**
 * @example
 * formatMessage("{n, plural, one {# key} other {# keys}}", { n: 2 }, "en"); // "2 keys"
 */
export function formatMessage(message: string, values: MessageValues | undefined, locale: string): string {
  if (!message.includes("{")) return message;
  let out = "";
  let i = 0;
  while (i < message.length) {
    const open = message.indexOf("{", i);
    if (open < 0) {
      out += message.slice(i);
      break;
    }
    out += message.slice(i, open);
    const end = closingBrace(message, open);
    const inner = message.slice(open + 1, end - 1);
    const plural = /^\s*(\w+)\s*,\s*plural\s*,([\s\S]*)$/.exec(inner);
    if (plural) {
      const value = values?.[plural[1] as string];
      const count = typeof value === "number" ? value : Number(value);
      const branch = pluralBranch(plural[2] as string, count, locale);
      out += formatMessage(branch.replace(/#/g, formatValue(count, locale)), values, locale);
    } else {
      out += formatValue(values?.[inner.trim()], locale);
    }
    i = end;
  }
  return out;
}
