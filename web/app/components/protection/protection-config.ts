/**
 * The attack-protection settings as the Protection page edits them: config `doorman.protection`
 * (worker/services/protection/config.ts) read from the rendered config, the forms' checks, the
 * dotted keys written back with updateConfig, and the API's refusal placed on its field. The
 * Turnstile secret key is write-only: the page knows only whether one is stored.
 */
import type { OwnedProject } from "../../lib/dashboard-types";

export const FLOWS = ["signUp", "signIn", "otp", "oauth"] as const;
export type Flow = (typeof FLOWS)[number];

export const FLOW_LABELS: Record<Flow, string> = {
  signUp: "Password sign-up",
  signIn: "Password sign-in",
  otp: "Sending a magic link / one-time code",
  oauth: "Starting an OAuth sign-in",
};

export type Protection = {
  turnstile: { siteKey?: string; invisibleSiteKey?: string; mode: "invisible" | "managed"; require: Record<Flow, boolean> };
  breachedPasswords: { enabled: boolean };
  newDeviceVerification: { enabled: boolean };
  risk: { challengeAt: number; verifyDeviceAt: number };
};

/** The worker's defaults (protection/config.ts), for a config that does not answer a key. */
const DEFAULTS: Protection = {
  turnstile: { mode: "invisible", require: { signUp: false, signIn: false, otp: false, oauth: false } },
  breachedPasswords: { enabled: true },
  newDeviceVerification: { enabled: false },
  risk: { challengeAt: 50, verifyDeviceAt: 70 },
};

export function protectionFromConfig(config: Record<string, unknown>): Protection {
  const p = ((config.doorman as { protection?: Partial<Protection> } | undefined)?.protection ?? {}) as Partial<Protection>;
  return {
    turnstile: { ...DEFAULTS.turnstile, ...p.turnstile, require: { ...DEFAULTS.turnstile.require, ...p.turnstile?.require } },
    breachedPasswords: { ...DEFAULTS.breachedPasswords, ...p.breachedPasswords },
    newDeviceVerification: { ...DEFAULTS.newDeviceVerification, ...p.newDeviceVerification },
    risk: { ...DEFAULTS.risk, ...p.risk },
  };
}

export async function loadProtection(project: OwnedProject): Promise<Protection> {
  return protectionFromConfig(await project.getConfig());
}

export type TurnstileForm = {
  siteKey: string;
  invisibleSiteKey: string;
  /** A new secret key; empty keeps the stored one. */
  secretKey: string;
  removeSecret: boolean;
  mode: "invisible" | "managed";
  require: Record<Flow, boolean>;
};

export const turnstileFormOf = (p: Protection): TurnstileForm => ({
  siteKey: p.turnstile.siteKey ?? "",
  invisibleSiteKey: p.turnstile.invisibleSiteKey ?? "",
  secretKey: "",
  removeSecret: false,
  mode: p.turnstile.mode,
  require: { ...p.turnstile.require },
});

/** Field errors by the id of the field in error, in page order. */
export type FieldErrors = Record<string, string>;

export function turnstileProblems(form: TurnstileForm, hasStoredSecret: boolean): FieldErrors {
  const errors: FieldErrors = {};
  if (form.siteKey.trim().length > 128) errors["turnstile-site-key"] = "At most 128 characters.";
  if (form.invisibleSiteKey.trim().length > 128) errors["turnstile-invisible-site-key"] = "At most 128 characters.";
  if (form.secretKey.length > 256) errors["turnstile-secret-key"] = "At most 256 characters.";
  const requiresAny = FLOWS.some((f) => form.require[f]);
  const secretAfter = form.removeSecret ? false : form.secretKey !== "" || hasStoredSecret;
  if (requiresAny && !form.siteKey.trim())
    errors["turnstile-site-key"] = "Enter the site key from the Cloudflare dashboard: the flows you require need the widget.";
  else if (requiresAny && !secretAfter) errors["turnstile-secret-key"] = "Enter the secret key: without it no token can be verified.";
  return errors;
}

/** The dotted keys of the Turnstile form: an empty site key removes its key; the secret only when typed, or null when removed. */
export function turnstileOverride(form: TurnstileForm): Record<string, unknown> {
  const out: Record<string, unknown> = {
    "doorman.protection.turnstile.siteKey": form.siteKey.trim() || null,
    "doorman.protection.turnstile.invisibleSiteKey": form.invisibleSiteKey.trim() || null,
    "doorman.protection.turnstile.mode": form.mode,
    "doorman.protection.turnstile.require": { ...form.require },
  };
  if (form.removeSecret) out["doorman.protection.turnstile.secretKey"] = null;
  else if (form.secretKey) out["doorman.protection.turnstile.secretKey"] = form.secretKey;
  return out;
}

export type RiskForm = { challengeAt: string; verifyDeviceAt: string };

export function riskProblems(form: RiskForm): FieldErrors {
  const errors: FieldErrors = {};
  for (const [key, id] of [
    ["challengeAt", "risk-challenge-at"],
    ["verifyDeviceAt", "risk-verify-device-at"],
  ] as const) {
    const value = form[key].trim();
    if (!/^\d+$/.test(value) || Number(value) > 101) errors[id] = "Use a whole number from 0 to 101 (101: never).";
  }
  return errors;
}

export const riskOverride = (form: RiskForm): Record<string, unknown> => ({
  "doorman.protection.risk.challengeAt": Number(form.challengeAt.trim()),
  "doorman.protection.risk.verifyDeviceAt": Number(form.verifyDeviceAt.trim()),
});

const FIELD_OF_PATH: Record<string, string> = {
  "doorman.protection.turnstile.siteKey": "turnstile-site-key",
  "doorman.protection.turnstile.invisibleSiteKey": "turnstile-invisible-site-key",
  "doorman.protection.turnstile.secretKey": "turnstile-secret-key",
  "doorman.protection.risk.challengeAt": "risk-challenge-at",
  "doorman.protection.risk.verifyDeviceAt": "risk-verify-device-at",
};

/** "Invalid config value at doorman.protection.turnstile.siteKey: …" → that field's error; else the form's. */
export function placeProtectionError(message: string): { field: string | null; message: string } {
  const match = /^Invalid config value at (\S+): (.*)$/s.exec(message.trim());
  const field = match ? FIELD_OF_PATH[match[1]!] : undefined;
  return field ? { field, message: match![2]! } : { field: null, message };
}
