/** /auth/passkey: WebAuthn registration (signed-in user) and sign-in, each as initiate + finish. */

import { passkeyOptionsSchema, passkeyRegisteredSchema, signInTokensSchema } from "@doorman/shared/wire-auth";
import { z } from "zod";
import { unwrap } from "../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { ipInfoOf } from "../../lib/ip-info";
import {
  initiatePasskeyAuthentication,
  initiatePasskeyRegistration,
  registerPasskey,
  signInWithPasskey,
} from "../../services/auth/passkeys";
import { CODE_ERRORS, code45 } from "./common";

const access = ["client", "server", "admin"] as const;
const empty = z.strictObject({});
/** Browser WebAuthn output is free-form here; the service checks its shape (failures are PASSKEY_*_FAILED). */
const webAuthnObject = z.record(z.string(), z.unknown());

const initiateRegistration = defineRoute({
  method: "post",
  path: "/initiate-passkey-registration",
  summary: "Start registering a passkey for the signed-in user",
  access,
  user: true,
  body: empty,
  response: passkeyOptionsSchema,
  errors: ["PASSKEY_AUTHENTICATION_NOT_ENABLED"],
});

const register = defineRoute({
  method: "post",
  path: "/register",
  summary: "Finish registering a passkey",
  access,
  user: true,
  body: z.strictObject({ credential: webAuthnObject, code: code45 }),
  response: passkeyRegisteredSchema,
  errors: [...CODE_ERRORS, "PASSKEY_AUTHENTICATION_NOT_ENABLED", "PASSKEY_REGISTRATION_FAILED"],
  rateLimit: { ip: "CODE_VERIFY_PER_IP" },
});

const initiateAuthentication = defineRoute({
  method: "post",
  path: "/initiate-passkey-authentication",
  summary: "Start a passkey sign-in",
  access,
  body: empty,
  response: passkeyOptionsSchema,
  errors: ["PASSKEY_AUTHENTICATION_NOT_ENABLED"],
  // Each call stores a challenge row: counted like a sign-in attempt so nobody floods the table.
  rateLimit: { ip: "SIGN_IN_PER_IP" },
});

const signIn = defineRoute({
  method: "post",
  path: "/sign-in",
  summary: "Sign in with a passkey",
  access,
  body: z.strictObject({ authentication_response: webAuthnObject, code: code45 }),
  response: signInTokensSchema,
  errors: [
    ...CODE_ERRORS,
    "PASSKEY_AUTHENTICATION_NOT_ENABLED",
    "PASSKEY_AUTHENTICATION_FAILED",
    "MULTI_FACTOR_AUTHENTICATION_REQUIRED",
    "SSO_REQUIRED",
  ],
  rateLimit: { ip: "CODE_VERIFY_PER_IP" },
});

export const passkeyRoutes = routeGroup();
addRoute(passkeyRoutes, initiateRegistration, async (c, { auth }) => {
  const result = unwrap(await initiatePasskeyRegistration(c.get("deps"), auth.project, auth.user));
  return c.json({ options_json: result.optionsJson, code: result.code });
});
addRoute(passkeyRoutes, register, async (c, { auth, body }) => {
  const result = unwrap(await registerPasskey(c.get("deps"), auth.project, auth.user, { credential: body.credential, code: body.code }));
  return c.json({ user_handle: result.userHandle });
});
addRoute(passkeyRoutes, initiateAuthentication, async (c, { auth }) => {
  const result = unwrap(await initiatePasskeyAuthentication(c.get("deps"), auth.project));
  return c.json({ options_json: result.optionsJson, code: result.code });
});
addRoute(passkeyRoutes, signIn, async (c, { auth, body }) => {
  const result = unwrap(
    await signInWithPasskey(c.get("deps"), auth.project, {
      authenticationResponse: body.authentication_response,
      code: body.code,
      ipInfo: ipInfoOf(c),
    }),
  );
  // A passkey only ever signs in an existing user.
  return c.json({
    access_token: result.accessToken,
    refresh_token: result.refreshToken,
    is_new_user: false,
    user_id: result.userId,
    // Doorman (issue 29): the device token the SDK keeps for its next sign-ins.
    ...(result.deviceToken ? { device_token: result.deviceToken } : {}),
  });
});
