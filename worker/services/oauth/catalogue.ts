/**
 * The provider catalogue over arctic: for each supported provider id, how to build a
 * ProviderClient from credentials. PKCE (S256) is used wherever the provider supports it.
 * Every client is bounded (config.outbound.oauth): userinfo calls through boundedFetch; arctic's token
 * requests (which call the global fetch and take no signal) within the total time limit.
 */

import { PROVIDER_IDS, type ProviderId } from "@doorman/shared/oauth-providers";
import {
  Bitbucket,
  CodeChallengeMethod,
  Discord,
  Facebook,
  GitHub,
  GitLab,
  Google,
  LinkedIn,
  MicrosoftEntraId,
  OAuth2Client,
  OAuth2Tokens,
  Spotify,
  Twitch,
  Twitter,
} from "arctic";
import { type OutboundBounds, withTimeout } from "../../lib/outbound-fetch";
import type { AccessTokenCheck, ProviderClient, ProviderClientBase, ProviderCredentials } from "./provider-types";
import {
  appleUser,
  bitbucketUser,
  discordUser,
  facebookUser,
  githubUser,
  gitlabUser,
  openIdUser,
  ProviderApiError,
  spotifyUser,
  twitchUser,
  xUser,
} from "./user-info";

export { PROVIDER_IDS, type ProviderId };

export function isProviderId(id: string): id is ProviderId {
  return (PROVIDER_IDS as readonly string[]).includes(id);
}

type Factory = (c: ProviderCredentials, bounds: OutboundBounds, now: () => number) => ProviderClientBase;

/** Sign in with Apple: its endpoints, and the issuer and key set its ID tokens are verified against. */
export const APPLE = {
  authorize: "https://appleid.apple.com/auth/authorize",
  token: "https://appleid.apple.com/auth/token",
  keys: "https://appleid.apple.com/auth/keys",
  issuer: "https://appleid.apple.com",
} as const;

