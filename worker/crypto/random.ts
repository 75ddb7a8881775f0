/** Random identifiers and secret codes (Crockford base32, 45 chars = 224 bits of entropy). */

const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";

/** 45 lowercase Crockford-base32 characters: refresh tokens, verification codes, key bodies. */
export function randomCode(length = 45): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let out = "";
  // 256 is a multiple of 32, so `b & 31` is unbiased.
  for (const b of bytes) out += CROCKFORD[b & 31];
  return out;
}

export function randomUuid(): string {
  return crypto.randomUUID();
}

/** A uniform number in [0, 1) for jitter (retry waits): not for secrets. */
export function randomFraction(): number {
  return Math.random();
}

export type RandomSource = { uuid: () => string; code: (length?: number) => string; fraction: () => number };
export const systemRandom: RandomSource = { uuid: randomUuid, code: randomCode, fraction: randomFraction };
