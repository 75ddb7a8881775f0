/** /auth/cli: CLI login (polling code + browser confirmation), wire-protocol.md §5 "CLI auth". */

import { CLI_LOGIN_MAX_EXPIRY_MS } from "@doorman/shared/constants";
import { successSchema, tokensSchema } from "@doorman/shared/wire";
import { cliLoginStartedSchema, cliPollPendingSchema, cliPollSuccessSchema, cliSessionStateSchema } from "@doorman/shared/wire-auth";
import { z } from "zod";
import { unwrap } from "../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { ipInfoOf } from "../../lib/ip-info";
import { checkCliLogin, claimCliAnonymousSession, completeCliLogin, pollCliLogin, startCliLogin } from "../../services/auth/cli";

const access = ["client", "server", "admin"] as const;
/** Codes are 45 characters; anything up to 256 is looked up (and simply not found) rather than rejected. */
const code = z.string().min(1).max(256);

const start = defineRoute({
  method: "post",
  path: "/",
  summary: "Start a CLI login: a polling code for the CLI, a login code for the browser",
  access,
  body: z.strictObject({
    expires_in_millis: z.number().int().min(1).max(CLI_LOGIN_MAX_EXPIRY_MS).optional(),
    anon_refresh_token: z.string().min(1).max(256).optional(),
  }),
  response: cliLoginStartedSchema,
  rateLimit: { ip: "CLI_START_PER_IP" },
});

const poll = defineRoute({
  method: "post",
  path: "/poll",
  summary: "Poll a CLI login (201 with a refresh token once confirmed)",
  access,
  body: z.strictObject({ polling_code: code }),
  response: [cliPollPendingSchema, { status: 201, description: "Confirmed: a new session for the CLI", schema: cliPollSuccessSchema }],
  errors: ["INVALID_POLLING_CODE", "CLI_AUTH_ERROR"],
  rateLimit: { ip: "CLI_POLL_PER_IP" },
});

const complete = defineRoute({
  method: "post",
  path: "/complete",
  summary: "Check, claim the anonymous session of, or confirm a CLI login (browser side)",
  access,
  body: z.strictObject({
    login_code: code,
    mode: z.enum(["check", "claim-anon-session", "complete"]).default("complete"),
    refresh_token: z.string().min(1).max(256).optional(),
  }),
  response: z.union([cliSessionStateSchema, tokensSchema, successSchema]),
  errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER"],
  rateLimit: { ip: "CODE_VERIFY_PER_IP" },
});

export const cliRoutes = routeGroup();
addRoute(cliRoutes, start, async (c, { auth, body }) => {
  const started = unwrap(
    await startCliLogin(c.get("deps"), auth.project, { expiresInMs: body.expires_in_millis, anonRefreshToken: body.anon_refresh_token }),
  );
  return c.json({
    polling_code: started.pollingCode,
    login_code: started.loginCode,
    expires_at: new Date(started.expiresAt).toISOString(),
  });
});
addRoute(cliRoutes, poll, async (c, { auth, body }) => {
  const outcome = unwrap(await pollCliLogin(c.get("deps"), auth.project, body.polling_code, ipInfoOf(c)));
  // The reference SDK only accepts the token from a 201 (wire §7).
  if (outcome.status === "success") return c.json({ status: "success", refresh_token: outcome.refreshToken }, 201);
  return c.json({ status: outcome.status });
});
addRoute(cliRoutes, complete, async (c, { auth, body }) => {
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
      // A server names the browser's session by its refresh token alone (the reference); a client's
      // own signed-in user must be that session's user (services/auth/cli.ts).
      signedInUserId: body.refresh_token !== undefined && auth.type !== "client" ? null : (auth.user?.user.id ?? null),
      refreshToken: body.refresh_token,
    }),
  );
  return c.json({ success: true });
});
