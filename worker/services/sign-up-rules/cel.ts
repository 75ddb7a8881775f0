/**
 * Sign-up rule conditions in CEL (@marcbachmann/cel-js: pure JavaScript, no eval or new Function, so
 * it runs on Workers). A condition is compiled once per isolate: parsed with the library's limits,
 * type-checked against the sign-up context's variables (it must be a bool), then given a static
 * cost bound (cost.ts) and refused past it. `compileCondition` is what the config write runs (a bad condition is a 400
 * then), and `evaluateCondition` what every sign-up runs.
 */
import { Environment, type ParseResult } from "@marcbachmann/cel-js";
import { IsolateCache } from "../../lib/isolate-cache";
import { conditionCost } from "./cost";

/** The longest condition accepted: the reference's conditions are one line. */
export const MAX_CONDITION_LENGTH = 2000;

// Cost bounds: the library refuses an expression past these while parsing, before anything runs.
const environment = new Environment({
  limits: { maxAstNodes: 400, maxDepth: 24, maxListElements: 256, maxMapEntries: 64, maxCallArguments: 4 },
})
  .registerVariable("email", "string")
  .registerVariable("emailDomain", "string")
  // Doorman extension: the email's domain is on the bundled disposable-domain list (protection/disposable-domains.ts).
  .registerVariable("emailDomainDisposable", "bool")
  .registerVariable("countryCode", "string")
  .registerVariable("authMethod", "string")
  .registerVariable("oauthProvider", "string")
  .registerVariable("riskScores", "map<string, int>");

/** The variables a condition reads (the reference's sign-up context). */
export type SignUpRuleContext = {
  email: string;
  emailDomain: string;
  emailDomainDisposable: boolean;
  countryCode: string;
  authMethod: string;
  oauthProvider: string;
  riskScores: { bot: number; free_trial_abuse: number };
};

/** A usable condition with its cost bound (cost.ts), or why it is refused. */
export type CompiledCondition = { ok: true; run: ParseResult; cost: number } | { ok: false; message: string };

// A compiled condition depends on its text alone, so it never expires; a small bound per isolate.
const compiled = new IsolateCache<CompiledCondition>({ ttlMs: Number.POSITIVE_INFINITY, maxEntries: 256 });

/** The condition compiled, or why it is refused (parse error, type error, not a bool, too costly). */
export function compileCondition(condition: string): CompiledCondition {
  // Checked before the cache, so an oversized text is never kept as a key.
  if (condition.length > MAX_CONDITION_LENGTH)
    return { ok: false, message: `a condition may have at most ${MAX_CONDITION_LENGTH} characters` };
  const cached = compiled.get(condition, 0);
  if (cached) return cached;
  const result = compileUncached(condition);
  compiled.set(condition, result, 0);
  return result;
}

function compileUncached(condition: string): CompiledCondition {
  let run: ParseResult;
  try {
    run = environment.parse(condition);
  } catch (error) {
    return { ok: false, message: firstLine(error) };
  }
  const checked = run.check();
  if (!checked.valid) return { ok: false, message: firstLine(checked.error) };
  if (checked.type !== "bool") return { ok: false, message: `a condition must be a bool, not ${checked.type}` };
  const cost = conditionCost(run.ast);
  return cost.ok ? { ok: true, run, cost: cost.cost } : { ok: false, message: cost.message };
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0] ?? "invalid condition";
}

/** The condition's value for this context: a bool, or the error that stopped it (a bad regex, say). */
export function evaluateCondition(
  condition: string,
  context: SignUpRuleContext,
): { ok: true; matches: boolean } | { ok: false; error: string } {
  const compiledCondition = compileCondition(condition);
  // A condition stored before a limit existed is refused here as it would be at write time.
  if (!compiledCondition.ok) return { ok: false, error: compiledCondition.message };
  try {
    const value = compiledCondition.run({
      ...context,
      riskScores: new Map([
        ["bot", BigInt(Math.trunc(context.riskScores.bot))],
        ["free_trial_abuse", BigInt(Math.trunc(context.riskScores.free_trial_abuse))],
      ]),
    });
    if (typeof value !== "boolean") return { ok: false, error: `the condition gave ${typeof value}, not a bool` };
    return { ok: true, matches: value };
  } catch (error) {
    return { ok: false, error: firstLine(error) };
  }
}
