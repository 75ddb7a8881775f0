/**
 * The route list for the generated suites (fuzz, access matrix): every operation of the OpenAPI
 * document the worker builds from its route declarations, with minimal valid values and
 * malformed values derived from the documented schemas, and a small seeded PRNG.
 */
import { openApiDocument } from "../../worker/app";

export type Schema = Record<string, any>;
export type Level = "client" | "server" | "admin";

export type Operation = {
  method: string;
  /** OpenAPI path, e.g. /users/{userId}. */
  path: string;
  access: readonly string[];
  user: boolean;
  pathParams: Schema[];
  queryParams: Schema[];
  body: Schema | null;
  bodyTypes: string[];
};

type Doc = { paths: Record<string, Record<string, any>>; components?: { schemas?: Record<string, Schema> } };

let cached: { doc: Doc; ops: Operation[] } | null = null;

function load(): { doc: Doc; ops: Operation[] } {
  if (cached) return cached;
  const doc = openApiDocument() as unknown as Doc;
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
      const params: Schema[] = op.parameters ?? [];
      const content: Record<string, { schema?: Schema }> = op.requestBody?.content ?? {};
      const types = Object.keys(content);
      const jsonish = content["application/json"] ?? content[types[0] ?? ""];
      ops.push({
        method: method.toUpperCase(),
        path,
        access: op["x-doorman-access"] ?? [],
        user: Boolean(op["x-doorman-user"]),
        pathParams: params.filter((p) => p.in === "path"),
        queryParams: params.filter((p) => p.in === "query"),
        body: jsonish?.schema ?? null,
        bodyTypes: types,
      });
    }
  }
  cached = { doc, ops };
  return cached;
}

/** Every operation of the OpenAPI document (the route declarations). */
export function documentedOperations(): Operation[] {
  return load().ops;
}

/** A schema with its `$ref` resolved (components only). */
export function deref(schema: Schema | undefined): Schema {
  let s = schema ?? {};
  for (let i = 0; i < 10 && typeof s.$ref === "string"; i++) {
    const name = s.$ref.split("/").pop() as string;
    s = load().doc.components?.schemas?.[name] ?? {};
  }
  return s;
}

/** encodeURIComponent that also encodes lone surrogates (as their WTF-8 bytes) instead of throwing. */
export function encodeWtf8(value: string): string {
  let out = "";
  for (const ch of value) {
    const code = ch.codePointAt(0) ?? 0;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join("");
    } else out += encodeURIComponent(ch);
  }
  return out;
}

/** Fills an OpenAPI path template. */
export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeWtf8(values[name] ?? "x"));
}

// ---------------------------------------------------------------- PRNG

/** mulberry32: a tiny seeded PRNG, so a run is reproducible from its seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Rng = () => number;
export const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)] as T;
export const chance = (rng: Rng, p: number) => rng() < p;

// ---------------------------------------------------------------- valid values

/** Values for well-known field names (ids of the scenario, a code, an email...). */
export type Overrides = Record<string, unknown>;

function typesOf(s: Schema): string[] {
  if (Array.isArray(s.type)) return s.type;
  if (typeof s.type === "string") return [s.type];
  return [];
}

let uniq = 0;

/** A minimal value that the schema accepts (best effort: patterns are not generated). */
export function validValue(schema: Schema | undefined, overrides: Overrides = {}, key = "", depth = 0): unknown {
  const s = deref(schema);
  if (key && key in overrides) return overrides[key];
  if (depth > 6) return null;
  if ("const" in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (s.default !== undefined && depth > 0) return s.default;
  const alts: Schema[] | undefined = s.anyOf ?? s.oneOf;
  if (alts) {
    const nonNull = alts.find((a) => !typesOf(deref(a)).includes("null")) ?? alts[0];
    return validValue(nonNull, overrides, key, depth + 1);
  }
  if (s.allOf) return validValue(s.allOf[0], overrides, key, depth + 1);
  const types = typesOf(s).filter((t) => t !== "null");
  const type = types[0] ?? (s.properties ? "object" : "string");
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      const props: Record<string, Schema> = s.properties ?? {};
      const required = new Set<string>(s.required ?? []);
      for (const [name, prop] of Object.entries(props)) {
        if (required.has(name) || name in overrides) out[name] = validValue(prop, overrides, name, depth + 1);
      }
      return out;
    }
    case "array": {
      const n = s.minItems ?? 0;
      return Array.from({ length: n }, () => validValue(s.items, overrides, "", depth + 1));
    }
    case "integer":
    case "number": {
      const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
      return key.endsWith("_millis") && min <= Date.now() ? Date.now() + 3600_000 : Math.max(min, 1);
    }
    case "boolean":
      return false;
    default: {
      if (s.format === "email") return `matrix-${Date.now().toString(36)}-${++uniq}@example.com`;
      if (s.format === "uuid") return "00000000-0000-4000-8000-000000000000";
      if (s.format === "uri" || s.format === "url" || key.endsWith("_url")) return "http://localhost:3000/cb";
      const min = Math.max(s.minLength ?? 1, 1);
      const base = key === "password" || key.endsWith("_password") ? "correct horse battery" : "value";
      return base.padEnd(min, "x").slice(0, Math.max(min, Math.min(base.length, s.maxLength ?? base.length)));
    }
  }
}

// ---------------------------------------------------------------- malformed values

