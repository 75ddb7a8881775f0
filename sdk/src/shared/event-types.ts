/**
 * The event log's types, grouped by area: the one list the worker writes (services/events.ts) and
 * the console filters by (the Events page). No imports, so a browser bundle pulls in no schema library.
 * Names follow the reference's webhook events where one exists; `data` never holds a secret.
 */

/** Every event type, by area, in the order the console lists them. The comment says what `data` holds. */
export const EVENT_AREAS = [
  {
    area: "Users",
    types: [
      "user.created", // data: { method: "password" | "otp" | "oauth" | "passkey" | "anonymous" | "server" | "admin", provider? }
      "user.updated", // data: { fields: string[] }
      "user.deleted", // data: { team_ids: string[] }
      "user.active", // at most one per user and UTC day, on sign-in or refresh: the source of daily active users
    ],
  },
  {
    area: "Sign-in and sessions",
    types: [
      "sign_in.succeeded", // data: { method, provider?, session_id, mfa? }
      "sign_in.failed", // data: { method, reason: known error code }
      "sign_in.locked_out", // password sign-in refused for the rest of the hour after 100 failures (the user is emailed)
      "sign_out", // data: { session_id }
      "session.revoked", // data: { session_id } (one user's), or { all_users: true } without a user when an admin signs every user of the project out, or { everywhere: true, scim_connection_id } when SCIM deprovisions the user
      "session.token_reused", // data: { session_id } — a rotated refresh token came back; the session family is revoked
      "session.impersonated", // data: { session_id, via?: "link" } — an admin opened a session as the user (via an impersonation link: redeemed in the app)
      "impersonation.link_created", // data: { expires_at_millis } — an owner made a one-time link that opens the app signed in as the user
      // New-device verification and risk signals (issue 29); `risk` is { score, signals } (services/protection/risk.ts).
      "device.verification_required", // data: { method, risk, ua_family } — a password sign-in from an unknown device waits for an emailed code
      "device.verification_succeeded", // data: { session_id, ua_family } — the right code: the session is made and the device is known
      "device.verification_failed", // data: { reason: known error code } — a wrong, expired or used-up code
      "device.added", // data: { ua_family } — a device the user had not signed in from before is now known
    ],
  },
  {
    area: "Credentials",
    types: [
      "password.changed",
      "password.reset",
      // Breached passwords (issue 29): data: { reason: "timeout" | "network" | "too_large" | "redirect" | "status" | "unreadable", status? }
      // — the range API gave no answer, so the new password was accepted (fail open); never the password or its hash
      "password.breach_check_failed",
      "email.verified", // data: { contact_channel_id }
      "mfa.enrolled",
      "mfa.removed",
      "mfa.recovery_codes_generated", // a new set of ten replaced the old
      "mfa.recovery_code_used", // data: { remaining }
      "passkey.added", // data: { passkey_id }
      "oauth_account.linked", // data: { provider, provider_account_id }
    ],
  },
  {
    area: "Teams",
    types: [
      "team.created",
      "team.updated", // data: { fields: string[] }
      "team.deleted",
      "team_membership.created",
      "team_membership.deleted",
      "team_invitation.sent", // data: { invitation_id }
      "team_invitation.accepted", // data: { invitation_id }
    ],
  },
  {
    area: "Permissions",
    types: [
      "team_permission.created", // data: { permission_id }
      "team_permission.deleted", // data: { permission_id }
      "project_permission.created", // data: { permission_id }
      "project_permission.deleted", // data: { permission_id }
    ],
  },
  {
    area: "API keys",
    types: [
      "api_key.created", // data: { api_key_id, kind: "user" | "team" }
      "api_key.revoked", // data: { api_key_id, kind }
    ],
  },
  {
    // The OpenID provider (issue 30): third-party apps and MCP clients signing users in.
    area: "Authorized apps",
    types: [
      "oauth_client.created", // data: { client_id, source: "console" | "dynamic" } — an owner or RFC 7591 registration added an app
      "oauth_client.updated", // data: { client_id, fields: string[] }
      "oauth_client.deleted", // data: { client_id } — its grants and consents go with it
      "oauth_client.secret_rotated", // data: { client_id }
      "oauth_app.authorized", // data: { client_id, client_name, scope, team_id? } — the user approved an app on the consent page (or a remembered consent let it through)
      "oauth_app.denied", // data: { client_id, client_name, error } — the user refused (or, signed in, a prompt=none request could not be answered)
      "oauth_app.revoked", // data: { client_id, client_name } — the user (or an admin) revoked the app: consent and grants
      "oauth_token.issued", // data: { client_id, grant_id, grant_type: "authorization_code" | "refresh_token", scope, resource? }
      "oauth_token.revoked", // data: { client_id, grant_id, reason: "client" | "reuse" | "code_reuse" } — RFC 7009 revocation, or a replayed refresh token or code
    ],
  },
  {
    // Enterprise SSO (issue 31): a team's own identity provider, its verified domains, and SCIM provisioning.
    area: "Enterprise SSO",
    types: [
      "sso_connection.created", // data: { connection_id, protocol } — team_id is the event's team
      "sso_connection.updated", // data: { connection_id, fields: string[] }
      "sso_connection.deleted", // data: { connection_id }
      "sso_connection.scim_token_rotated", // data: { connection_id } — a new SCIM bearer token replaced the old one
      "sso_setup_link.created", // data: { connection_id?, expires_at_millis } — a self-serve setup link for the customer's IT admin
      "sso_domain.added", // data: { domain_id, domain }
      "sso_domain.verified", // data: { domain_id, domain } — the TXT record was found
      "sso_domain.lost", // data: { domain_id, domain } — a re-check no longer found the record
      "sso_domain.updated", // data: { domain_id, domain, fields: string[] } — enforce_sso / auto_join / connection_id
      "sso_domain.removed", // data: { domain_id, domain }
      "sso.signed_in", // data: { connection_id, protocol, idp_initiated, is_new_user, joined_team } — user_id and team_id set
      "sso.sign_in_refused", // data: { connection_id, protocol, reason } — a response or token that failed a check (never its content)
      "scim.user_created", // data: { connection_id, identity_id }
      "scim.user_updated", // data: { connection_id, identity_id, fields: string[] }
      "scim.user_deactivated", // data: { connection_id, identity_id } — membership removed and every session of the user revoked
      "scim.user_reactivated", // data: { connection_id, identity_id }
      "scim.user_deleted", // data: { connection_id, identity_id }
      "scim.group_created", // data: { connection_id, group_id, display_name }
      "scim.group_updated", // data: { connection_id, group_id, added: number, removed: number, renamed: boolean }
      "scim.group_deleted", // data: { connection_id, group_id }
    ],
  },
  {
    area: "Project",
    types: [
      "project.config_changed", // data: { keys: string[] } — the names of the settings that changed, never their values
      "webhook.secret_revealed", // data: { endpoint_id } — an owner read an endpoint's signing secret
      "webhook.secret_rotated", // data: { endpoint_id } — a new signing secret replaced the old one
    ],
  },
] as const;

export type EventArea = (typeof EVENT_AREAS)[number]["area"];
export type EventType = (typeof EVENT_AREAS)[number]["types"][number];

/** Every event type, flat, in area order. */
export const EVENT_TYPES: readonly EventType[] = EVENT_AREAS.flatMap((a) => a.types);

/** The area of an event type (null for a type this list does not know, e.g. from a newer worker). */
export function eventAreaOf(type: string): EventArea | null {
  return EVENT_AREAS.find((a) => (a.types as readonly string[]).includes(type))?.area ?? null;
}
