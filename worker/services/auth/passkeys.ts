/**
 * Passkeys (WebAuthn). Each ceremony is two calls: `initiate…` returns the browser options and a
 * 45-character code that carries the challenge (verification-code mechanism: hashed at rest,
 * 65 s, single use by an atomic UPDATE); the second call redeems the code and verifies the
 * browser's response against that challenge, the trusted origin and its host name as RP ID.
 * One passkey per user; sign-in goes through `finishFirstFactor`, so TOTP users still need MFA; under
 * a required second factor (`doorman.requireMfa`) a user-verified passkey sign-in satisfies it.
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { base64url } from "jose";
import { findPasskeyByCredentialId, recordPasskeyUse, savePasskey } from "../../db/queries/passkeys";
import type { ProjectRow } from "../../db/queries/projects";
import { findUserRecord, isUniqueViolation, type UserRecord } from "../../db/queries/users";
import type { Deps } from "../deps";
import { eventFor, eventStatement } from "../events";
import { readProjectConfig } from "../project-config/flat";
import { fail, type Problem } from "../result";
import { checkSsoEnforcement } from "../sso/enforcement";
import { type CodeProblem, issueCode, redeemCode } from "../verification-codes";
import {
  failureMessage,
  PASSKEY_ALGORITHMS,
  PASSKEY_CEREMONY_TIMEOUT_MS,
  PASSKEY_CHALLENGE_TTL_MS,
  PASSKEY_RP_ID_SENTINEL,
  parseAuthenticationResponse,
  parseRegistrationResponse,
  trustedCeremony,
  userHandleBytes,
  withoutEmptyHints,
} from "./passkey-ceremony";
import type { IpInfo } from "./sessions";
import { finishFirstFactor } from "./sign-in";
import type { MfaRequired, SignInTokens } from "./sign-in-tokens";

type Disabled = Problem<"passkey_disabled">;
type RegistrationFailed = Problem<"passkey_registration_failed">;
type AuthenticationFailed = Problem<"passkey_authentication_failed">;

const disabled: Disabled = fail("passkey_disabled");
const registrationFailed = (message: string): RegistrationFailed => fail("passkey_registration_failed", { message });
const authenticationFailed = (message: string): AuthenticationFailed => fail("passkey_authentication_failed", { message });

type RegistrationData = { challenge: string; user_id: string; user_handle: string };

/**
 * The reference e2e suite's fixed challenge ("MOCK", `TU9DSw` in base64url), for recorded
 * authenticator answers; only with STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING, which
 * production refuses (config.ts). Otherwise the library draws a random one.
 */
export const HARDCODED_PASSKEY_CHALLENGE = "MOCK";
function challengeOption(deps: Deps): { challenge?: string } {
  return deps.config.hardcodedPasskeyChallenge ? { challenge: HARDCODED_PASSKEY_CHALLENGE } : {};
}

export async function initiatePasskeyRegistration(
  deps: Deps,
  project: ProjectRow,
  user: UserRecord,
): Promise<{ ok: true; optionsJson: PublicKeyCredentialCreationOptionsJSON; code: string } | Disabled> {
  if (!readProjectConfig(project.config).passkey_enabled) return disabled;
  const name = user.user.displayName || user.primaryEmail?.value || "Doorman user";
  const options = withoutEmptyHints(
    await generateRegistrationOptions({
      rpName: project.displayName,
      rpID: PASSKEY_RP_ID_SENTINEL,
      // The user id as handle: an authenticator keeps one discoverable credential per (RP, handle).
      userID: userHandleBytes(user.user.id),
      userName: name,
      userDisplayName: name,
      timeout: PASSKEY_CEREMONY_TIMEOUT_MS,
      attestationType: "none",
      authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
      supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
      ...challengeOption(deps),
    }),
  );
  const data: RegistrationData = { challenge: options.challenge, user_id: user.user.id, user_handle: options.user.id };
  const issued = await issueCode(deps, project.id, "passkey_registration", data, PASSKEY_CHALLENGE_TTL_MS);
  return { ok: true, optionsJson: options, code: issued.code };
}

export async function registerPasskey(
  deps: Deps,
  project: ProjectRow,
  user: UserRecord,
  input: { credential: unknown; code: string },
): Promise<{ ok: true; userHandle: string } | Disabled | RegistrationFailed | CodeProblem> {
  const config = readProjectConfig(project.config);
  if (!config.passkey_enabled) return disabled;
  // Used up before verifying: a challenge answers at most one attempt, even a failed or concurrent one.
  const redeemed = await redeemCode(deps, project.id, "passkey_registration", input.code, true);
  if (!redeemed.ok) return redeemed;
  const data = redeemed.row.data as RegistrationData;
  // The challenge belongs to the user who asked for it: nobody attaches a passkey to another account.
  if (data.user_id !== user.user.id) return registrationFailed("This passkey registration was started by another user.");
  const response = parseRegistrationResponse(input.credential);
  if (!response) return registrationFailed("The credential is not a WebAuthn registration response.");
  const ceremony = trustedCeremony(config, response.response.clientDataJSON);
  if (!ceremony)
    return registrationFailed("Passkey registration failed because the origin is not allowed (not a trusted domain of this project).");
  let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: data.challenge,
      expectedOrigin: ceremony.origin,
      expectedRPID: ceremony.rpId,
      requireUserVerification: false,
      supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
    });
  } catch (error) {
    return registrationFailed(failureMessage("The registration response could not be verified", error));
  }
  if (!verification.verified) return registrationFailed("The registration response could not be verified.");
  const { credential } = verification.registrationInfo;
  const passkeyId = deps.random.uuid();
  try {
    await savePasskey(
      deps.db,
      {
        id: passkeyId,
        projectId: project.id,
        userId: user.user.id,
        credentialId: credential.id,
        publicKey: base64url.encode(credential.publicKey),
        counter: credential.counter,
        transports: credential.transports ?? response.response.transports ?? null,
        userHandle: data.user_handle,
        createdAt: deps.now(),
      },
      eventFor(deps, project.id, "passkey.added", { userId: user.user.id }, { passkey_id: passkeyId }),
    );
  } catch (error) {
    // Credential ids are public: a copy of someone else's must not take over (or block) their passkey.
    if (isUniqueViolation(error)) return registrationFailed("This passkey is already registered to another account.");
    throw error;
  }
  return { ok: true, userHandle: data.user_handle };
}

