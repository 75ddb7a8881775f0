/**
 * The bot-challenge gate of the sign-up and sign-in flows (password sign-up and sign-in, OTP / magic
 * link, OAuth authorize): reads the request's bot_challenge_* fields, verifies a token with
 * siteverify (turnstile.ts) and decides, with the reference's phases:
 * - no phase (a legacy client): the raw assessment;
 * - "invisible" failed: BOT_CHALLENGE_REQUIRED (409), the client retries with a visible challenge;
 * - "visible" failed: BOT_CHALLENGE_FAILED (400);
 * - bot_challenge_unavailable: the assessment "error" (Cloudflare could not be reached from the browser).
 * A token is required only where the project turns the flow on (`doorman.protection.turnstile.require`)
 * or where the request's risk score reaches `doorman.protection.risk.challengeAt` (risk.ts
 * assessSignInRequest), and only when the project has both keys.
 * Where it is not required a sent token is still verified, its result recorded, and nothing refused.
 */
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { renderedConfigOf } from "../project-config/cache";
import { openConfigSecret } from "../project-config/secrets";
import { fail, type Problem } from "../result";
import type { BotChallengeFlow } from "./config";
import { assessSignInRequest } from "./risk";
import { type TurnstileAction, type TurnstileStatus, verifyTurnstileToken } from "./turnstile";

/** The request fields, as the wire sends them (query params on OAuth authorize). */
export type BotChallengeFields = {
  bot_challenge_token?: string;
  bot_challenge_phase?: "invisible" | "visible";
  bot_challenge_unavailable?: "true";
};

/** The reference's assessment: `visibleChallengeResult` is set once a visible challenge was involved. */
export type TurnstileAssessment = { status: TurnstileStatus; visibleChallengeResult?: TurnstileStatus };

export type BotChallengeOutcome =
  /** `assessment` null: the project has no Turnstile keys, nothing was verified. */
  { ok: true; assessment: TurnstileAssessment | null } | Problem<"bot_challenge_required" | "bot_challenge_failed">;

export const FLOW_ACTIONS: Record<BotChallengeFlow, TurnstileAction> = {
  signUp: "sign_up_with_credential",
  signIn: "sign_in_with_credential",
  otp: "send_magic_link_email",
  oauth: "oauth_authenticate",
};

const MESSAGES = {
  visibleFailed: "Visible bot challenge verification failed",
  unverifiable: "The bot challenge could not be verified right now. Please try again in a moment.",
  unavailable: "This request needs a bot challenge, and the challenge could not be loaded.",
  contradictory: "bot_challenge_unavailable cannot be combined with a bot challenge token or phase.",
} as const;

/**
 * Checks the bot challenge of one request of `flow`. `email`: the address the request names (sign-up,
 * sign-in, OTP), for the risk signals' failure count; `riskDemands` forces the requirement (tests, and a
 * caller that already scored the request).
 */
export async function checkBotChallenge(
  deps: Deps,
  project: ProjectRow,
  flow: BotChallengeFlow,
  fields: BotChallengeFields,
  options: { email?: string | null; riskDemands?: boolean } = {},
): Promise<BotChallengeOutcome> {
  const turnstile = renderedConfigOf(project).doorman.protection.turnstile;
  const secret = turnstile.siteKey ? await openConfigSecret(deps, turnstile.secretKey) : null;
  // Without both keys there is no widget to solve and no way to verify: nothing is demanded.
  if (!secret) return { ok: true, assessment: null };
  // The risk score is read only where it can change the answer: keys set, flow not already required.
  const required =
    turnstile.require[flow] ||
    options.riskDemands === true ||
    (await assessSignInRequest(deps, project, { email: options.email ?? null, signIn: flow === "signIn" })).riskDemandsChallenge;
  const phase = fields.bot_challenge_phase;

  if (fields.bot_challenge_unavailable === "true") {
    if (fields.bot_challenge_token !== undefined || phase !== undefined)
      return fail("bot_challenge_failed", { message: MESSAGES.contradictory });
    // A client's word that the widget did not load proves nothing: where a token is required it is refused.
    if (required) return fail("bot_challenge_failed", { message: MESSAGES.unavailable });
    return { ok: true, assessment: { status: "error", visibleChallengeResult: "error" } };
  }

  const token = fields.bot_challenge_token?.trim() || undefined;
  // Nothing sent where a token is required: ask for one (the SDK runs the challenge and retries).
  if (token === undefined && required) return fail("bot_challenge_required");
  const status = await verifyTurnstileToken(deps, project, { secret, token, action: FLOW_ACTIONS[flow] });

  if (!required) {
    // Recorded, never refused: the sign-up rules and the risk score read it.
    if (phase === "visible") return { ok: true, assessment: { status: "invalid", visibleChallengeResult: status } };
    return { ok: true, assessment: { status } };
  }
  // Outage policy, where a token is required: fail closed. A flow the owner marked as required must
  // not open because siteverify is slow or down (the reference records "error" and goes on; it has no
  // "required"). The invisible phase asks for the visible retry (the outage may be over by then); after
  // that, a plain "try again" (BOT_CHALLENGE_FAILED). Flows that do not require a token stay open.
  if (phase === "invisible") {
    if (status !== "ok") return fail("bot_challenge_required");
    return { ok: true, assessment: { status } };
  }
  if (status === "error") return fail("bot_challenge_failed", { message: MESSAGES.unverifiable });
  // A legacy client (no phase) has one try: it cannot run the visible retry, so a bad token is final.
  if (status !== "ok") return fail("bot_challenge_failed", { message: MESSAGES.visibleFailed });
  // Visible passed after the invisible one failed: recorded as "invalid" with the visible "ok", as the
  // reference does (never the client's word for why the invisible one failed).
  if (phase === "visible") return { ok: true, assessment: { status: "invalid", visibleChallengeResult: "ok" } };
  return { ok: true, assessment: { status } };
}
