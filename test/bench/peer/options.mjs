// The options both Better Auth peers of `npm run bench:peer` share (test/bench/peer/server.mjs on Node,
// test/bench/peer/workerd/index.mjs on workerd), and that the workerd peer's schema is generated from
// (workerd/schema.mjs): email and password, Better Auth's defaults otherwise, plus its `jwt` plugin,
// whose `GET /api/auth/token` (the session exchanged for a signed JWT) is the bench's nearest match to
// Doorman's refresh. Each peer adds its own `database` (and the workerd one its password hash).
import { jwt } from "better-auth/plugins/jwt";

/** @param {{ baseURL: string, secret: string }} where */
export function peerOptions({ baseURL, secret }) {
  return {
    baseURL,
    secret,
    emailAndPassword: { enabled: true },
    // Rate limits off, as for Doorman in this bench: all load comes from one loopback address.
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    trustedOrigins: [baseURL],
    // disableSettingJwtHeader: by default the plugin also signs a JWT into a `set-auth-jwt` header of
    // every get-session answer; the bench keeps get-session the plain session read and measures the
    // signing on its own endpoint, `GET /api/auth/token`.
    plugins: [jwt({ disableSettingJwtHeader: true })],
  };
}
