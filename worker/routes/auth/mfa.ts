/**
 * /auth/mfa: the second step for TOTP users (attempt code from the first step + a TOTP or a
 * recovery code), Doorman's enrolment step when the project requires a second factor, and the
 * signed-in user's recovery codes.
 */

import { signInTokensSchema } from "@doorman/shared/wire-auth";
import { z } from "zod";
import { unwrap } from "../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { ipInfoOf } from "../../lib/ip-info";
import { enrollTotpWithAttempt, signInWithTotp } from "../../services/auth/mfa";
import { generateRecoveryCodes, remainingRecoveryCodes } from "../../services/auth/mfa-recovery";
import { CODE_ERRORS, code45, signInJson } from "./common";

const access = ["client", "server", "admin"] as const;
const recoveryCode = z.string().min(1).max(64);

const signIn = defineRoute({
  method: "post",
  path: "/sign-in",
  summary: "Finish a sign-in with a TOTP code (or, Doorman, a recovery code)",
  access,
  body: z.discriminatedUnion("type", [
    z.strictObject({ type: z.literal("totp"), totp: z.string().max(16), code: code45 }),
    z.strictObject({ type: z.literal("recovery_code"), recovery_code: recoveryCode, code: code45 }),
  ]),
  response: signInTokensSchema,
  errors: [...CODE_ERRORS, "INVALID_TOTP_CODE"],
  rateLimit: { ip: "CODE_VERIFY_PER_IP" },
});

const enroll = defineRoute({
  method: "post",
  path: "/enroll",
  summary: "Doorman: turn on TOTP with the attempt code of a sign-in that requires a second factor, and sign in",
  access,
  body: z.strictObject({
    code: code45,
    totp_secret_base64: z
      .string()
      .regex(/^[A-Za-z0-9+/]+={0,2}$/, "must be base64")
      .refine((v) => {
        const bytes = Math.floor((v.replace(/=+$/, "").length * 3) / 4);
        return bytes >= 10 && bytes <= 64;
      }, "must encode 10 to 64 bytes"),
    totp: z.string().max(16),
  }),
  response: signInTokensSchema.extend({ recovery_codes: z.array(z.string()) }),
  errors: [...CODE_ERRORS, "INVALID_TOTP_CODE"],
  rateLimit: { ip: "CODE_VERIFY_PER_IP" },
});

const recoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()) });

const regenerate = defineRoute({
  method: "post",
  path: "/recovery-codes",
  summary: "Doorman: make ten new recovery codes for the signed-in TOTP user (the old ones stop working); shown once",
  access,
  user: true,
  body: z.strictObject({}),
  response: recoveryCodesSchema,
  errors: [],
});

const remaining = defineRoute({
  method: "get",
  path: "/recovery-codes",
  summary: "Doorman: how many unused recovery codes the signed-in user has",
  access,
  user: true,
  response: z.object({ remaining: z.number().int() }),
  errors: [],
});

export const mfaRoutes = routeGroup();
addRoute(mfaRoutes, signIn, async (c, { auth, body }) => {
  const second = body.type === "totp" ? { totp: body.totp } : { recoveryCode: body.recovery_code };
  const result = unwrap(await signInWithTotp(c.get("deps"), auth.project, { attemptCode: body.code, ...second, ipInfo: ipInfoOf(c) }));
  return c.json(signInJson(result));
});
addRoute(mfaRoutes, enroll, async (c, { auth, body }) => {
  const result = unwrap(
    await enrollTotpWithAttempt(c.get("deps"), auth.project, {
      attemptCode: body.code,
      totpSecretBase64: body.totp_secret_base64,
      totp: body.totp,
      ipInfo: ipInfoOf(c),
    }),
  );
  return c.json({ ...signInJson(result), recovery_codes: result.recoveryCodes });
});
addRoute(mfaRoutes, regenerate, async (c, { auth }) => {
  const result = unwrap(await generateRecoveryCodes(c.get("deps"), auth.project, auth.user.user));
  return c.json({ recovery_codes: result.codes });
});
addRoute(mfaRoutes, remaining, async (c, { auth }) => {
  return c.json({ remaining: await remainingRecoveryCodes(c.get("deps"), auth.user.user.id) });
});
