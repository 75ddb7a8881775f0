/**
 * /auth/device-verification (Doorman, issue 29): the code step of a password sign-in from a device the
 * user has not used before (DEVICE_VERIFICATION_REQUIRED gave the attempt code; the email the 6 characters),
 * and a new code for a waiting sign-in.
 */

import { signInTokensSchema } from "@doorman/shared/wire-auth";
import { z } from "zod";
import { unwrap } from "../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { ipInfoOf } from "../../lib/ip-info";
import { resendDeviceCode, verifyDeviceCode } from "../../services/protection/device-verification";
import { CODE_ERRORS, signInJson } from "./common";

const access = ["client", "server", "admin"] as const;
/** The nonce half of a 45-character code (the email carries the other 6 characters). */
const attemptCode = z.string().length(39);

const verify = defineRoute({
  method: "post",
  path: "/verify",
  summary: "Doorman: finish a password sign-in from a new device with the emailed code (the device becomes known)",
  access,
  body: z.strictObject({
    attempt_code: attemptCode,
    code: z.string().regex(/^\s*[0-9A-Za-z]{6}\s*$/, "must be the 6 characters from the email"),
  }),
  response: signInTokensSchema,
  errors: [...CODE_ERRORS, "DEVICE_VERIFICATION_CODE_INVALID"],
  rateLimit: { ip: "CODE_VERIFY_PER_IP" },
});

const resend = defineRoute({
  method: "post",
  path: "/resend",
  summary: "Doorman: email a new code for a waiting new-device sign-in (the last one stops working)",
  access,
  body: z.strictObject({ attempt_code: attemptCode }),
  response: z.object({ attempt_code: z.string(), sent_to: z.string() }),
  errors: CODE_ERRORS,
  rateLimit: { ip: "OTP_SEND_PER_IP" },
});

export const deviceVerificationRoutes = routeGroup();
addRoute(deviceVerificationRoutes, verify, async (c, { auth, body }) => {
  const result = unwrap(
    await verifyDeviceCode(c.get("deps"), auth.project, { attemptCode: body.attempt_code, code: body.code, ipInfo: ipInfoOf(c) }),
  );
  return c.json(signInJson(result));
});
addRoute(deviceVerificationRoutes, resend, async (c, { auth, body }) => {
  const result = unwrap(await resendDeviceCode(c.get("deps"), auth.project, body.attempt_code));
  return c.json({ attempt_code: result.attemptCode, sent_to: result.sentTo });
});
