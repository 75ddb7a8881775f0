/**
 * The SAML Web Browser SSO profile's checks of a verified response (issue 31; saml-profiles §4.1.4.3):
 * status Success, Issuer = the connection's IdP, Destination and the bearer SubjectConfirmationData's
 * Recipient = our ACS URL, Audience = our entity ID, the time windows with the connection's clock skew,
 * and an InResponseTo that both places agree on (FLOW compares it with the request).
 */
import type { Element } from "@xmldom/xmldom";
import type { SamlConnectionConfig } from "../connection-config";
import { refuse, type SamlRefusal } from "./refusal";
import { attr, child, children, NS, textOf } from "./xml";

const SUCCESS = "urn:oasis:names:tc:SAML:2.0:status:Success";
const BEARER = "urn:oasis:names:tc:SAML:2.0:cm:bearer";
const ENTITY_FORMAT = "urn:oasis:names:tc:SAML:2.0:nameid-format:entity";
/** The longest validity window accepted: the replay table keeps an assertion's ID until it expires. */
export const MAX_ASSERTION_LIFETIME_MS = 24 * 60 * 60 * 1000;

export type CheckedAssertion = {
  ok: true;
  assertionId: string;
  /** When the assertion stops being acceptable (the earliest NotOnOrAfter, plus the skew): the replay row's expiry. */
  expiresAt: number;
  inResponseTo: string | null;
  nameId: string;
  nameIdFormat: string | null;
  authnContextClassRef: string | null;
};

/** A dateTime as SAML writes it (xs:dateTime, UTC "Z" or an offset); null when it is not one. */
export function parseSamlInstant(value: string | null): number | null {
  if (value === null || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value)) return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

function issuerMatches(issuer: Element | null, expected: string): boolean {
  if (!issuer) return false;
  const format = attr(issuer, "Format");
  return (format === null || format === ENTITY_FORMAT) && textOf(issuer) === expected;
}

