/**
 * The evaluation cost of a sign-up rule condition, bounded before it ever runs. CEL evaluation is
 * synchronous and cannot be interrupted, and every project's rules run in the isolate all projects
 * share, so each condition gets a static upper bound of its work (in units of about one AST node
 * evaluation, ~1 µs) and is refused past MAX_CONDITION_COST; a project's enabled rules together may
 * not pass MAX_RULES_COST (config.ts). The bound follows the sizes a condition can build:
 * - every string or list it computes has a size bound (context strings are cut at MAX_SUBJECT_LENGTH,
 *   a literal is its length, `+` adds, `split` keeps its receiver's) of at most MAX_VALUE_SIZE;
 * - a string function costs its receiver's and argument's sizes (a linear scan);
 * - `matches()` takes a string literal pattern that regex-safety.ts accepts (its worst case is then
 *   quadratic) and costs the square of its subject's size;
 * - a list macro (`all`, `exists`, `exists_one`, `map`, `filter`) may not nest, and costs its body
 *   once per element of its receiver.
 */
import type { ASTNode } from "@marcbachmann/cel-js";
import { unsafePatternReason } from "./regex-safety";

/** Longest string a condition sees from the sign-up (context.ts cuts them): bounds what a matches() pattern runs over. */
export const MAX_SUBJECT_LENGTH = 320;
/** Largest string or list a condition may build (concatenation, split). */
export const MAX_VALUE_SIZE = 2048;
/** Most a condition may cost: about 1.5 ms of the isolate's time in the worst case (measured: docs/sign-up-rules.md). */
export const MAX_CONDITION_COST = 2000;
/** Most a project's enabled rules may cost together, as every sign-up runs them all. */
export const MAX_RULES_COST = 5000;

const LOOP_MACROS = new Set(["all", "exists", "exists_one", "map", "filter"]);
/** The context's string variables: each at most MAX_SUBJECT_LENGTH characters. */
const STRING_VARIABLES = new Set(["email", "emailDomain", "countryCode", "authMethod", "oauthProvider"]);
/** Functions whose result is no larger than their receiver. */
const SAME_SIZE = new Set(["lowerAscii", "upperAscii", "trim", "substring"]);
const STRING_SCANS = new Set(["contains", "startsWith", "endsWith", "indexOf", "lastIndexOf", "split", "lowerAscii", "upperAscii", "trim"]);

export type ConditionCost = { ok: true; cost: number } | { ok: false; message: string };

class Refused extends Error {}

/** The condition's cost bound, or why it is refused. */
export function conditionCost(ast: ASTNode): ConditionCost {
  try {
    const cost = new Estimator().cost(ast, new Map(), 0);
    if (cost > MAX_CONDITION_COST)
      return { ok: false, message: `the condition may cost too much to run (estimated ${Math.ceil(cost)}, at most ${MAX_CONDITION_COST})` };
    return { ok: true, cost: Math.max(1, Math.ceil(cost)) };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, message: error.message };
    throw error;
  }
}

const isNode = (v: unknown): v is ASTNode => typeof v === "object" && v !== null && "op" in v;

class Estimator {
  /** The size bound of a string or list value (0 for a scalar); refuses one past MAX_VALUE_SIZE. */
  size(node: ASTNode, scope: Map<string, number>): number {
    const bound = this.rawSize(node, scope);
    if (bound > MAX_VALUE_SIZE)
      throw new Refused(`a string or list built in a condition may hold at most ${MAX_VALUE_SIZE} characters or elements`);
    return bound;
  }

