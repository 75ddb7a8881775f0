/** The OAuth providers Doorman can sign in with: ids (as on the wire) and display names. No imports: shared by worker, SDK and web. */
export const PROVIDER_IDS = [
  "google",
  "github",
  "microsoft",
  "facebook",
  "discord",
  "gitlab",
  "bitbucket",
  "linkedin",
  "apple",
  "x",
  "spotify",
  "twitch",
] as const;

export type ProviderId = (typeof PROVIDER_IDS)[number];

export const PROVIDER_NAMES: Record<ProviderId, string> = {
  google: "Google",
  github: "GitHub",
  microsoft: "Microsoft",
  facebook: "Facebook",
  discord: "Discord",
  gitlab: "GitLab",
  bitbucket: "Bitbucket",
  linkedin: "LinkedIn",
  apple: "Apple",
  x: "X",
  spotify: "Spotify",
  twitch: "Twitch",
};

/**
 * The redirect (callback) URL to register at a provider: Doorman's callback on the public API origin.
 * The worker sends exactly this as redirect_uri; the console shows it beside a provider's own keys.
 *
 * @example
 * oauthCallbackUrl("https://auth.example.com", "github"); // "https://auth.example.com/api/v1/auth/oauth/callback/github"
 */
export function oauthCallbackUrl(apiOrigin: string, providerConfigId: string): string {
  return `${apiOrigin.replace(/\/+$/, "")}/api/v1/auth/oauth/callback/${encodeURIComponent(providerConfigId)}`;
}
