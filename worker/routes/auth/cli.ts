/** /auth/cli: CLI login (polling code + browser confirmation), wire-protocol.md §5 "CLI auth". */
import { Hono } from "hono";
import { z } from "zod";
import { CLI_LOGIN_MAX_EXPIRY_MS } from "../../../sdk/src/shared/constants";
import type { AppEnv } from "../../lib/hono-env";
import { ipInfoOf } from "../../lib/ip-info";
import { unwrap } from "../../lib/problems";
import { parseBody } from "../../lib/validate";
import { enforceRateLimits } from "../../middleware/rate-limit";
import { requireAccess } from "../../middleware/require";
import { checkCliLogin, claimCliAnonymousSession, completeCliLogin, pollCliLogin, startCliLogin } from "../../services/cli-auth";

/** Codes are 45 characters; anything up to 256 is looked up (and simply not found) rather than rejected. */
const code = z.string().min(1).max(256);

export const cliRoutes = new Hono<AppEnv>()
  .post("/", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const body = await parseBody(
      c,
      z.strictObject({
        expires_in_millis: z.number().int().min(1).max(CLI_LOGIN_MAX_EXPIRY_MS).optional(),
        anon_refresh_token: z.string().min(1).max(256).optional(),
      }),
    );
    await enforceRateLimits(c, { ip: "CLI_START_PER_IP" });
    const started = unwrap(
      await startCliLogin(c.get("deps"), auth.project, { expiresInMs: body.expires_in_millis, anonRefreshToken: body.anon_refresh_token }),
    );
    return c.json({
      polling_code: started.pollingCode,
      login_code: started.loginCode,
      expires_at: new Date(started.expiresAt).toISOString(),
    });
  })
  .post("/poll", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const body = await parseBody(c, z.strictObject({ polling_code: code }));
    await enforceRateLimits(c, { ip: "CLI_POLL_PER_IP" });
    const outcome = unwrap(await pollCliLogin(c.get("deps"), auth.project, body.polling_code, ipInfoOf(c)));
    // The reference SDK only accepts the token from a 201 (wire §7).
    if (outcome.status === "success") return c.json({ status: "success", refresh_token: outcome.refreshToken }, 201);
    return c.json({ status: outcome.status });
  })
  .post("/complete", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const body = await parseBody(
      c,
      z.strictObject({
        login_code: code,
        mode: z.enum(["check", "claim-anon-session", "complete"]).default("complete"),
        refresh_token: z.string().min(1).max(256).optional(),
      }),
    );
    await enforceRateLimits(c, { ip: "CODE_VERIFY_PER_IP" });
    const deps = c.get("deps");
    if (body.mode === "check") {
      const checked = unwrap(await checkCliLogin(deps, auth.project, body.login_code));
      return c.json({ cli_session_state: checked.cliSessionState });
    }
    if (body.mode === "claim-anon-session") {
      const claimed = unwrap(await claimCliAnonymousSession(deps, auth.project, body.login_code, ipInfoOf(c)));
      return c.json({ access_token: claimed.accessToken, refresh_token: claimed.refreshToken });
    }
    unwrap(
      await completeCliLogin(deps, auth.project, body.login_code, {
        signedInUserId: auth.user?.user.id ?? null,
        refreshToken: body.refresh_token,
      }),
    );
    return c.json({ success: true });
  });
