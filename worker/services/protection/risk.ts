/**
 * Risk signals (issue 29, a Doorman extension): each sign-in and sign-up gets a small, explainable
 * score 0–100, the capped sum of the weights of the named signals that fired. The sign-in's score goes
 * into its events, asks for an emailed code at `doorman.protection.risk.verifyDeviceAt` and for a bot
 * challenge at `…challengeAt` (assessSignIn's `riskDemandsChallenge`, for the Turnstile gate). A
 * sign-up gets the reference's stored `risk_scores.sign_up` { bot, free_trial_abuse } (assessSignUp),
 * which the sign-up rules read. Cost: one indexed read of the user's devices and one read of the
 * rate-limit counters per sign-in; one counter read per sign-up. No writes.
 */
import { type KnownDeviceRow, listRecentDevices } from "../../db/queries/known-devices";
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { renderedConfigOf } from "../project-config/cache";
import { readProjectConfig } from "../project-config/flat";
import { peekRateLimits, type RateLimitProject } from "../rate-limit";
import { deviceHashOf, userAgentFamily } from "./device-token";
import { isDisposableEmail } from "./disposable-domains";

/** Each signal's weight in a sign-in's score (docs/security.md "Risk signals" lists them). */
export const SIGN_IN_WEIGHTS = {
  new_device: 20,
  new_country: 25,
  impossible_travel: 50,
  many_failures: 30,
  disposable_domain: 15,
  tor_exit: 40,
} as const;
export type SignInSignal = keyof typeof SIGN_IN_WEIGHTS;

/** Faster than an airliner over a distance no one mistakes for the same city: two places at once. */
export const IMPOSSIBLE_SPEED_KMH = 900;
export const IMPOSSIBLE_MIN_KM = 500;
/** Recent failures that make "many": wrong passwords for the account from this address (5 min), or from anywhere (1 h). */
export const MANY_FAILURES_FROM_ADDRESS = 3;
export const MANY_FAILURES_FOR_ACCOUNT = 10;
/** Cloudflare's country code for a request from a Tor exit node. */
export const TOR_COUNTRY = "T1";

export type SignInAssessment = {
  score: number;
  signals: SignInSignal[];
  /** The device token is unknown for the user, or was last used with another user-agent family. */
  newDevice: boolean;
  /** The presented token's stored form (null: the request had none). */
  deviceHash: string | null;
  uaFamily: string;
  /** The score is at or above `doorman.protection.risk.challengeAt`: the Turnstile gate requires a token. */
  riskDemandsChallenge: boolean;
  /** The score is at or above `doorman.protection.risk.verifyDeviceAt`: a password sign-in needs an emailed code. */
  riskDemandsVerification: boolean;
};