  private rawSize(node: ASTNode, scope: Map<string, number>): number {
    const args = node.args as unknown;
    switch (node.op) {
      case "value":
        return typeof args === "string" ? args.length : 0;
      case "id": {
        const name = args as string;
        if (scope.has(name)) return scope.get(name)!;
        return STRING_VARIABLES.has(name) ? MAX_SUBJECT_LENGTH : name === "riskScores" ? 2 : 0;
      }
      case "list": {
        const items = (args as ASTNode[]).map((item) => this.size(item, scope));
        return Math.max(items.length, ...items);
      }
      case "+":
        return (args as ASTNode[]).reduce((sum, operand) => sum + this.size(operand, scope), 0);
      case "?:": {
        const [, a, b] = args as ASTNode[];
        return Math.max(this.size(a!, scope), this.size(b!, scope));
      }
      case ".":
      case "[]":
        return this.size((args as [ASTNode])[0], scope);
      case "rcall": {
        const [name, receiver] = args as [string, ASTNode, ASTNode[]];
        if (SAME_SIZE.has(name) || name === "map" || name === "filter") return this.size(receiver, scope);
        if (name === "split") return this.size(receiver, scope) + 1;
        if (name === "join") return this.size(receiver, scope) * MAX_SUBJECT_LENGTH;
        return 0;
      }
      case "call": {
        const [name, params] = args as [string, ASTNode[]];
        if (name === "string" || name === "dyn") return params[0] ? Math.max(this.size(params[0], scope), 24) : 0;
        return 0;
      }
      default:
        return 0;
    }
  }

  /** The cost bound of evaluating `node` once; `loops` is how many list macros enclose it. */
  cost(node: ASTNode, scope: Map<string, number>, loops: number): number {
    this.size(node, scope);
    const args = node.args as unknown;
    if (node.op === "rcall") {
      const [name, receiver, params] = args as [string, ASTNode, ASTNode[]];
      if (LOOP_MACROS.has(name)) {
        if (loops >= 1) throw new Refused(`${name}() may not be used inside another list macro`);
        const [variable, ...body] = params;
        const elements = this.size(receiver, scope);
        const inner = new Map(scope);
        if (variable?.op === "id") inner.set(variable.args as string, elements);
        const perElement = body.reduce((sum, n) => sum + this.cost(n, inner, loops + 1), 0);
        return 1 + this.cost(receiver, scope, loops) + Math.max(1, elements) * perElement;
      }
      const base = 1 + this.cost(receiver, scope, loops) + params.reduce((sum, n) => sum + this.cost(n, scope, loops), 0);
      if (name === "matches") return base + this.matchesCost(receiver, params, scope);
      if (STRING_SCANS.has(name) || name === "join")
        return base + (this.size(receiver, scope) + params.reduce((sum, n) => sum + this.size(n, scope), 0)) / 100;
      return base;
    }
    if (node.op === "call") {
      const [name, params] = args as [string, ASTNode[]];
      const base = 1 + params.reduce((sum, n) => sum + this.cost(n, scope, loops), 0);
      if (name === "matches") return base + this.matchesCost(params[0]!, params.slice(1), scope);
      return base;
    }
    if (node.op === "value" || node.op === "id") return 1;
    let total = 1;
    const visit = (v: unknown): void => {
      if (isNode(v)) total += this.cost(v, scope, loops);
      else if (Array.isArray(v)) for (const item of v) visit(item);
    };
    visit(args);
    // `in` over a list scans it; `+` copies its operands.
    if (node.op === "in" || node.op === "+") total += this.size(node, scope) / 100 + this.sizeOfOperands(node, scope) / 100;
    return total;
  }

  private sizeOfOperands(node: ASTNode, scope: Map<string, number>): number {
    return (node.args as ASTNode[]).reduce((sum, operand) => sum + (isNode(operand) ? this.size(operand, scope) : 0), 0);
  }

  /** A literal, safe pattern over a subject: a quadratic worst case (about 0.5 ms for 320 characters in cel-js). */
  private matchesCost(subject: ASTNode, params: ASTNode[], scope: Map<string, number>): number {
    const pattern = params[params.length - 1];
    // A pattern from the sign-up's own data would let the one signing up choose the regex.
    if (pattern?.op !== "value" || typeof pattern.args !== "string") throw new Refused("matches() takes a string literal pattern");
    const unsafe = unsafePatternReason(pattern.args);
    if (unsafe) throw new Refused(unsafe);
    const n = this.size(subject, scope);
    return (n * n) / 150;
  }
}
