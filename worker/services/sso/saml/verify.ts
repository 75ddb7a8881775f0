/**
 * A SAMLResponse posted to a connection's ACS, verified down to an SsoProfile (issue 31): read and
 * verify (response.ts), the profile's checks (checks.ts), the attribute mapping (profile.ts), then the
 * replay guard: the assertion ID is recorded once per connection until the assertion expires, with
 * INSERT … ON CONFLICT DO NOTHING, so of two posts of one assertion (even at once) exactly one passes.
 */
import { recordSamlAssertionUse } from "../../../db/queries/saml-assertions";
import type { SsoConnectionRow } from "../../../db/queries/sso-connections";
import type { Deps } from "../../deps";
import type { SsoProfile } from "../types";
import { checkAssertion } from "./checks";
import { samlConfigOf, spPrivateKeyOf } from "./config";
import { profileOf } from "./profile";
import { refuse, type SamlRefusal } from "./refusal";
import { readSamlResponse } from "./response";
import { acsUrlOf, spEntityIdOf } from "./urls";

export type VerifiedSamlResponse = {
  ok: true;
  profile: SsoProfile;
  assertionId: string;
  /** The AuthnRequest this answers; null for an unsolicited (IdP-initiated) response. */
  inResponseTo: string | null;
  /** RFC 8176 values for the session: a password-class AuthnContext is ["pwd"], anything else []. */
  amr: string[];
};

const PASSWORD_CLASSES = new Set([
  "urn:oasis:names:tc:SAML:2.0:ac:classes:Password",
  "urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport",
]);

export async function verifySamlResponse(
  deps: Deps,
  connection: SsoConnectionRow,
  samlResponse: string,
): Promise<VerifiedSamlResponse | SamlRefusal> {
  const config = samlConfigOf(connection);
  if (!config) return refuse("connection_misconfigured", "the connection's SAML config is invalid");
  const read = await readSamlResponse({ samlResponse, config, spPrivateKey: () => spPrivateKeyOf(deps, connection) });
  if (!read.ok) return read;
  const now = deps.now();
  const checked = checkAssertion(read.response, read.assertion, {
    config,
    acsUrl: acsUrlOf(deps, connection.id),
    spEntityId: spEntityIdOf(deps, connection.id),
    now,
    responseSigned: read.responseSigned,
  });
  if (!checked.ok) return checked;
  const profile = profileOf(read.assertion, { value: checked.nameId, format: checked.nameIdFormat }, config.attributeMapping);
  if (!profile.ok) return profile;
  // Last, once everything else holds: a refused response never uses up an assertion ID.
  const first = await recordSamlAssertionUse(deps.db, {
    connectionId: connection.id,
    assertionId: checked.assertionId,
    projectId: connection.projectId,
    expiresAt: checked.expiresAt,
  });
  if (!first) return refuse("replayed", "this assertion was already used");
  return {
    ok: true,
    profile: profile.profile,
    assertionId: checked.assertionId,
    inResponseTo: checked.inResponseTo,
    amr: checked.authnContextClassRef && PASSWORD_CLASSES.has(checked.authnContextClassRef) ? ["pwd"] : [],
  };
}
