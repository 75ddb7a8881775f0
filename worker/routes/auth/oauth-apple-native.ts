/** POST /auth/oauth/callback/apple/native: native Sign in with Apple (iOS/macOS apps) with Apple's identity token. */

import { signInTokensSchema } from "@doorman/shared/wire-auth";
import { z } from "zod";
import { unwrap } from "../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { ipInfoOf } from "../../lib/ip-info";
import { signInWithAppleIdToken } from "../../services/oauth/apple-native";

const appleNative = defineRoute({
  method: "post",
  path: "/callback/apple/native",
  summary: "Sign in with an identity token from native Sign in with Apple",
  description:
    "For iOS and macOS apps using ASAuthorizationController: the token's audience must be one of the Apple provider's " +
    "bundle ids (apple_bundle_ids). The user is found or created as in the web OAuth flow.",
  access: ["client", "server", "admin"],
  // Apple's identity tokens are about 1 KB; the cap only bounds the input.
  body: z.strictObject({ id_token: z.string().max(16_384) }),
  response: signInTokensSchema,
  errors: [
    "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED",
    "APPLE_BUNDLE_ID_NOT_CONFIGURED",
    "INVALID_APPLE_CREDENTIALS",
    "OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE",
    "SIGN_UP_NOT_ENABLED",
    "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE",
    "OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER",
    "MULTI_FACTOR_AUTHENTICATION_REQUIRED",
  ],
  rateLimit: { ip: "SIGN_IN_PER_IP" },
});

export const appleNativeRoutes = routeGroup();
addRoute(appleNativeRoutes, appleNative, async (c, { auth, body }) => {
  const tokens = unwrap(
    await signInWithAppleIdToken(c.get("deps"), auth.project, {
      idToken: body.id_token,
      ipInfo: ipInfoOf(c),
      // A signed-in anonymous user is upgraded in place, as in the web flow.
      currentUserId: auth.user?.user.id ?? null,
    }),
  );
  return c.json({
    access_token: tokens.accessToken,
    refresh_token: tokens.refreshToken,
    user_id: tokens.userId,
    is_new_user: tokens.isNewUser,
  });
});
