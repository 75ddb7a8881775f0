/**
 * Where a visible bot challenge (Turnstile) renders in the sign-in and sign-up cards: the client app's
 * flow (sdk/src/apps/bot-challenge.ts) puts the widget here while the card is mounted.
 */
import { setBotChallengeSlot } from "../../apps/bot-challenge";
import { useStackApp } from "../provider";

/**
 * @example
 * <AuthCard title="Sign up">…<BotChallengeSlot /></AuthCard>
 */
export function BotChallengeSlot() {
  const app = useStackApp();
  return <div className="stack-bot-challenge" ref={(el) => setBotChallengeSlot(app, el)} />;
}