export function checkAssertion(
  response: Element,
  assertion: Element,
  input: { config: SamlConnectionConfig; acsUrl: string; spEntityId: string; now: number; responseSigned: boolean },
): CheckedAssertion | SamlRefusal {
  const { config, acsUrl, spEntityId, now } = input;
  const skew = config.clockSkewSeconds * 1000;

  // The Response.
  const statusCode = child(child(response, NS.samlp, "Status") ?? response, NS.samlp, "StatusCode");
  const status = statusCode ? attr(statusCode, "Value") : null;
  if (status !== SUCCESS) return refuse("idp_status", `IdP status ${status ?? "missing"}`);
  const responseIssuer = child(response, NS.saml, "Issuer");
  if (responseIssuer && !issuerMatches(responseIssuer, config.idpEntityId))
    return refuse("issuer_mismatch", "Response Issuer is not the connection's IdP");
  const destination = attr(response, "Destination");
  // saml-bindings §3.5.5.2: a signed message MUST carry Destination; when present it must be our ACS.
  if (destination === null ? input.responseSigned : destination !== acsUrl) return refuse("destination_mismatch");
  const responseInResponseTo = attr(response, "InResponseTo");

  // The Assertion.
  if (attr(assertion, "Version") !== "2.0") return refuse("assertion_malformed", "assertion is not SAML 2.0");
  const assertionId = attr(assertion, "ID");
  if (!assertionId || assertionId.length > 256) return refuse("assertion_malformed", "assertion has no usable ID");
  if (!issuerMatches(child(assertion, NS.saml, "Issuer"), config.idpEntityId))
    return refuse("issuer_mismatch", "Assertion Issuer is not the connection's IdP");

  const subject = child(assertion, NS.saml, "Subject");
  if (!subject) return refuse("assertion_malformed", "assertion has no Subject");
  if (child(subject, NS.saml, "EncryptedID")) return refuse("assertion_malformed", "encrypted NameIDs are not supported");
  const nameIdEl = child(subject, NS.saml, "NameID");
  const nameId = textOf(nameIdEl);
  if (!nameIdEl || !nameId || nameId.length > 1024 || children(nameIdEl).length > 0)
    return refuse("assertion_malformed", "assertion has no NameID");

  // Conditions: time window and audience (every AudienceRestriction must name us; saml-core §2.5.1.4).
  const conditions = child(assertion, NS.saml, "Conditions");
  if (!conditions) return refuse("assertion_malformed", "assertion has no Conditions");
  const notBefore = attr(conditions, "NotBefore");
  if (notBefore !== null) {
    const nb = parseSamlInstant(notBefore);
    if (nb === null) return refuse("assertion_malformed", "Conditions NotBefore is not a dateTime");
    if (now < nb - skew) return refuse("not_yet_valid");
  }
  let conditionsExpiry = Number.POSITIVE_INFINITY;
  const notOnOrAfter = attr(conditions, "NotOnOrAfter");
  if (notOnOrAfter !== null) {
    const noa = parseSamlInstant(notOnOrAfter);
    if (noa === null) return refuse("assertion_malformed", "Conditions NotOnOrAfter is not a dateTime");
    if (now >= noa + skew) return refuse("expired");
    conditionsExpiry = noa;
  }
  const restrictions = children(conditions, NS.saml, "AudienceRestriction");
  if (restrictions.length === 0) return refuse("audience_mismatch", "assertion has no AudienceRestriction");
  for (const restriction of restrictions) {
    if (!children(restriction, NS.saml, "Audience").some((a) => textOf(a) === spEntityId)) return refuse("audience_mismatch");
  }

  // A bearer confirmation for us, still valid (saml-profiles §4.1.4.2).
  let confirmationExpiry: number | null = null;
  let confirmationInResponseTo: string | null = null;
  for (const confirmation of children(subject, NS.saml, "SubjectConfirmation")) {
    if (attr(confirmation, "Method") !== BEARER) continue;
    const data = child(confirmation, NS.saml, "SubjectConfirmationData");
    if (!data || attr(data, "Recipient") !== acsUrl) continue;
    const notOnOrAfter = parseSamlInstant(attr(data, "NotOnOrAfter"));
    if (notOnOrAfter === null || now >= notOnOrAfter + skew) continue;
    const notBefore = attr(data, "NotBefore");
    if (notBefore !== null) {
      const nb = parseSamlInstant(notBefore);
      if (nb === null || now < nb - skew) continue;
    }
    confirmationExpiry = notOnOrAfter;
    confirmationInResponseTo = attr(data, "InResponseTo");
    break;
  }
  if (confirmationExpiry === null)
    return refuse("subject_confirmation_invalid", "no valid bearer SubjectConfirmation for this ACS URL (recipient or time)");
  if (responseInResponseTo !== null && confirmationInResponseTo !== null && responseInResponseTo !== confirmationInResponseTo) {
    return refuse("in_response_to_inconsistent");
  }
  const expiresAt = Math.min(confirmationExpiry, conditionsExpiry);
  if (expiresAt - now > MAX_ASSERTION_LIFETIME_MS) return refuse("lifetime_too_long", "assertion valid for longer than a day");

  // An authentication statement (the SSO profile requires one); its session limit when it sets one.
  const authn = children(assertion, NS.saml, "AuthnStatement");
  if (authn.length === 0) return refuse("assertion_malformed", "assertion has no AuthnStatement");
  const sessionEnd = authn.map((a) => attr(a, "SessionNotOnOrAfter")).find((v) => v !== null);
  if (sessionEnd !== undefined && sessionEnd !== null) {
    const end = parseSamlInstant(sessionEnd);
    if (end === null || now >= end + skew) return refuse("session_ended", "the IdP session has ended (SessionNotOnOrAfter)");
  }
  const classRef = textOf(
    child(child(authn[0] as Element, NS.saml, "AuthnContext") ?? (authn[0] as Element), NS.saml, "AuthnContextClassRef"),
  );

  return {
    ok: true,
    assertionId,
    expiresAt: expiresAt + skew,
    inResponseTo: confirmationInResponseTo ?? responseInResponseTo,
    nameId,
    nameIdFormat: attr(nameIdEl, "Format"),
    authnContextClassRef: classRef || null,
  };
}
