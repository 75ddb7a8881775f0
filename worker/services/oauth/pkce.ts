/** PKCE (RFC 7636) checks for the code grant: S256 and plain, compared in constant time. */
import { base64url } from "jose";
import { constantTimeEqual } from "../../crypto/hash";

export type CodeChallengeMethod = "S256" | "plain";

/** base64url(SHA-256(verifier)), the S256 challenge of a verifier. */
export async function s256Challenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return base64url.encode(new Uint8Array(digest));
}

/** Does `verifier` answer the challenge stored at authorize? */
export async function verifyPkce(verifier: string, challenge: string, method: CodeChallengeMethod): Promise<boolean> {
  const computed = method === "S256" ? await s256Challenge(verifier) : verifier;
  // Constant time: a timing side channel must not reveal how much of the challenge matched.
  return constantTimeEqual(computed, challenge);
}
