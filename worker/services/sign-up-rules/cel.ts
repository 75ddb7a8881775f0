/**
 * Sign-up rule conditions in CEL (@marcbachmann/cel-js: pure JavaScript, no eval or new Function, so
 * it runs on Workers). A condition is compiled once per isolate: parsed with the library's limits,
 * type-checked against the sign-up context's variables (it must be a bool), then checked for cost
 * (see `costProblem`). `compileCondition` is what the config write runs (a bad condition is a 400
 * then), and `evaluateCondition` what every sign-up runs.
 */
import { type ASTNode, Environment, type ParseResult } from "@marcbachmann/cel-js";
import { IsolateCache } from "../../lib/isolate-cache";
import { unsafePatternReason } from "./regex-safety";

/** The longest condition accepted: the reference's conditions are one line. */
export const MAX_CONDITION_LENGTH = 2000;
/** Comprehension macros: each one loops over a list, so they may not nest (a loop in a loop is quadratic, and so on). */
const LOOP_MACROS = new Set(["all", "exists", "exists_one", "map", "filter"]);

// Cost bounds: the library refuses an expression past these while parsing, before anything runs.
const environment = new Environment({
  limits: { maxAstNodes: 400, maxDepth: 24, maxListElements: 256, maxMapEntries: 64, maxCallArguments: 4 },
})
  .registerVariable("email", "string")
  .registerVariable("emailDomain", "string")
  .registerVariable("countryCode", "string")
  .registerVariable("authMethod", "string")
  .registerVariable("oauthProvider", "string")
  .registerVariable("riskScores", "map<string, int>");

/** The variables a condition reads (the reference's sign-up context). */
export type SignUpRuleContext = {
  email: string;
  emailDomain: string;
  countryCode: string;
  authMethod: string;
  oauthProvider: string;
  riskScores: { bot: number; free_trial_abuse: number };
};

export type CompiledCondition = { ok: true; run: ParseResult } | { ok: false; message: string };

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
  const costly = costProblem(run.ast, 0);
  return costly ? { ok: false, message: costly } : { ok: true, run };
}

/**
 * Why the expression could cost too much, or null. `matches()` takes a string literal (a pattern
 * from the sign-up's own data would let the signer-up choose the regex) that regex-safety.ts accepts;
 * comprehension macros do not nest.
 */
function costProblem(node: ASTNode, loops: number): string | null {
  if (node.op === "call" || node.op === "rcall") {
    const [name] = node.args;
    const params = node.op === "call" ? node.args[1] : node.args[2];
    if (name === "matches") {
      const pattern = params[params.length - 1];
      if (pattern?.op !== "value" || typeof pattern.args !== "string") return "matches() takes a string literal pattern";
      const unsafe = unsafePatternReason(pattern.args);
      if (unsafe) return unsafe;
    }
    if (node.op === "rcall" && LOOP_MACROS.has(name)) {
      if (loops >= 1) return `${name}() may not be used inside another list macro`;
      loops++;
    }
  }
  for (const child of children(node)) {
    const problem = costProblem(child, loops);
    if (problem) return problem;
  }
  return null;
}

function children(node: ASTNode): ASTNode[] {
  const isNode = (v: unknown): v is ASTNode => typeof v === "object" && v !== null && "op" in v;
  if (node.op === "value" || node.op === "id") return [];
  const out: ASTNode[] = [];
  const visit = (v: unknown): void => {
    if (isNode(v)) out.push(v);
    else if (Array.isArray(v)) for (const item of v) visit(item);
  };
  visit(node.args);
  return out;
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
