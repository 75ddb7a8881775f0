/**
 * The data vault's limits (docs/data-vault.md): a tenant cannot exhaust D1 or the isolate through it.
 * A D1 row holds at most 2,000,000 bytes; a value sealed at rest grows by a third (base64url).
 */

/** Longest hashed key, in characters (the SDK sends 44: a base64 SHA-256). */
export const HASHED_KEY_MAX_LENGTH = 512;

/** Largest value, in UTF-8 bytes: a 1 MiB value encrypted by the SDK (about 1,398,200 bytes) fits; sealed, it stays under D1's row size. */
export const VALUE_MAX_BYTES = 1_400_000;

/** Largest body of a set request: the value with its JSON around it. */
export const SET_BODY_MAX_BYTES = 1_500_000;

/** Bytes (sealed) one project may keep in its data vault, all stores together. */
export const PROJECT_QUOTA_BYTES = 64 * 1024 * 1024;
