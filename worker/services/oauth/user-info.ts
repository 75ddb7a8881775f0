/**
 * Reading the signed-in user from each provider's API (or its ID token), normalised to
 * ProviderUser. Email verification is taken only from what the provider asserts; providers
 * that do not verify addresses report false, so their emails never merge into other accounts.
 * Every API call is bounded (config.outbound.oauth): a provider that hangs, redirects, drips or
 * floods is a ProviderApiError (oauth_provider_unavailable), never a hung sign-in.
 */
import type { OAuth2Tokens } from "arctic";
import type { JWTPayload } from "jose";
import { boundedFetch, type OutboundBounds } from "../../lib/outbound-fetch";
import { type IdTokenExpectation, verifyIdToken } from "./id-token";
import type { ProviderUser } from "./provider-types";

/** A provider API answered with a non-2xx status (`status`) or a body we cannot use. */
export class ProviderApiError extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

type Json = Record<string, unknown>;

export async function getJson(
  url: string,
  accessToken: string,
  bounds: OutboundBounds,
  headers: Record<string, string> = {},
): Promise<unknown> {
  const host = new URL(url).host;
  const res = await boundedFetch(
    url,
    { headers: { authorization: `Bearer ${accessToken}`, accept: "application/json", "user-agent": "doorman", ...headers } },
    bounds,
  );
  if (!res.ok) throw new ProviderApiError(`${host}: ${res.message}`);
  if (res.status < 200 || res.status > 299) throw new ProviderApiError(`${host} answered ${res.status}`, res.status);
  try {
    return JSON.parse(res.body);
  } catch {
    throw new ProviderApiError(`${host} answered something that is not JSON`);
  }
}

const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : typeof v === "number" ? String(v) : null);

function user(accountId: unknown, fields: Partial<Omit<ProviderUser, "accountId">>): ProviderUser {
  const id = str(accountId);
  if (!id) throw new ProviderApiError("the provider returned no account id");
  return {
    accountId: id,
    email: fields.email ? fields.email.toLowerCase() : null,
    emailVerified: Boolean(fields.email) && (fields.emailVerified ?? false),
    displayName: fields.displayName ?? null,
    profileImageUrl: fields.profileImageUrl ?? null,
  };
}

/** OpenID Connect userinfo (Google, LinkedIn, Microsoft, the bundled dev provider). */
export async function openIdUser(
  userinfoUrl: string,
  tokens: OAuth2Tokens,
  bounds: OutboundBounds,
  trustEmailVerified = true,
): Promise<ProviderUser> {
  const info = (await getJson(userinfoUrl, tokens.accessToken(), bounds)) as Json;
  return user(info.sub, {
    email: str(info.email),
    emailVerified: trustEmailVerified && (info.email_verified === true || info.email_verified === "true"),
    displayName: str(info.name),
    profileImageUrl: str(info.picture),
  });
}

export async function githubUser(tokens: OAuth2Tokens, bounds: OutboundBounds): Promise<ProviderUser> {
  const token = tokens.accessToken();
  const profile = (await getJson("https://api.github.com/user", token, bounds)) as Json;
  const emails = (await getJson("https://api.github.com/user/emails", token, bounds).catch(() => [])) as Json[];
  const primary = Array.isArray(emails) ? emails.find((e) => e.primary) : undefined;
  return user(profile.id, {
    email: str(primary?.email) ?? str(profile.email),
    emailVerified: primary?.verified === true,
    displayName: str(profile.name) ?? str(profile.login),
    profileImageUrl: str(profile.avatar_url),
  });
}

export async function facebookUser(tokens: OAuth2Tokens, bounds: OutboundBounds): Promise<ProviderUser> {
  const me = (await getJson("https://graph.facebook.com/v16.0/me?fields=id,name,email,picture", tokens.accessToken(), bounds)) as Json;
  const picture = (me.picture as { data?: { url?: string } } | undefined)?.data?.url;
  // Facebook only returns confirmed addresses.
  return user(me.id, { email: str(me.email), emailVerified: true, displayName: str(me.name), profileImageUrl: str(picture) });
}

