/**
 * Which keys each override level takes (the reference's project, branch and environment schemas),
 * checked on what a write sends, before it is merged: the project level holds only `project.*`;
 * the branch level everything else except what belongs to one deployment (its domains, its mail
 * server, OAuth client credentials, payments' test mode, the assistant's provider and key); the
 * environment level takes both. Also the provider types an override may name.
 */
import { PROVIDER_IDS } from "@doorman/shared/oauth-providers";
import type { ConfigOverride, OverrideLevel } from "./overrides";

/** Paths ("*" is any record id) only the environment level takes. */
const ENVIRONMENT_ONLY = [
  "domains.allowLocalhost",
  "domains.trustedDomains",
  "emails.server",
  "payments.testMode",
  "doorman.ai",
  ...["isShared", "clientId", "clientSecret", "facebookConfigId", "microsoftTenantId", "appleBundles"].map(
    (k) => `auth.oauth.providers.*.${k}`,
  ),
].map((p) => p.split("."));
/** Paths only the project level takes (the branch and environment levels no longer may). */
const PROJECT_ONLY = [["project"]];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Every path the override sets: a nested object is followed down to its leaves (an empty one is a leaf). */
function leafPaths(override: ConfigOverride): { key: string; path: string[]; value: unknown }[] {
  const out: { key: string; path: string[]; value: unknown }[] = [];
  const walk = (key: string, path: string[], value: unknown) => {
    if (isObject(value) && Object.keys(value).length > 0) {
      for (const [k, v] of Object.entries(value)) walk(key, [...path, ...k.split(".")], v);
    } else out.push({ key, path, value });
  };
  for (const [key, value] of Object.entries(override)) walk(key, key.split("."), value);
  return out;
}

/** Whether `rule` names `path` or one of its ancestors. */
const covers = (rule: string[], path: string[]) => rule.length <= path.length && rule.every((seg, i) => seg === "*" || seg === path[i]);

function levelOf(path: string[]): OverrideLevel | "branch or environment" {
  if (PROJECT_ONLY.some((rule) => covers(rule, path))) return "project";
  if (ENVIRONMENT_ONLY.some((rule) => covers(rule, path))) return "environment";
  return "branch or environment";
}

/** Why this level cannot take the override, or null. Unknown keys and wrong values are the render's to find. */
export function overrideLevelProblem(level: OverrideLevel, override: ConfigOverride): string | null {
  for (const { key, path, value } of leafPaths(override)) {
    const where = levelOf(path);
    const allowed = where === "branch or environment" ? level !== "project" : where === level;
    if (!allowed)
      return `The key ${JSON.stringify(key)} is not valid at the ${level} level: ${JSON.stringify(path.join("."))} can only be set at the ${where} level.`;
    // As the reference: a provider's type is one of the providers Doorman signs in with.
    if (path.length === 5 && path[0] === "auth" && path[1] === "oauth" && path[2] === "providers" && path[4] === "type") {
      if (value !== null && !(PROVIDER_IDS as readonly unknown[]).includes(value))
        return `${path.join(".")} must be one of the following values: ${PROVIDER_IDS.join(", ")}`;
    }
  }
  return null;
}
