/**
 * An OIDC connection's ID token claims as an SsoProfile (issue 31, FLOW): the subject is `sub`; email,
 * name and groups come from the claims the attribute mapping names (defaults `email`, `name`, `groups`).
 * `email_verified` is not read: only the team's verified domain makes an IdP's email trusted (sign-in step).
 */
import type { JWTPayload } from "jose";
import type { AttributeMapping } from "../connection-config";
import type { SsoProfile } from "../types";

const MAX_GROUPS = 200;

const text = (value: unknown, max: number): string | null =>
  typeof value === "string" && value.trim().length > 0 && value.length <= max ? value.trim() : null;

export function profileFromClaims(claims: JWTPayload, mapping: AttributeMapping): SsoProfile {
  const email = text(claims[mapping.email ?? "email"], 320);
  const rawGroups = claims[mapping.groups ?? "groups"];
  const groups = Array.isArray(rawGroups)
    ? rawGroups.filter((g): g is string => typeof g === "string" && g.length > 0 && g.length <= 256).slice(0, MAX_GROUPS)
    : [];
  return {
    subject: String(claims.sub),
    // A value that is not an address is no email (it would become a contact channel).
    email: email && /^[^\s@]+@[^\s@]+$/.test(email) ? email : null,
    displayName: text(claims[mapping.name ?? "name"], 256),
    groups,
  };
}
