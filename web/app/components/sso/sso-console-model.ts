/**
 * The console's team SSO page as data (issue 31): the "Test sign-in" link (the project's hosted
 * sign-in page with `sso_connection_id`, which starts that connection's sign-in), the connection's
 * advanced settings form → its update, a SCIM call in words, domain statuses and setup link
 * lifetimes. The IdP settings forms share the SDK's model (sso-setup-model.ts) with the hosted page.
 */
import type { SsoConnection, SsoConnectionUpdate, SsoDomain, SsoEvent } from "@doorman/sdk";
import { hostedHandlerUrl } from "@doorman/shared/hosted-pages";
import { SSO_CONNECTION_QUERY_PARAM } from "@doorman/shared/sso-paths";

/** The project's hosted sign-in page, told to sign in through `connectionId` at once. */
export function testSignInUrl(origin: string, projectId: string, connectionId: string): string {
  return `${hostedHandlerUrl(origin, projectId, "sign-in")}?${SSO_CONNECTION_QUERY_PARAM}=${encodeURIComponent(connectionId)}`;
}

/** The connection's settings beyond the IdP's values. */
export type AdvancedForm = {
  displayName: string;
  enabled: boolean;
  allowIdpInitiated: boolean;
  requireSignedResponse: boolean;
  requireEncryptedAssertions: boolean;
  signAuthnRequests: boolean;
  clockSkewSeconds: string;
  emailAttribute: string;
  nameAttribute: string;
  groupsAttribute: string;
};

export function advancedFormOf(c: SsoConnection): AdvancedForm {
  return {
    displayName: c.displayName,
    enabled: c.enabled,
    allowIdpInitiated: c.allowIdpInitiated,
    requireSignedResponse: c.saml?.requireSignedResponse ?? false,
    requireEncryptedAssertions: c.saml?.requireEncryptedAssertions ?? false,
    signAuthnRequests: c.saml?.signAuthnRequests ?? false,
    clockSkewSeconds: String(c.saml?.clockSkewSeconds ?? 120),
    emailAttribute: c.attributeMapping.email ?? "",
    nameAttribute: c.attributeMapping.name ?? "",
    groupsAttribute: c.attributeMapping.groups ?? "",
  };
}

export type AdvancedProblems = Partial<Record<"displayName" | "clockSkewSeconds", string>>;

/** Problems the console can tell before asking the API. */
export function advancedProblems(form: AdvancedForm): AdvancedProblems {
  const problems: AdvancedProblems = {};
  if (!form.displayName.trim()) problems.displayName = "Enter a name, such as “Okta” or “Entra ID”.";
  const skew = Number(form.clockSkewSeconds);
  if (!/^\d+$/.test(form.clockSkewSeconds.trim()) || skew > 600) problems.clockSkewSeconds = "Enter whole seconds from 0 to 600.";
  return problems;
}

/** The update the advanced form sends (SAML flags only for a SAML connection; an empty attribute means the protocol's default). */
export function advancedUpdateOf(form: AdvancedForm, protocol: SsoConnection["protocol"]): SsoConnectionUpdate {
  const attribute = (v: string) => v.trim() || null;
  const update: SsoConnectionUpdate = {
    displayName: form.displayName.trim(),
    enabled: form.enabled,
    attributeMapping: {
      email: attribute(form.emailAttribute),
      name: attribute(form.nameAttribute),
      groups: attribute(form.groupsAttribute),
    },
  };
  if (protocol === "saml") {
    update.allowIdpInitiated = form.allowIdpInitiated;
    update.saml = {
      requireSignedResponse: form.requireSignedResponse,
      requireEncryptedAssertions: form.requireEncryptedAssertions,
      signAuthnRequests: form.signAuthnRequests,
      clockSkewSeconds: Number(form.clockSkewSeconds),
    };
  }
  return update;
}

const SCIM_WORDS: Record<string, string> = {
  "scim.user_created": "User provisioned",
  "scim.user_updated": "User updated",
  "scim.user_deactivated": "User deactivated",
  "scim.user_reactivated": "User reactivated",
  "scim.user_deleted": "User deleted",
  "scim.group_created": "Group created",
  "scim.group_updated": "Group updated",
  "scim.group_deleted": "Group deleted",
};

/** One SCIM call in words: what happened, and to which group (its name) when the event says. */
export function describeScimCall(event: Pick<SsoEvent, "type" | "data">): string {
  const what = SCIM_WORDS[event.type] ?? event.type;
  const group = event.data?.display_name;
  return typeof group === "string" ? `${what}: ${group}` : what;
}

export const DOMAIN_STATUS: Record<SsoDomain["status"], { label: string; tone: "ok" | "warn" }> = {
  pending: { label: "Pending", tone: "warn" },
  verified: { label: "Verified", tone: "ok" },
  lost: { label: "Record missing", tone: "warn" },
};

/** The lifetimes the setup link form offers, in days (the API's maximum is 30). */
export const SETUP_LINK_DAYS = [1, 7, 14, 30] as const;
export const daysToMillis = (days: number) => days * 24 * 3600 * 1000;
