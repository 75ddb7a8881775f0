// The workerd peer of `npm run bench:peer`: Better Auth (the version pinned in ../package.json) as a
// Worker on D1, run by the same `wrangler dev` as Doorman with local D1 (wrangler.toml beside this).
// Better Auth's native D1 support: `database: env.DB` selects its Kysely adapter's D1 dialect. The
// options are the Node peer's (../options.mjs: email and password, jwt plugin, rate limits and
// telemetry off). What differs is the password hash: Doorman's own Argon2id, so that sign-in and
// sign-up pay an equal hash on one runtime. It calls worker/crypto/argon2id.ts itself (the same
// @phi-ag/argon2 WebAssembly module, imported the same way) with the parameters run.mjs reads from
// worker/crypto/password.ts (var ARGON2 = "memoryKiB,passes,parallelism,keyLen"), NFKC-normalised
// as both Doorman and Better Auth do, stored as the same PHC string. Doorman's per-isolate hash queue
// is not used: that is Doorman's scheduling of its hashes, part of what its sign-in is measured with.
// The schema is applied before start (schema.sql, from Better Auth's planner: schema.mjs).
import { timingSafeEqual } from "node:crypto";
import { betterAuth } from "better-auth";
import { argon2idRaw } from "../../../../worker/crypto/argon2id.ts";
import { peerOptions } from "../options.mjs";

const b64 = (bytes) => btoa(String.fromCharCode(...bytes)).replace(/=+$/, "");
const unb64 = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const utf8 = (password) => new TextEncoder().encode(password.normalize("NFKC"));

/** Doorman's Argon2id as Better Auth's `password.hash/verify`, with the parameters of the ARGON2 var. */
function doormanArgon2id(spec) {
  const [memoryKiB, passes, parallelism, keyLen] = String(spec ?? "")
    .split(",")
    .map(Number);
  if (![memoryKiB, passes, parallelism, keyLen].every((n) => Number.isInteger(n) && n > 0)) {
    throw new Error(`ARGON2 must be "memoryKiB,passes,parallelism,keyLen" (got ${spec})`);
  }
  const params = { memoryKiB, passes, parallelism };
  return {
    hash: async (password) => {
      const salt = crypto.getRandomValues(new Uint8Array(16));
      const key = argon2idRaw(utf8(password), salt, params, keyLen);
      return `$argon2id$v=19$m=${memoryKiB},t=${passes},p=${parallelism}$${b64(salt)}$${b64(key)}`;
    },
    verify: async ({ hash, password }) => {
      const m = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([^$]+)\$([^$]+)$/.exec(hash);
      // Only hashes this peer made: a row with other parameters is refused, never run at its cost.
      if (!m || Number(m[1]) !== memoryKiB || Number(m[2]) !== passes || Number(m[3]) !== parallelism) return false;
      const expected = unb64(m[5]);
      const actual = argon2idRaw(utf8(password), unb64(m[4]), params, expected.length);
      // Constant-time comparison, as Doorman's.
      return actual.length === expected.length && timingSafeEqual(actual, expected);
    },
  };
}

let auth;

/** One Better Auth instance per isolate, made on the first request (the bindings come with it). */
function authFor(env) {
  auth ??= betterAuth({
    ...peerOptions({ baseURL: env.BASE_URL, secret: env.BETTER_AUTH_SECRET }),
    database: env.DB,
    emailAndPassword: { enabled: true, password: doormanArgon2id(env.ARGON2) },
  });
  return auth;
}

export default {
  fetch(request, env) {
    return authFor(env).handler(request);
  },
};
