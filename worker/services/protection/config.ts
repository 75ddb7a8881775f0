/**
 * The attack-protection keys of the config, `doorman.protection.*` (a Doorman extension; issue 29):
 * - `turnstile`: Cloudflare Turnstile on the flows the project names (site keys, a sealed secret);
 * - `breachedPasswords`: new passwords checked against a k-anonymity range API (HIBP format);
 * - `newDeviceVerification`: a password sign-in without a second factor from an unknown device asks for
 *   an emailed code first (on for projects created from issue 29 on; projects.ts writes it at creation);
 * - `risk`: the score thresholds at which a bot challenge or a device code is demanded anyway.
 * They live only in the overrides (read through renderedConfigOf where they are needed).
 */
import { z } from "zod";

/** The flows that can require a Turnstile token, as the reference's actions name them. */
export const BOT_CHALLENGE_FLOWS = ["signUp", "signIn", "otp", "oauth"] as const;
export type BotChallengeFlow = (typeof BOT_CHALLENGE_FLOWS)[number];

const siteKey = z.string().min(1).max(128);
const score = z.number().int().min(0).max(101);

export const protectionConfigSchema = z.strictObject({
  turnstile: z.strictObject({
    /** The widget's site key (managed mode, and the visible retry after a failed invisible token). */
    siteKey: siteKey.optional(),
    /** The invisible widget's site key; absent = `siteKey`. */
    invisibleSiteKey: siteKey.optional(),
    /** The secret key siteverify checks tokens with: a config secret (sealed at rest, never answered). */
    secretKey: z.string().min(1).max(256).optional(),
    /** How the widget shows: "invisible" (no box unless a challenge is needed) or "managed" (Cloudflare decides). */
    mode: z.enum(["invisible", "managed"]),
    /** Flows that always require a token; off ones still require one when the risk score says so. */
    require: z.strictObject({ signUp: z.boolean(), signIn: z.boolean(), otp: z.boolean(), oauth: z.boolean() }),
  }),
  breachedPasswords: z.strictObject({ enabled: z.boolean() }),
  newDeviceVerification: z.strictObject({ enabled: z.boolean() }),
  risk: z.strictObject({
    /** At or above this score a Turnstile token is required (when the project has Turnstile keys); 101 = never. */
    challengeAt: score,
    /** At or above this score a password sign-in needs an emailed code even from a known device; 101 = never. */
    verifyDeviceAt: score,
  }),
});
export type ProtectionConfig = z.infer<typeof protectionConfigSchema>;

/** The defaults of a project that set nothing (an existing project: device verification stays off). */
export function defaultProtectionConfig(): ProtectionConfig {
  return {
    turnstile: { mode: "invisible", require: { signUp: false, signIn: false, otp: false, oauth: false } },
    // On by default; the deployment decides whether a range API is reachable (PWNED_PASSWORDS_URL, off in development).
    breachedPasswords: { enabled: true },
    newDeviceVerification: { enabled: false },
    risk: { challengeAt: 50, verifyDeviceAt: 70 },
  };
}

/** What a project created from now on starts with, on top of the defaults (Clerk's Device Trust: on for new apps). */
export const NEW_PROJECT_PROTECTION_OVERRIDE = { "doorman.protection.newDeviceVerification.enabled": true } as const;