export async function initiatePasskeyAuthentication(
  deps: Deps,
  project: ProjectRow,
): Promise<{ ok: true; optionsJson: PublicKeyCredentialRequestOptionsJSON; code: string } | Disabled> {
  if (!readProjectConfig(project.config).passkey_enabled) return disabled;
  const options = await generateAuthenticationOptions({
    rpID: PASSKEY_RP_ID_SENTINEL,
    // Empty: the authenticator offers its discoverable credentials, so no account is named first.
    allowCredentials: [],
    userVerification: "preferred",
    timeout: PASSKEY_CEREMONY_TIMEOUT_MS,
    ...challengeOption(deps),
  });
  const issued = await issueCode(deps, project.id, "passkey_authentication", { challenge: options.challenge }, PASSKEY_CHALLENGE_TTL_MS);
  return { ok: true, optionsJson: options, code: issued.code };
}

export type PasskeySignInResult = SignInTokens | MfaRequired | Disabled | AuthenticationFailed | CodeProblem | Problem<"sso_required">;

export async function signInWithPasskey(
  deps: Deps,
  project: ProjectRow,
  input: { authenticationResponse: unknown; code: string; ipInfo: IpInfo },
): Promise<PasskeySignInResult> {
  const config = readProjectConfig(project.config);
  if (!config.passkey_enabled) return disabled;
  const redeemed = await redeemCode(deps, project.id, "passkey_authentication", input.code, true);
  if (!redeemed.ok) return redeemed;
  const { challenge } = redeemed.row.data as { challenge: string };
  const response = parseAuthenticationResponse(input.authenticationResponse);
  if (!response) return authenticationFailed("The authentication response is not a WebAuthn assertion.");
  const passkey = await findPasskeyByCredentialId(deps.db, project.id, response.id);
  if (!passkey) return authenticationFailed("Passkey not found.");
  const ceremony = trustedCeremony(config, response.response.clientDataJSON);
  if (!ceremony)
    return authenticationFailed("Passkey authentication failed because the origin is not allowed (not a trusted domain of this project).");
  // A discoverable credential names its account; it must be the one this credential was registered for.
  // Not in the development-only recorded-passkey mode: a recording carries the recording's user handle.
  if (response.response.userHandle && response.response.userHandle !== passkey.userHandle && !deps.config.hardcodedPasskeyChallenge)
    return authenticationFailed("The passkey's user handle does not match its account.");
  let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: ceremony.origin,
      expectedRPID: ceremony.rpId,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(base64url.decode(passkey.publicKey)),
        counter: passkey.counter,
        transports: passkey.transports ?? undefined,
      },
      requireUserVerification: false,
    });
  } catch (error) {
    return authenticationFailed(failureMessage("The authentication response could not be verified", error));
  }
  if (!verification.verified) {
    await eventStatement(
      deps,
      project.id,
      "sign_in.failed",
      { userId: passkey.userId },
      { method: "passkey", reason: "PASSKEY_AUTHENTICATION_FAILED" },
    );
    return authenticationFailed("The signature could not be verified with the stored public key.");
  }
  // A counter that does not move forward suggests a cloned authenticator (or a lost race): refuse.
  if (!(await recordPasskeyUse(deps.db, passkey, verification.authenticationInfo.newCounter, deps.now())))
    return authenticationFailed("The passkey's signature counter did not increase.");
  const user = await findUserRecord(deps.db, project.id, passkey.userId);
  // Turned off with PATCH /users/me {passkey_auth_enabled:false}: the stored passkey no longer signs in.
  if (!user?.user.passkeyAuthEnabled) return authenticationFailed("Passkey sign-in is turned off for this account.");
  // The user's organization enforces SSO for their email's domain (issue 31): the passkey no longer signs in.
  const enforced = await checkSsoEnforcement(deps, project.id, user.primaryEmail?.value);
  if (!enforced.ok) return enforced;
  const finished = await finishFirstFactor(deps, project, user, {
    isNewUser: false,
    ipInfo: input.ipInfo,
    method: "passkey",
    // The UV flag of the signed authenticator data: a PIN or biometric on the device, so the passkey is two factors.
    passkeyVerified: verification.authenticationInfo.userVerified,
  });
  return finished.ok ? finished.tokens : finished;
}
