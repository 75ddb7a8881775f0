/** Shapes shared by the provider registry: who the provider says the user is, and one provider client. */
import type { OAuth2Tokens } from "arctic";

/** The provider's view of the user, normalised across providers. */
export type ProviderUser = {
  /** The stable account id at the provider (OpenID `sub`, GitHub numeric id…). */
  accountId: string;
  email: string | null;
  /** Only a provider-verified address may be merged into an existing account. */
  emailVerified: boolean;
  displayName: string | null;
  profileImageUrl: string | null;
};

/** Keys and callback for one provider: the project's own (standard) or the platform's (shared). */
export type ProviderCredentials = {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  microsoftTenantId?: string;
  facebookConfigId?: string;
};

/** What a provider says of a stored access token: still works, refused (401), or no answer to go by. */
export type AccessTokenCheck = "valid" | "rejected" | "unknown";

/** One provider as the catalogue builds it: authorization URL, code exchange (PKCE where supported), refresh, user info. */
export type ProviderClientBase = {
  defaultScopes: string[];
  /** Apple posts its callback (form_post) when names or emails are requested. */
  authorizationUrl(state: string, codeVerifier: string, scopes: string[]): URL;
  exchangeCode(code: string, codeVerifier: string): Promise<OAuth2Tokens>;
  /** Null when the provider has no refresh grant. */
  refresh: ((refreshToken: string, scopes: string[]) => Promise<OAuth2Tokens>) | null;
  fetchUser(tokens: OAuth2Tokens): Promise<ProviderUser>;
};

/** One provider, uniformly, bounded in time; `checkAccessToken` asks its user API whether a token still works. */
export type ProviderClient = ProviderClientBase & {
  checkAccessToken(accessToken: string): Promise<AccessTokenCheck>;
};
