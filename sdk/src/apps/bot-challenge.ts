/**
 * The bot-challenge (Turnstile) flow of the sign-up and sign-in calls, as the reference's client
 * runs it: when the project exposes a site key (GET /projects/current, `config.bot_challenge`), an
 * invisible token first (phase "invisible"); on BOT_CHALLENGE_REQUIRED a visible widget and one
 * retry (phase "visible"); when no widget can be had at all, `bot_challenge_unavailable`. The
 * browser widget code is its own module (turnstile-widget.ts), imported only when a project has keys;
 * Cloudflare's script is injected only then. Outside a browser the call goes out without a token.
 */

import { KnownError } from "../shared/known-errors";
import type { AppCore } from "./app-core";
import { widgetToken } from "./turnstile-widget";
import type { BotChallengeClientJson, ProjectClientJson } from "./wire-types";

/** The reference's actions (plus Doorman's password sign-in). */
export type BotChallengeAction = "sign_up_with_credential" | "sign_in_with_credential" | "send_magic_link_email" | "oauth_authenticate";
/** The request fields (query params on OAuth authorize). */
export type BotChallengeFields = {
  bot_challenge_token?: string;
  bot_challenge_phase?: "invisible" | "visible";
  bot_challenge_unavailable?: "true";
};

type AppState = { settings?: Promise<BotChallengeClientJson | null>; slot: HTMLElement | null };
const states = new WeakMap<object, AppState>();
const stateOf = (app: object): AppState => {
  let s = states.get(app);
  if (!s) states.set(app, (s = { slot: null }));
  return s;
};

/**
 * Where a visible challenge renders (a container in the sign-in or sign-up card); null = a small box
 * at the bottom of the page. The React components set it while they are mounted.
 */
export function setBotChallengeSlot(app: object, slot: HTMLElement | null): void {
  stateOf(app).slot = slot;
}

/** The project's widget settings, asked once per app (a failed ask is asked again next time). */
function settingsOf(app: AppCore): Promise<BotChallengeClientJson | null> {
  const s = stateOf(app);
  s.settings ??= app._http.request<ProjectClientJson>("/projects/current").then(
    (p) => p.config.bot_challenge ?? null,
    (error) => {
      s.settings = undefined;
      throw error;
    },
  );
  return s.settings;
}

/**
 * Runs `send` with the bot-challenge fields the project calls for: none without keys (or outside a
 * browser); else the reference's two phases.
 *
 * @example
 * const tokens = await withBotChallenge(app, "sign_up_with_credential", (fields) => post({ ...body, ...fields }));
 */
export async function withBotChallenge<T>(
  app: AppCore,
  action: BotChallengeAction,
  send: (fields: BotChallengeFields) => Promise<T>,
): Promise<T> {
  const settings = typeof window === "undefined" ? null : await settingsOf(app);
  if (!settings) return send({});
  // A visible widget's token; when none can be had (Cloudflare unreachable, a blocker) the server is told so and decides.
  const visible = (): Promise<BotChallengeFields> =>
    widgetToken(settings, action, stateOf(app).slot, true).then(
      (token) => ({ bot_challenge_token: token, bot_challenge_phase: "visible" }),
      () => ({ bot_challenge_unavailable: "true" }),
    );
  const first: BotChallengeFields = await widgetToken(settings, action, stateOf(app).slot, false).then(
    (token) => ({ bot_challenge_token: token, bot_challenge_phase: "invisible" }),
    visible,
  );
  try {
    return await send(first);
  } catch (error) {
    // Only a failed invisible token earns the visible retry (once).
    if (first.bot_challenge_phase !== "invisible" || !(error instanceof KnownError && error.is("BOT_CHALLENGE_REQUIRED"))) throw error;
  }
  return send(await visible());
}