export async function discordUser(tokens: OAuth2Tokens, bounds: OutboundBounds): Promise<ProviderUser> {
  const me = (await getJson("https://discord.com/api/users/@me", tokens.accessToken(), bounds)) as Json;
  const avatar = str(me.avatar) ? `https://cdn.discordapp.com/avatars/${str(me.id)}/${str(me.avatar)}.png` : null;
  return user(me.id, {
    email: str(me.email),
    emailVerified: me.verified === true,
    displayName: str(me.global_name) ?? str(me.username),
    profileImageUrl: avatar,
  });
}

export async function gitlabUser(tokens: OAuth2Tokens, bounds: OutboundBounds): Promise<ProviderUser> {
  const me = (await getJson("https://gitlab.com/api/v4/user", tokens.accessToken(), bounds)) as Json;
  return user(me.id, {
    email: str(me.email),
    emailVerified: Boolean(str(me.confirmed_at)),
    displayName: str(me.name),
    profileImageUrl: str(me.avatar_url),
  });
}

export async function bitbucketUser(tokens: OAuth2Tokens, bounds: OutboundBounds): Promise<ProviderUser> {
  const token = tokens.accessToken();
  const me = (await getJson("https://api.bitbucket.org/2.0/user", token, bounds)) as Json;
  const emails = (await getJson("https://api.bitbucket.org/2.0/user/emails", token, bounds).catch(() => ({ values: [] }))) as {
    values?: Json[];
  };
  const primary = emails.values?.find((e) => e.is_primary);
  const avatar = (me.links as { avatar?: { href?: string } } | undefined)?.avatar?.href;
  return user(me.account_id ?? me.uuid, {
    email: str(primary?.email),
    emailVerified: primary?.is_confirmed === true,
    displayName: str(me.display_name),
    profileImageUrl: str(avatar),
  });
}

/**
 * Apple has no user-info API: the user is the ID token of the code exchange. Its signature (Apple's
 * key set), issuer, audience (the project's client id) and expiry are checked before any claim is read.
 */
export async function appleUser(
  tokens: OAuth2Tokens,
  expected: IdTokenExpectation,
  bounds: OutboundBounds,
  now: number,
): Promise<ProviderUser> {
  const idToken = (tokens.data as Json).id_token;
  if (typeof idToken !== "string") throw new ProviderApiError("Apple answered without an ID token");
  const verified = await verifyIdToken(idToken, expected, bounds, now);
  if (!verified.ok) throw new ProviderApiError(`Apple: ${verified.message}`);
  const signedIn = appleClaimsUser(verified.claims);
  if (!signedIn) throw new ProviderApiError("Apple: the ID token names no user");
  return signedIn;
}

/** The user a verified Apple ID token names (web or native sign-in); null without a subject. */
export function appleClaimsUser(verifiedClaims: JWTPayload): ProviderUser | null {
  const claims = verifiedClaims as Json;
  if (!str(claims.sub)) return null;
  // Apple sends email_verified as a boolean or the string "true".
  return user(claims.sub, { email: str(claims.email), emailVerified: claims.email_verified === true || claims.email_verified === "true" });
}

export async function xUser(tokens: OAuth2Tokens, bounds: OutboundBounds): Promise<ProviderUser> {
  const me = (await getJson("https://api.x.com/2/users/me?user.fields=profile_image_url", tokens.accessToken(), bounds)) as { data?: Json };
  return user(me.data?.id, { displayName: str(me.data?.name), profileImageUrl: str(me.data?.profile_image_url) });
}

export async function spotifyUser(tokens: OAuth2Tokens, bounds: OutboundBounds): Promise<ProviderUser> {
  const me = (await getJson("https://api.spotify.com/v1/me", tokens.accessToken(), bounds)) as Json;
  const images = me.images as { url?: string }[] | undefined;
  // Spotify does not verify addresses: never treat them as verified.
  return user(me.id, {
    email: str(me.email),
    emailVerified: false,
    displayName: str(me.display_name),
    profileImageUrl: str(images?.[0]?.url),
  });
}

export async function twitchUser(tokens: OAuth2Tokens, clientId: string, bounds: OutboundBounds): Promise<ProviderUser> {
  const me = (await getJson("https://api.twitch.tv/helix/users", tokens.accessToken(), bounds, { "client-id": clientId })) as {
    data?: Json[];
  };
  const first = me.data?.[0];
  return user(first?.id, {
    email: str(first?.email),
    emailVerified: false,
    displayName: str(first?.display_name),
    profileImageUrl: str(first?.profile_image_url),
  });
}