const factories: Record<ProviderId, Factory> = {
  google: (c, bounds) => {
    const p = new Google(c.clientId, c.clientSecret, c.redirectUri);
    return {
      defaultScopes: ["openid", "email", "profile"],
      authorizationUrl: (state, verifier, scopes) => {
        const url = p.createAuthorizationURL(state, verifier, scopes);
        // Offline access: Google only returns a refresh token when asked for it.
        url.searchParams.set("access_type", "offline");
        url.searchParams.set("prompt", "consent");
        return url;
      },
      exchangeCode: (code, verifier) => p.validateAuthorizationCode(code, verifier),
      refresh: (token) => p.refreshAccessToken(token),
      fetchUser: (t) => openIdUser("https://openidconnect.googleapis.com/v1/userinfo", t, bounds),
    };
  },
  github: (c, bounds) => {
    const p = new GitHub(c.clientId, c.clientSecret, c.redirectUri);
    return {
      defaultScopes: ["user:email"],
      authorizationUrl: (state, _verifier, scopes) => p.createAuthorizationURL(state, scopes),
      exchangeCode: (code) => p.validateAuthorizationCode(code),
      refresh: (token) => p.refreshAccessToken(token),
      fetchUser: (t) => githubUser(t, bounds),
    };
  },
  microsoft: (c, bounds) => {
    const p = new MicrosoftEntraId(c.microsoftTenantId || "common", c.clientId, c.clientSecret, c.redirectUri);
    return {
      defaultScopes: ["openid", "profile", "email", "offline_access", "User.Read"],
      authorizationUrl: (state, verifier, scopes) => p.createAuthorizationURL(state, verifier, scopes),
      exchangeCode: (code, verifier) => p.validateAuthorizationCode(code, verifier),
      refresh: (token, scopes) => p.refreshAccessToken(token, scopes),
      // Entra ID does not verify the email claim: it never merges into another account.
      fetchUser: (t) => openIdUser("https://graph.microsoft.com/oidc/userinfo", t, bounds, false),
    };
  },
  facebook: (c, bounds) => {
    const p = new Facebook(c.clientId, c.clientSecret, c.redirectUri);
    return {
      defaultScopes: ["email", "public_profile"],
      authorizationUrl: (state, _verifier, scopes) => {
        const url = p.createAuthorizationURL(state, c.facebookConfigId ? [] : scopes);
        // Facebook Login for Business: a configuration id replaces the scope list.
        if (c.facebookConfigId) url.searchParams.set("config_id", c.facebookConfigId);
        return url;
      },
      exchangeCode: (code) => p.validateAuthorizationCode(code),
      refresh: null,
      fetchUser: (t) => facebookUser(t, bounds),
    };
  },
  discord: (c, bounds) => {
    const p = new Discord(c.clientId, c.clientSecret, c.redirectUri);
    return {
      defaultScopes: ["identify", "email"],
      authorizationUrl: (state, verifier, scopes) => p.createAuthorizationURL(state, verifier, scopes),
      exchangeCode: (code, verifier) => p.validateAuthorizationCode(code, verifier),
      refresh: (token) => p.refreshAccessToken(token),
      fetchUser: (t) => discordUser(t, bounds),
    };
  },
  gitlab: (c, bounds) => {
    const p = new GitLab("https://gitlab.com", c.clientId, c.clientSecret, c.redirectUri);
    return {
      defaultScopes: ["read_user"],
      authorizationUrl: (state, _verifier, scopes) => p.createAuthorizationURL(state, scopes),
      exchangeCode: (code) => p.validateAuthorizationCode(code),
      refresh: (token) => p.refreshAccessToken(token),
      fetchUser: (t) => gitlabUser(t, bounds),
    };
  },
  bitbucket: (c, bounds) => {
    const p = new Bitbucket(c.clientId, c.clientSecret, c.redirectUri);
    return {
      defaultScopes: [],
      authorizationUrl: (state) => p.createAuthorizationURL(state),
      exchangeCode: (code) => p.validateAuthorizationCode(code),
      refresh: (token) => p.refreshAccessToken(token),
      fetchUser: (t) => bitbucketUser(t, bounds),
    };
  },
  linkedin: (c, bounds) => {
    const p = new LinkedIn(c.clientId, c.clientSecret, c.redirectUri);
    return {
      defaultScopes: ["openid", "profile", "email"],
      authorizationUrl: (state, _verifier, scopes) => p.createAuthorizationURL(state, scopes),
      exchangeCode: (code) => p.validateAuthorizationCode(code),
      refresh: (token) => p.refreshAccessToken(token),
      fetchUser: (t) => openIdUser("https://api.linkedin.com/v2/userinfo", t, bounds),
    };
  },
  apple: (c, bounds, now) => {
    // The client secret is the signed client-secret JWT from Apple's developer console (valid up to 6 months).
    const p = new OAuth2Client(c.clientId, c.clientSecret, c.redirectUri);
    return {
      defaultScopes: ["name", "email"],
      authorizationUrl: (state, _verifier, scopes) => {
        const url = p.createAuthorizationURL(APPLE.authorize, state, scopes);
        // Apple requires form_post when names or emails are requested: the callback arrives as a POST.
        if (scopes.length > 0) url.searchParams.set("response_mode", "form_post");
        return url;
      },
      exchangeCode: (code) => p.validateAuthorizationCode(APPLE.token, code, null),
      refresh: (token) => p.refreshAccessToken(APPLE.token, token, []),
      // The ID token must be Apple's (signature, iss) and for this client (aud), unexpired.
      fetchUser: (t) => appleUser(t, { issuer: APPLE.issuer, jwksUrl: APPLE.keys, audience: c.clientId }, bounds, now()),
    };
  },
  x: (c, bounds) => {
    const p = new Twitter(c.clientId, c.clientSecret, c.redirectUri);
    return {
      defaultScopes: ["users.read", "tweet.read", "offline.access"],
      authorizationUrl: (state, verifier, scopes) => p.createAuthorizationURL(state, verifier, scopes),
      exchangeCode: (code, verifier) => p.validateAuthorizationCode(code, verifier),
      refresh: (token) => p.refreshAccessToken(token),
      fetchUser: (t) => xUser(t, bounds),
    };
  },
  spotify: (c, bounds) => {
    const p = new Spotify(c.clientId, c.clientSecret, c.redirectUri);
    return {
      defaultScopes: ["user-read-email", "user-read-private"],
      authorizationUrl: (state, verifier, scopes) => p.createAuthorizationURL(state, verifier, scopes),
      exchangeCode: (code, verifier) => p.validateAuthorizationCode(code, verifier),
      refresh: (token) => p.refreshAccessToken(token),
      fetchUser: (t) => spotifyUser(t, bounds),
    };
  },
  twitch: (c, bounds) => {
    const p = new Twitch(c.clientId, c.clientSecret, c.redirectUri);
    return {
      defaultScopes: ["user:read:email"],
      authorizationUrl: (state, _verifier, scopes) => p.createAuthorizationURL(state, scopes),
      exchangeCode: (code) => p.validateAuthorizationCode(code),
      refresh: (token) => p.refreshAccessToken(token),
      fetchUser: (t) => twitchUser(t, c.clientId, bounds),
    };
  },
};

