/**
 * Password hashing: scrypt (memory-hard) via node:crypto under nodejs_compat, stored as a PHC
 * string. Parameters N=2^14, r=8, p=5 are an OWASP-listed scrypt setting (16 MiB, well inside
 * the 128 MB Worker limit). Imported bcrypt hashes verify and are rehashed on the next sign-in.
 */
import { scrypt, timingSafeEqual } from "node:crypto";
import bcrypt from "bcryptjs";
import { passwordHashQueue } from "./hash-queue";

const LOG_N = 14;
const R = 8;
const P = 5;
const KEY_LEN = 32;
const MAXMEM = 64 * 1024 * 1024;

function b64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/=+$/, "");
}
function unb64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

// Every scrypt and bcrypt run waits its turn in the isolate's FIFO queue (bounded memory, arrival order).
function runScrypt(password: string, salt: Uint8Array, logN: number, r: number, p: number, len: number): Promise<Uint8Array> {
  return passwordHashQueue.run(
    () =>
      new Promise((resolve, reject) => {
        scrypt(password, salt, len, { N: 2 ** logN, r, p, maxmem: MAXMEM }, (err, key) =>
          err ? reject(err) : resolve(new Uint8Array(key)),
        );
      }),
  );
}

/** NFKC-normalise, never truncate (length limits are enforced before this is called). */
export function normalisePassword(password: string): string {
  return password.normalize("NFKC");
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const key = await runScrypt(normalisePassword(password), salt, LOG_N, R, P, KEY_LEN);
  return `$scrypt$ln=${LOG_N},r=${R},p=${P}$${b64(salt)}$${b64(key)}`;
}

export type PasswordCheck = { ok: boolean; needsRehash: boolean };

export async function verifyPassword(password: string, stored: string): Promise<PasswordCheck> {
  const normalised = normalisePassword(password);
  if (/^\$2[abxy]?\$/.test(stored)) {
    // Imported bcrypt hash: verify, then ask the caller to upgrade it to scrypt.
    const ok = await passwordHashQueue.run(() => bcrypt.compare(normalised, stored)).catch(() => false);
    return { ok, needsRehash: ok };
  }
  const match = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([^$]+)\$([^$]+)$/.exec(stored);
  if (!match) return { ok: false, needsRehash: false };
  const [, ln, r, p, saltText, hashText] = match;
  const expected = unb64(hashText!);
  const actual = await runScrypt(normalised, unb64(saltText!), Number(ln), Number(r), Number(p), expected.length);
  // Constant-time comparison: no early exit on the first differing byte.
  const ok = actual.length === expected.length && timingSafeEqual(actual, expected);
  return { ok, needsRehash: ok && (Number(ln) !== LOG_N || Number(r) !== R || Number(p) !== P) };
}

/** A well-formed bcrypt hash (for `password_hash` imports). */
export function isBcryptHash(value: string): boolean {
  return /^\$2[abxy]?\$\d{2}\$[./A-Za-z0-9]{53}$/.test(value);
}

let dummyHash: Promise<string> | undefined;
/** Spends the same work as a real check, so a missing user is not revealed by timing. */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword("doorman-timing-equaliser");
  await verifyPassword(password, await dummyHash);
}
