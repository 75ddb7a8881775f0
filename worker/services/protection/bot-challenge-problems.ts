/**
 * The bot challenge's problem reasons: a slice of ProblemFields (services/result.ts), mapped by
 * `botChallengeProblems` in worker/http/problems/bot-challenge.ts.
 */

export type BotChallengeProblemFields = {
  /** A token is required and none was sent, or the invisible one failed: the client runs the visible challenge. */
  bot_challenge_required: Record<never, never>;
  /** The visible (or only) challenge failed, could not be verified, or the client could not load it. */
  bot_challenge_failed: { message: string };
};
