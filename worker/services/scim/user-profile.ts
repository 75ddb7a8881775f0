/**
 * What a SCIM User says about the Doorman user behind it: the email the account gets (the primary
 * email, else the first, else a userName that is an address) and the display name (displayName, else
 * name.formatted, else given and family names).
 */
import { normaliseEmail } from "../users";
import { isObject, type JsonObject } from "./normalize";

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,253}$/;

export function emailOf(resource: JsonObject): string | null {
  const emails = Array.isArray(resource.emails) ? resource.emails.filter(isObject) : [];
  const chosen = emails.find((e) => e.primary === true) ?? emails[0];
  const candidates = [chosen?.value, resource.userName];
  for (const candidate of candidates) {
    if (typeof candidate === "string" && EMAIL.test(candidate.trim())) return normaliseEmail(candidate);
  }
  return null;
}

export function displayNameOf(resource: JsonObject): string | null {
  if (typeof resource.displayName === "string" && resource.displayName.trim()) return resource.displayName.trim().slice(0, 256);
  const name = isObject(resource.name) ? resource.name : {};
  if (typeof name.formatted === "string" && name.formatted.trim()) return name.formatted.trim().slice(0, 256);
  const parts = [name.givenName, name.familyName].filter((p): p is string => typeof p === "string" && p.trim() !== "");
  return parts.length ? parts.join(" ").trim().slice(0, 256) : null;
}
