/**
 * What an SSO sign-in carries to the session it makes (issue 31, FLOW): the outer authorization code
 * holds it until the SDK exchanges the code; the session's batch writes `sso.signed_in` from it, and
 * the session's amr takes the IdP's (services/auth/session-amr.ts).
 */
import type { Deps } from "../deps";
import { eventStatement } from "../events";

export type SsoSignInOrigin = {
  connection_id: string;
  team_id: string;
  protocol: "saml" | "oidc";
  idp_initiated: boolean;
  is_new_user: boolean;
  joined_team: boolean;
  /** RFC 8176 values only: the OIDC IdP's `amr` filtered, or SAML's AuthnContextClassRef mapped (Password* → ["pwd"]). */
  amr: string[];
};

/**
 * RFC 8176 §2's registered values: an IdP's `amr` passes only these (anything else is a claim Doorman
 * cannot interpret, and relying parties read amr as registered values).
 */
const RFC8176_AMR = new Set([
  "face",
  "fpt",
  "geo",
  "hwk",
  "iris",
  "kba",
  "mca",
  "mfa",
  "otp",
  "pin",
  "pwd",
  "rba",
  "retina",
  "sc",
  "sms",
  "swk",
  "tel",
  "user",
  "vbm",
  "wia",
]);

/** The registered values of an upstream `amr` claim (anything not a string array yields []). */
export function registeredAmr(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return [...new Set(value.filter((v): v is string => typeof v === "string" && RFC8176_AMR.has(v)))];
}

/** The sso.signed_in event of a session made by an SSO sign-in (the user's and the team's). */
export function ssoSignedInStatement(deps: Deps, projectId: string, userId: string, sessionId: string, sso: SsoSignInOrigin) {
  return eventStatement(
    deps,
    projectId,
    "sso.signed_in",
    { userId, teamId: sso.team_id },
    {
      connection_id: sso.connection_id,
      protocol: sso.protocol,
      idp_initiated: sso.idp_initiated,
      is_new_user: sso.is_new_user,
      joined_team: sso.joined_team,
      session_id: sessionId,
    },
  );
}
