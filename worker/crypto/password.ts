/**
 * Password hashing: Argon2id (memory-hard, RFC 9106) with OWASP's first recommended setting,
 * m=19 MiB, t=2, p=1, stored as a PHC string `$argon2id$v=19$m=19456,t=2,p=1$salt$hash`.
 * Hashes made before (scrypt N=2^14, r=8, p=5) and imported bcrypt hashes still verify, and are
 * rehashed with Argon2id on the next successful sign-in.
 */
import { scrypt, timingSafeEqual } from "node:crypto";
import bcrypt from "bcryptjs";
import { type Argon2Params, argon2idRaw } from "./argon2id";
import { type HashQueueRunOptions, passwordHashQueue } from "./hash-queue";

// OWASP Password Storage Cheat Sheet, Argon2id option 2 (19 MiB, 2 passes, 1 lane): at about a
// fifth of the CPU of the scrypt setting it replaces, for the same memory-hard resistance class.
const ARGON2 = { memoryKiB: 19_456, passes: 2, parallelism: 1 } as const;
const KEY_LEN = 32;
const MAXMEM = 64 * 1024 * 1024;

function b64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/=+$/, "");
}
function unb64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

// Every Argon2id, scrypt and bcrypt run waits its turn in the isolate's FIFO queue (bounded memory, arrival order).
// `queue.signal`: the request's AbortSignal; a client that disconnected gives its place in line up (hash-queue.ts).
function runScrypt(
  password: string,
  salt: Uint8Array,
  logN: number,
  r: number,
  p: number,
  len: number,
  queue: HashQueueRunOptions,
): Promise<Uint8Array> {
  return passwordHashQueue.run(
    () =>
      new Promise((resolve, reject) => {
        scrypt(password, salt, len, { N: 2 ** logN, r, p, maxmem: MAXMEM }, (err, key) =>
          err ? reject(err) : resolve(new Uint8Array(key)),
        );
      }),
    queue,
  );
}

/** NFKC-normalise, never truncate (length limits are enforced before this is called). */
export function normalisePassword(password: string): string {
  return password.normalize("NFKC");
}

function runArgon2id(
  password: string,
  salt: Uint8Array,
  params: Argon2Params,
  len: number,
  queue: HashQueueRunOptions,
): Promise<Uint8Array> {
  const bytes = new TextEncoder().encode(password);
  return passwordHashQueue.run(async () => argon2idRaw(bytes, salt, params, len), queue);
}

export async function hashPassword(password: string, queue: HashQueueRunOptions = {}): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const key = await runArgon2id(normalisePassword(password), salt, ARGON2, KEY_LEN, queue);
  return `$argon2id$v=19$m=${ARGON2.memoryKiB},t=${ARGON2.passes},p=${ARGON2.parallelism}$${b64(salt)}$${b64(key)}`;
}

// Hash parameters read back from a stored hash are bounded, so a tampered or imported row cannot
// make one verification take the isolate's memory or seconds of CPU.
const MAX_ARGON2_MEMORY_KIB = 65_536;
const MAX_ARGON2_PASSES = 10;

function sameBytes(actual: Uint8Array, expected: Uint8Array): boolean {
  // Constant-time comparison: no early exit on the first differing byte.
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export type PasswordCheck = { ok: boolean; needsRehash: boolean };

export async function verifyPassword(password: string, stored: string, queue: HashQueueRunOptions = {}): Promise<PasswordCheck> {
  const normalised = normalisePassword(password);
  // A failed hash is a failed check; a request that went away is not (it rejects with the signal's reason).
  const failed =
    <T>(value: T) =>
    (error: unknown) => {
      if (queue.signal?.aborted) throw error;
      return value;
    };
  if (/^\$2[abxy]?\$/.test(stored)) {
    // Imported bcrypt hash: verify, then ask the caller to upgrade it to Argon2id.
    const ok = await passwordHashQueue.run(() => bcrypt.compare(normalised, stored), queue).catch(failed(false));
    return { ok, needsRehash: ok };
  }
  const argon = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([^$]+)\$([^$]+)$/.exec(stored);
  if (argon) {
    const [, m, t, p, saltText, hashText] = argon;
    const params = { memoryKiB: Number(m), passes: Number(t), parallelism: Number(p) };
    if (params.memoryKiB > MAX_ARGON2_MEMORY_KIB || params.passes > MAX_ARGON2_PASSES || params.parallelism !== 1) {
      return { ok: false, needsRehash: false };
    }
    const expected = unb64(hashText!);
    const actual = await runArgon2id(normalised, unb64(saltText!), params, expected.length, queue);
    const ok = sameBytes(actual, expected);
    const current = params.memoryKiB === ARGON2.memoryKiB && params.passes === ARGON2.passes;
    return { ok, needsRehash: ok && !current };
  }
  // Hashes made before Argon2id: scrypt, verified with its own parameters, then upgraded.
  const match = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([^$]+)\$([^$]+)$/.exec(stored);
  if (!match) return { ok: false, needsRehash: false };
  const [, ln, r, p, saltText, hashText] = match;
  const expected = unb64(hashText!);
  // Parameters over scrypt's 64 MiB maxmem are refused by node:crypto: a failed verification, not a 500.
  const actual = await runScrypt(normalised, unb64(saltText!), Number(ln), Number(r), Number(p), expected.length, queue).catch(
    failed(null),
  );
  const ok = actual !== null && sameBytes(actual, expected);
  return { ok, needsRehash: ok };
}

/** A well-formed bcrypt hash (for `password_hash` imports). */
export function isBcryptHash(value: string): boolean {
  const match = /^\$2[abxy]?\$(\d{2})\$[./A-Za-z0-9]{53}$/.exec(value);
  // At most 2^16 rounds, as the wire: a costlier imported hash would make every sign-in a CPU-time denial of service.
  return match !== null && Number(match[1]) <= MAX_BCRYPT_COST;
}

/** The highest bcrypt cost an imported password hash may have. */
export const MAX_BCRYPT_COST = 16;

let dummyHash: Promise<string> | undefined;
/** Spends the same work as a real check, so a missing user is not revealed by timing. */
export async function burnPasswordCheck(password: string, queue: HashQueueRunOptions = {}): Promise<void> {
  dummyHash ??= hashPassword("doorman-timing-equaliser");
  await verifyPassword(password, await dummyHash, queue);
}