/** The great-circle distance in km (haversine). */
export function distanceKm(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

function rateLimitProject(project: ProjectRow): RateLimitProject {
  return { id: project.id, limits: readProjectConfig(project.config).rate_limits };
}

function scoreOf(weights: Record<string, number>, signals: string[]): number {
  return Math.min(
    100,
    signals.reduce((sum, s) => sum + (weights[s] ?? 0), 0),
  );
}

/** The last sign-in anywhere (the most recently seen device with coordinates) vs. this one. */
function isImpossibleTravel(deps: Deps, devices: KnownDeviceRow[]): boolean {
  const { latitude, longitude } = deps.audit;
  if (latitude == null || longitude == null) return false;
  const last = devices.find((d) => d.lastLatitude !== null && d.lastLongitude !== null);
  if (!last || last.lastLatitude === null || last.lastLongitude === null) return false;
  const km = distanceKm({ lat: last.lastLatitude, lon: last.lastLongitude }, { lat: latitude, lon: longitude });
  // At least a minute apart in the arithmetic, so two requests in one second are not "infinitely fast" over a few km.
  const hours = Math.max(deps.now() - last.lastSeenAt, 60_000) / 3_600_000;
  return km > IMPOSSIBLE_MIN_KM && km / hours > IMPOSSIBLE_SPEED_KMH;
}

/**
 * A sign-in's signals for `user`, from the request (deps.audit: device token, user agent, country,
 * coordinates) and `email` (the address a password sign-in was typed with: its failure counters).
 * `devices`: the user's recent devices when the caller already read them (listRecentDevices).
 */
export async function assessSignIn(
  deps: Deps,
  project: ProjectRow,
  input: { userId: string; email?: string | null; devices?: KnownDeviceRow[] },
): Promise<SignInAssessment & { devices: KnownDeviceRow[] }> {
  const token = deps.audit.deviceToken ?? null;
  const [devices, deviceHash, request] = await Promise.all([
    // A password sign-in read them in its batch (db/queries/password-sign-in.ts).
    input.devices ?? listRecentDevices(deps.db, project.id, input.userId),
    token ? deviceHashOf(token) : Promise.resolve(null),
    requestSignals(deps, project, input.email ?? null),
  ]);
  const uaFamily = userAgentFamily(deps.audit.userAgent);
  const known = deviceHash ? devices.find((d) => d.deviceHash === deviceHash) : undefined;
  const newDevice = !known || known.uaFamily !== uaFamily;
  const country = deps.audit.countryCode?.toUpperCase() ?? null;
  const seenCountries = new Set(devices.map((d) => d.lastCountryCode).filter((c): c is string => c !== null));
  const signals: SignInSignal[] = [];
  if (newDevice) signals.push("new_device");
  // Only against a history: a user's first sign-in anywhere has no "usual" country.
  if (country && country !== TOR_COUNTRY && seenCountries.size > 0 && !seenCountries.has(country)) signals.push("new_country");
  if (isImpossibleTravel(deps, devices)) signals.push("impossible_travel");
  signals.push(...request);
  return { ...verdict(project, signals), newDevice, deviceHash, uaFamily, devices };
}

/** The score of a list of signals, and what the project's thresholds make of it. */
function verdict(project: ProjectRow, signals: SignInSignal[]) {
  const score = scoreOf(SIGN_IN_WEIGHTS, signals);
  const { risk } = renderedConfigOf(project).doorman.protection;
  return { score, signals, riskDemandsChallenge: score >= risk.challengeAt, riskDemandsVerification: score >= risk.verifyDeviceAt };
}

/**
 * The signals of the request alone, whoever the account is: recent failures for the typed address (from
 * this IP and overall), a disposable domain, a Tor exit. One read of the rate-limit counters.
 */
async function requestSignals(deps: Deps, project: ProjectRow, rawEmail: string | null, ownHit = true): Promise<SignInSignal[]> {
  const ip = deps.audit.ip;
  const email = rawEmail?.trim().toLowerCase() || null;
  const checks = email
    ? [
        ...(ip ? [{ rule: "SIGN_IN_PER_EMAIL_IP" as const, scope: `${email}\n${ip}` }] : []),
        { rule: "SIGN_IN_PER_EMAIL" as const, scope: email },
      ]
    : [];
  const counts = checks.length ? await peekRateLimits(deps, checks, deps.now(), rateLimitProject(project)) : [];
  // A sign-in's counters hold its own hit too (failures-only rules give it back only after a success);
  // another flow (sign-up, OTP) did not count on the sign-in rules.
  const failures = counts.map((n) => Math.max(0, n - (ownHit ? 1 : 0)));
  const [fromAddress, forAccount] = ip ? [failures[0] ?? 0, failures[1] ?? 0] : [0, failures[0] ?? 0];
  const signals: SignInSignal[] = [];
  if (fromAddress >= MANY_FAILURES_FROM_ADDRESS || forAccount >= MANY_FAILURES_FOR_ACCOUNT) signals.push("many_failures");
  if (email && isDisposableEmail(email)) signals.push("disposable_domain");
  if (deps.audit.countryCode?.toUpperCase() === TOR_COUNTRY) signals.push("tor_exit");
  return signals;
}

/**
 * For the Turnstile gate (issue 29), before the credentials are checked: whether the request's own
 * signals (failures for the typed address, a disposable domain, a Tor exit) reach
 * `doorman.protection.risk.challengeAt`. The account's devices are left out on purpose: a challenge
 * that depended on them would tell whether an address has an account. `signIn: false` for another flow
 * (sign-up, OTP), whose request did not count on the sign-in failure counters. After a first factor,
 * `assessSignIn(...).riskDemandsChallenge` is the full answer.
 *
 * @example
 * const { riskDemandsChallenge } = await assessSignInRequest(deps, project, { email: body.email });
 */
export async function assessSignInRequest(
  deps: Deps,
  project: ProjectRow,
  input: { email?: string | null; signIn?: boolean },
): Promise<{ score: number; signals: SignInSignal[]; riskDemandsChallenge: boolean }> {
  const signals = await requestSignals(deps, project, input.email ?? null, input.signIn ?? true);
  const { score, riskDemandsChallenge } = verdict(project, signals);
  return { score, signals, riskDemandsChallenge };
}

/** Each sign-up signal's weights in the reference's two scores. */
export const SIGN_UP_WEIGHTS = {
  disposable_domain: { bot: 20, free_trial_abuse: 60 },
  tor_exit: { bot: 40, free_trial_abuse: 30 },
  address_reuse: { bot: 30, free_trial_abuse: 40 },
} as const;
export type SignUpSignal = keyof typeof SIGN_UP_WEIGHTS;
/** Sign-ups from one address in its SIGN_UP_PER_IP window (an hour by default) before this one that make "reuse". */
export const ADDRESS_REUSE_SIGN_UPS = 3;

export type SignUpRiskScores = { bot: number; free_trial_abuse: number };
export type SignUpAssessment = { scores: SignUpRiskScores; signals: SignUpSignal[] };

/**
 * A sign-up's scores (the reference's `risk_scores.sign_up`). Address reuse reads the SIGN_UP_PER_IP
 * counter the route's rate limit already keeps atomically (this sign-up's hit included).
 */
export async function assessSignUp(deps: Deps, project: ProjectRow, email: string | null): Promise<SignUpAssessment> {
  const ip = deps.audit.ip;
  const [signUps = 0] = ip
    ? await peekRateLimits(deps, [{ rule: "SIGN_UP_PER_IP", scope: ip }], deps.now(), rateLimitProject(project))
    : [0];
  const signals: SignUpSignal[] = [];
  if (email && isDisposableEmail(email)) signals.push("disposable_domain");
  if (deps.audit.countryCode?.toUpperCase() === TOR_COUNTRY) signals.push("tor_exit");
  if (signUps - 1 >= ADDRESS_REUSE_SIGN_UPS) signals.push("address_reuse");
  const sum = (key: keyof SignUpRiskScores) =>
    Math.min(
      100,
      signals.reduce((n, s) => n + SIGN_UP_WEIGHTS[s][key], 0),
    );
  return { scores: { bot: sum("bot"), free_trial_abuse: sum("free_trial_abuse") }, signals };
}
