// The workerd peer of `npm run bench:peer`: Better Auth (the version pinned in ../package.json) as a
// Worker on D1, run by the same `wrangler dev` as Doorman with local D1 (wrangler.toml beside this).
// Better Auth's native D1 support: `database: env.DB` selects its Kysely adapter's D1 dialect. The
// options are the Node peer's (../options.mjs: email and password, jwt plugin, rate limits and
// telemetry off); what differs is the password hash, which here is Doorman's own, so that sign-in and
// sign-up compare at equal hash cost on one runtime: Argon2id m=19 MiB, t=2, p=1 through the
// @phi-ag/argon2 WebAssembly module and the per-isolate hash queue, by importing
// worker/crypto/password.ts itself (not a copy of its parameters).
// The schema is applied before start (schema.sql, from Better Auth's planner: schema.mjs).
import { betterAuth } from "better-auth";
import { hashPassword, verifyPassword } from "../../../../worker/crypto/password.ts";
import { peerOptions } from "../options.mjs";

let auth;

/** One Better Auth instance per isolate, made on the first request (the bindings come with it). */
function authFor(env) {
  auth ??= betterAuth({
    ...peerOptions({ baseURL: env.BASE_URL, secret: env.BETTER_AUTH_SECRET }),
    database: env.DB,
    emailAndPassword: {
      enabled: true,
      password: {
        hash: (password) => hashPassword(password),
        verify: async ({ hash, password }) => (await verifyPassword(password, hash)).ok,
      },
    },
  });
  return auth;
}

export default {
  fetch(request, env) {
    return authFor(env).handler(request);
  },
};
