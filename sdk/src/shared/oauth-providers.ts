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
