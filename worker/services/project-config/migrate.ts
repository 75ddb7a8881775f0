/**
 * The reference's renames of config keys, applied to an override before it is stored or rendered,
 * so old names are accepted and only the current ones are kept: `payments.offers` → `products`,
 * `payments.groups` / `payments.catalogs` → `productLines`, `payments.products.<id>.groupId` /
 * `catalogId` → `productLineId`; `auth.oauth.providers.<id>.appleBundleIds` (Doorman's first name) →
 * `appleBundles`; `apps.installed.workflows` (an app the reference removed) is dropped; Doorman's
 * `auth.anonymous` → `doorman.anonymous`.
 * Works on nested objects, dotted keys and any mix of them.
 */
type ConfigOverride = Record<string, unknown>;

type Nested = { [key: string]: unknown };

/** The segment at `path[i]` (the path so far) under its current name. */
function renamed(path: string[], i: number): string {
  const seg = path[i]!;
  if (i === 4 && seg === "appleBundleIds" && path[0] === "auth" && path[1] === "oauth" && path[2] === "providers") return "appleBundles";
  if (path[0] !== "payments") return seg;
  if (i === 1 && seg === "offers") return "products";
  if (i === 1 && (seg === "groups" || seg === "catalogs")) return "productLines";
  if (i === 3 && path[1] === "products" && (seg === "groupId" || seg === "catalogId")) return "productLineId";
  return seg;
}

const dropped = (path: string[]) => path[0] === "apps" && path[1] === "installed" && path[2] === "workflows";

function migrate(value: Nested, prefix: string[]): Nested {
  const out: Nested = {};
  for (const [key, v] of Object.entries(value)) {
    const path = [...prefix];
    for (const seg of key.split(".")) {
      path.push(seg);
      path[path.length - 1] = renamed(path, path.length - 1);
    }
    if (dropped(path)) continue;
    const isObject = typeof v === "object" && v !== null && !Array.isArray(v);
    out[path.slice(prefix.length).join(".")] = isObject ? migrate(v as Nested, path) : v;
  }
  return out;
}

/**
 * Doorman's own switch for anonymous sign-up, first kept as `auth.anonymous.*`, is `doorman.anonymous.*`
 * (the reference's `auth` has no such key): a top-level key is renamed, a nested `auth.anonymous` moved out.
 */
function moveAnonymous(override: ConfigOverride): ConfigOverride {
  const out: ConfigOverride = {};
  for (const [key, value] of Object.entries(override)) {
    if (key === "auth.anonymous" || key.startsWith("auth.anonymous.")) out[`doorman.${key.slice("auth.".length)}`] = value;
    else if (key === "auth" && typeof value === "object" && value !== null && "anonymous" in value) {
      const { anonymous, ...rest } = value as Nested;
      out.auth = rest;
      out["doorman.anonymous"] = anonymous;
    } else out[key] = value;
  }
  return out;
}

/** The override with every old key name replaced by the current one (a current name set beside an old one wins if it comes later). */
export function migrateOverrideNames(override: ConfigOverride): ConfigOverride {
  return moveAnonymous(migrate(override, []));
}
