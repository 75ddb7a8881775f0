/** /auth/mfa/sign-in: the second step for TOTP users (attempt code from the first step + a TOTP). */
import { z } from "zod";
import { signInTokensSchema } from "../../../sdk/src/shared/wire-auth";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { ipInfoOf } from "../../lib/ip-info";
import { unwrap } from "../../lib/problems";
import { signInWithTotp } from "../../services/mfa";
import { CODE_ERRORS, code45, signInJson } from "./common";

const signIn = defineRoute({
  method: "post",
  path: "/sign-in",
  summary: "Finish a sign-in with a TOTP code",
  access: ["client", "server", "admin"],
  body: z.strictObject({ type: z.literal("totp"), totp: z.string().max(16), code: code45 }),
  response: signInTokensSchema,
  errors: [...CODE_ERRORS, "INVALID_TOTP_CODE"],
  rateLimit: { ip: "CODE_VERIFY_PER_IP" },
});

export const mfaRoutes = routeGroup();
addRoute(mfaRoutes, signIn, async (c, { auth, body }) => {
  const result = unwrap(
    await signInWithTotp(c.get("deps"), auth.project, { attemptCode: body.code, totp: body.totp, ipInfo: ipInfoOf(c) }),
  );
  return c.json(signInJson(result));
});
