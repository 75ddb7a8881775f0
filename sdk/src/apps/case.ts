/** snake_case ⇄ camelCase for config objects (keys only; values are left alone except nested plain objects). */

export const toCamelKey = (k: string) => (/^[A-Z0-9_]+$/.test(k) ? k : k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()));
// An all-capitals key (a rate-limit rule such as SIGN_IN_PER_IP) is a name, not a camelCase word: kept as is.
const toSnakeKey = (k: string) => (/^[A-Z0-9_]+$/.test(k) ? k : k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));

function mapKeys(value: unknown, key: (k: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => mapKeys(v, key));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [key(k), mapKeys(v, key)]));
  }
  return value;
}

export const camelKeys = <T = Record<string, unknown>>(value: unknown) => mapKeys(value, toCamelKey) as T;
export const snakeKeys = <T = Record<string, unknown>>(value: unknown) => mapKeys(value, toSnakeKey) as T;

/** Drops undefined fields, so a partial update sends only what the caller set. */
export function defined<T extends Record<string, unknown>>(obj: T): Partial<T> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as Partial<T>;
}
