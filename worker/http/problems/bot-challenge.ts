/** The wire errors of the bot challenge (Turnstile) problems: the reference's BOT_CHALLENGE_REQUIRED and BOT_CHALLENGE_FAILED. */
import { KnownError } from "@doorman/shared/known-errors";
import type { BotChallengeProblemFields } from "../../services/protection/bot-challenge-problems";
import type { ProblemMap } from "../../services/result";

export const botChallengeProblems = {
  bot_challenge_required: () => new KnownError("BOT_CHALLENGE_REQUIRED"),
  bot_challenge_failed: (problem) => new KnownError("BOT_CHALLENGE_FAILED", { message: problem.message }),
} satisfies ProblemMap<keyof BotChallengeProblemFields>;
