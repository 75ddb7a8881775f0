/** /auth/passkey: WebAuthn registration (signed-in user) and sign-in, each as initiate + finish. */
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../lib/hono-env";
import { ipInfoOf } from "../../lib/ip-info";
import { unwrap } from "../../lib/problems";
import { parseBody } from "../../lib/validate";
import { enforceRateLimits } from "../../middleware/rate-limit";
import { requireAccess, requireUser } from "../../middleware/require";
import { initiatePasskeyAuthentication, initiatePasskeyRegistration, registerPasskey, signInWithPasskey } from "../../services/passkeys";

const empty = z.strictObject({});
/** Browser WebAuthn output is free-form here; the service checks its shape (failures are PASSKEY_*_FAILED). */
const webAuthnObject = z.record(z.string(), z.unknown());
const code = z.string().length(45);

export const passkeyRoutes = new Hono<AppEnv>()
  .post("/initiate-passkey-registration", async (c) => {
    const auth = requireUser(requireAccess(c, "client", "server", "admin"));
    await parseBody(c, empty);
    const result = unwrap(await initiatePasskeyRegistration(c.get("deps"), auth.project, auth.user));
    return c.json({ options_json: result.optionsJson, code: result.code });
  })
  .post("/register", async (c) => {
    const auth = requireUser(requireAccess(c, "client", "server", "admin"));
    const body = await parseBody(c, z.strictObject({ credential: webAuthnObject, code }));
    await enforceRateLimits(c, { ip: "CODE_VERIFY_PER_IP" });
    const result = unwrap(await registerPasskey(c.get("deps"), auth.project, auth.user, { credential: body.credential, code: body.code }));
    return c.json({ user_handle: result.userHandle });
  })
  .post("/initiate-passkey-authentication", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    await parseBody(c, empty);
    // Each call stores a challenge row: counted like a sign-in attempt so nobody floods the table.
    await enforceRateLimits(c, { ip: "SIGN_IN_PER_IP" });
    const result = unwrap(await initiatePasskeyAuthentication(c.get("deps"), auth.project));
    return c.json({ options_json: result.optionsJson, code: result.code });
  })
  .post("/sign-in", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const body = await parseBody(c, z.strictObject({ authentication_response: webAuthnObject, code }));
    await enforceRateLimits(c, { ip: "CODE_VERIFY_PER_IP" });
    const result = unwrap(
      await signInWithPasskey(c.get("deps"), auth.project, {
        authenticationResponse: body.authentication_response,
        code: body.code,
        ipInfo: ipInfoOf(c),
      }),
    );
    return c.json({
      access_token: result.accessToken,
      refresh_token: result.refreshToken,
      is_new_user: false,
      user_id: result.userId,
    });
  });