const ODD_STRINGS: readonly string[] = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff",
  "x\ud83dy",
  "\u202eevil\u202c",
  "\u200f\u05e9\u05dc\u05d5\u05dd",
  "😀👩‍👩‍👧‍👦🏳️‍🌈",
  "\uFEFF",
  "\u0301\u0301\u0301",
  "Ω≈ç√∫˜µ≤≥÷",
  "null",
  "undefined",
  "true",
  "0",
  "-1",
  "NaN",
  "1e309",
  "__proto__",
  "constructor",
  "../../etc/passwd",
  "%00",
  "%2e%2e%2f",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log4shell-style probe, sent as a plain string.
  "${jndi:ldap://x}",
  "{{7*7}}",
  "me",
  "00000000-0000-0000-0000-000000000000",
  "not-a-uuid",
  "a@b",
  "@",
  "http://",
  "javascript:alert(1)",
  "\r\nSet-Cookie: x=1",
  "\t\n\v\f\r",
];

const ODD_NUMBERS: readonly number[] = [0, -1, -0, 1.5, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1e308, Number.MAX_SAFE_INTEGER, Number.MIN_VALUE];

/** A random odd string: one of the list, a long one, or random code units. */
export function oddString(rng: Rng): string {
  const r = rng();
  if (r < 0.6) return pick(rng, ODD_STRINGS);
  if (r < 0.7) return pick(rng, ["a", "é", "😀", "\u0000", "\ud800"]).repeat(Math.floor(rng() * 5000) + 257);
  if (r < 0.75) return "x".repeat(70_000 + Math.floor(rng() * 10_000));
  const n = Math.floor(rng() * 40) + 1;
  let out = "";
  for (let i = 0; i < n; i++) out += String.fromCharCode(Math.floor(rng() * 0x10000));
  return out;
}

function deepNest(rng: Rng): unknown {
  const depth = 50 + Math.floor(rng() * 5000);
  const array = chance(rng, 0.5);
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = array ? [v] : { a: v };
  return v;
}

/** Any JSON value at all, with a bias to odd ones. */
export function garbageValue(rng: Rng, depth = 0): unknown {
  const r = rng();
  if (r < 0.25) return oddString(rng);
  if (r < 0.4) return pick(rng, ODD_NUMBERS);
  if (r < 0.45) return chance(rng, 0.5);
  if (r < 0.55) return null;
  if (r < 0.6) return deepNest(rng);
  if (depth > 3) return oddString(rng);
  if (r < 0.8) return Array.from({ length: Math.floor(rng() * 4) }, () => garbageValue(rng, depth + 1));
  const o: Record<string, unknown> = {};
  const n = Math.floor(rng() * 4);
  for (let i = 0; i < n; i++)
    o[chance(rng, 0.5) ? oddString(rng).slice(0, 40) : pick(rng, ["__proto__", "constructor", "a"])] = garbageValue(rng, depth + 1);
  return o;
}

/** A value of the wrong type for the schema (or a valid one with odd content). */
export function wrongValue(schema: Schema | undefined, rng: Rng): unknown {
  const s = deref(schema);
  const types = typesOf(s);
  const r = rng();
  if (r < 0.15) return null;
  if (r < 0.55) {
    // swap the type
    if (types.includes("string")) return pick(rng, [pick(rng, ODD_NUMBERS), true, [], {}, [oddString(rng)]]);
    if (types.includes("number") || types.includes("integer"))
      return pick(rng, [oddString(rng), String(pick(rng, ODD_NUMBERS)), pick(rng, ODD_NUMBERS), true, []]);
    if (types.includes("boolean")) return pick(rng, ["true", 1, 0, "yes", null, {}]);
    if (types.includes("array")) return pick(rng, [{}, "[]", [garbageValue(rng)], Array.from({ length: 2000 }, () => 1)]);
    if (types.includes("object")) return pick(rng, [[], "{}", 1, deepNest(rng)]);
    return garbageValue(rng);
  }
  if (r < 0.8 && types.includes("string")) return oddString(rng);
  return garbageValue(rng);
}

/**
 * A body derived from the schema: the minimal valid object with one to three fields replaced
 * by wrong values, an extra unknown field, a field dropped, or plain garbage.
 */
export function fuzzBody(schema: Schema | null, rng: Rng, overrides: Overrides): unknown {
  if (!schema || chance(rng, 0.1)) return garbageValue(rng);
  const s = deref(schema);
  const base = validValue(s, overrides);
  if (!base || typeof base !== "object" || Array.isArray(base)) return chance(rng, 0.5) ? base : wrongValue(s, rng);
  const body = base as Record<string, unknown>;
  const props: Record<string, Schema> = s.properties ?? {};
  const names = Object.keys(props);
  const r = rng();
  if (r < 0.15) {
    // valid shape, odd strings in every string field: reaches the handler
    for (const name of names) {
      const t = typesOf(deref(props[name]));
      if (t.includes("string") && !deref(props[name]).enum && !deref(props[name]).format && chance(rng, 0.7))
        body[name] = oddString(rng).slice(0, deref(props[name]).maxLength ?? 256);
    }
    return body;
  }
  if (r < 0.25 && names.length > 0) {
    const drop = pick(rng, names);
    delete body[drop];
    return body;
  }
  if (r < 0.3) {
    body[oddString(rng).slice(0, 30) || "extra"] = garbageValue(rng);
    return body;
  }
  const n = 1 + Math.floor(rng() * 3);
  for (let i = 0; i < n && names.length > 0; i++) {
    const name = pick(rng, names);
    body[name] = wrongValue(props[name], rng);
  }
  return body;
}
