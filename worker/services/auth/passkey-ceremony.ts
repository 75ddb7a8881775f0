/**
 * WebAuthn ceremony details shared by passkey registration and sign-in: the options sent to the
 * browser (with the sentinel RP ID the SDK replaces by the page's host name), loose shapes of
 * the browser's responses, and the origin check that decides which RP ID to expect.
 */
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { base64url } from "jose";
import { z } from "zod";
import { type FlatProjectConfig, isTrustedUrl } from "../project-config/flat";

/** The RP ID the server sends; the SDK asserts it and replaces it with `window.location.hostname`. */
export const PASSKEY_RP_ID_SENTINEL = "THIS_VALUE_WILL_BE_REPLACED.example.com";
/** How long the browser lets the person answer (WebAuthn `timeout`). */
export const PASSKEY_CEREMONY_TIMEOUT_MS = 60_000;
/** The challenge outlives the browser's timeout by 5 s, so a slow answer is not cut off mid-flight. */
export const PASSKEY_CHALLENGE_TTL_MS = PASSKEY_CEREMONY_TIMEOUT_MS + 5_000;
/** EdDSA, ES256, RS256 (COSE ids), in order of preference. */
export const PASSKEY_ALGORITHMS = [-8, -7, -257];
/** WebAuthn allows user handles of 1 to 64 bytes. */
export const USER_HANDLE_MAX_BYTES = 64;

const b64url = z
  .string()
  .min(1)
  .max(65_536)
  .regex(/^[A-Za-z0-9_-]+={0,2}$/);
/** Extension outputs are free-form: passed through to the verifier, never SCHEMA_ERROR'd. */
const extensionResults = z.record(z.string(), z.unknown()).default({});

// Loose objects: browsers add fields over time (e.g. publicKey, authenticatorData); they must not fail a ceremony.
const registrationResponseSchema = z.looseObject({
  id: b64url,
  rawId: b64url,
  type: z.literal("public-key"),
  response: z.looseObject({
    clientDataJSON: b64url,
    attestationObject: b64url,
    transports: z.array(z.string().max(64)).max(16).optional(),
  }),
  clientExtensionResults: extensionResults,
});

const authenticationResponseSchema = z.looseObject({
  id: b64url,
  rawId: b64url,
  type: z.literal("public-key"),
  response: z.looseObject({
    clientDataJSON: b64url,
    authenticatorData: b64url,
    signature: b64url,
    userHandle: b64url.optional(),
  }),
  clientExtensionResults: extensionResults,
});

export function parseRegistrationResponse(value: unknown): RegistrationResponseJSON | null {
  const parsed = registrationResponseSchema.safeParse(value);
  return parsed.success ? (parsed.data as unknown as RegistrationResponseJSON) : null;
}

export function parseAuthenticationResponse(value: unknown): AuthenticationResponseJSON | null {
  const parsed = authenticationResponseSchema.safeParse(value);
  return parsed.success ? (parsed.data as unknown as AuthenticationResponseJSON) : null;
}

export type TrustedCeremony = { origin: string; rpId: string };

/**
 * The origin the browser reports in clientDataJSON, if the project trusts it, and the RP ID to
 * expect: that origin's host name. The sentinel RP ID means the server cannot know the host in
 * advance, so the trusted-domain list is what stops a look-alike site from using its passkeys.
 */
export function trustedCeremony(config: FlatProjectConfig, clientDataJSON: string): TrustedCeremony | null {
  let origin: unknown;
  try {
    origin = JSON.parse(new TextDecoder().decode(base64url.decode(clientDataJSON)))?.origin;
  } catch {
    return null;
  }
  if (typeof origin !== "string") return null;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return null;
  }
  // An origin has no path, query or credentials: anything else is not what a browser sends.
  if (parsed.origin !== origin || !isTrustedUrl(config, origin)) return null;
  return { origin, rpId: parsed.hostname };
}

/** The user handle of a user: the UTF-8 bytes of the user id (a UUID: 36 bytes, within 1..64). */
export function userHandleBytes(userId: string): Uint8Array<ArrayBuffer> {
  // The Workers types widen encode()'s result to ArrayBufferLike; it is always a fresh ArrayBuffer.
  const bytes = new TextEncoder().encode(userId) as Uint8Array<ArrayBuffer>;
  if (bytes.length < 1 || bytes.length > USER_HANDLE_MAX_BYTES) throw new Error("a WebAuthn user handle must be 1 to 64 bytes");
  return bytes;
}

/** simplewebauthn adds `hints: []`; the wire's options carry no empty hints list. */
export function withoutEmptyHints<T extends object>(options: T): T {
  const { hints, ...rest } = options as T & { hints?: unknown[] };
  return (Array.isArray(hints) && hints.length === 0 ? rest : options) as T;
}

/** A short, safe description of a verifier failure for PASSKEY_*_FAILED messages. */
export function failureMessage(prefix: string, error: unknown): string {
  const detail = error instanceof Error ? error.message : "";
  return detail ? `${prefix}: ${detail.slice(0, 300)}` : prefix;
}