/**
 * Each call of `client` within `bounds.timeoutMs`, else a ProviderApiError. Why a race: arctic's
 * token requests use the global fetch with no signal, so they cannot be aborted; the sign-in is freed
 * on time, and the abandoned request ends with the request's I/O context.
 */
function bounded(client: ProviderClientBase, bounds: OutboundBounds, host: string): ProviderClient {
  const limit = <T>(promise: Promise<T>) =>
    withTimeout(promise, bounds.timeoutMs, () => new ProviderApiError(`${host} did not answer within ${bounds.timeoutMs} ms`));
  const refresh = client.refresh;
  const fetchUser = (tokens: OAuth2Tokens) => limit(client.fetchUser(tokens));
  return {
    ...client,
    exchangeCode: (code, verifier) => limit(client.exchangeCode(code, verifier)),
    refresh: refresh ? (token, scopes) => limit(refresh(token, scopes)) : null,
    fetchUser,
    checkAccessToken: (accessToken) => checkWithUserApi(fetchUser, accessToken),
  };
}

/**
 * Asks the provider's user API (the one sign-in reads) whether an access token still works. Only its
 * 401 (RFC 6750 invalid_token) counts as refused: a timeout or an outage says nothing of the token.
 * Apple has no user API (its user is the ID token): "unknown" without a call.
 */
async function checkWithUserApi(fetchUser: (tokens: OAuth2Tokens) => Promise<unknown>, accessToken: string): Promise<AccessTokenCheck> {
  try {
    await fetchUser(new OAuth2Tokens({ access_token: accessToken, token_type: "Bearer" }));
    return "valid";
  } catch (err) {
    return err instanceof ProviderApiError && err.status === 401 ? "rejected" : "unknown";
  }
}

/** `now` is the request's clock (deps.now), for the checks of time-bound provider assertions (an ID token's exp). */
export function createProviderClient(
  id: ProviderId,
  credentials: ProviderCredentials,
  bounds: OutboundBounds,
  now: () => number,
): ProviderClient {
  return bounded(factories[id](credentials, bounds, now), bounds, id);
}

/** The bundled dev/test OpenID provider (oidc-provider): authorization code + PKCE S256, public client. */
export function createMockOidcClient(issuer: string, credentials: ProviderCredentials, bounds: OutboundBounds): ProviderClient {
  const base = issuer.replace(/\/+$/, "");
  // Public client (no secret): PKCE is what binds the code to this flow.
  const p = new OAuth2Client(credentials.clientId, null, credentials.redirectUri);
  const client: ProviderClientBase = {
    defaultScopes: ["openid", "email", "profile"],
    authorizationUrl: (state, verifier, scopes) =>
      p.createAuthorizationURLWithPKCE(`${base}/auth`, state, CodeChallengeMethod.S256, verifier, scopes),
    exchangeCode: (code, verifier) => p.validateAuthorizationCode(`${base}/token`, code, verifier),
    refresh: (token, scopes) => p.refreshAccessToken(`${base}/token`, token, scopes),
    fetchUser: (t) => openIdUser(`${base}/me`, t, bounds),
  };
  return bounded(client, bounds, new URL(base).host);
}
