/**
 * What an SMTP send comes to: the outcome types (re-exported by smtp.ts) and, for each failure, a
 * readable sentence naming the server, the stage and its reply (never a credential), classified
 * temporary (4xx, timeouts, dropped or refused connections) or permanent (5xx, not SMTP at all).
 */
import { type Reply, WireError } from "./smtp-wire";

export type SmtpStage = "connect" | "greeting" | "ehlo" | "starttls" | "auth" | "mail" | "rcpt" | "data" | "message" | "quit";
export type SmtpOutcome =
  | { ok: true; code: number; reply: string } // the server's reply to the message (e.g. 250 "OK queued as …")
  | { ok: false; temporary: boolean; stage: SmtpStage; code: number | null; reply: string | null; message: string };
export type SmtpFailure = Extract<SmtpOutcome, { ok: false }>;

/** One exchange, for the sentences: `label` is what we sent ("MAIL FROM"), `secrets` what never shows. */
export type Step = { server: string; stage: SmtpStage; label: string; totalMs: number; secrets: string[] };

/** Carries a decided failure out of the dialogue to sendSmtp, which returns it. */
export class StepFailure extends Error {
  constructor(readonly outcome: SmtpFailure) {
    super(outcome.message);
  }
}

export function failure(stage: SmtpStage, temporary: boolean, code: number | null, reply: string | null, message: string): SmtpFailure {
  return { ok: false, temporary, stage, code, reply, message };
}

function redact(text: string, secrets: string[]): string {
  return secrets.reduce((t, s) => t.split(s).join("[redacted]"), text);
}

/** A reply's text: its lines joined by newlines, without control characters or credentials. */
export function replyText(reply: Reply, secrets: string[]): string {
  return redact(reply.lines.join("\n").replace(/[\x00-\x09\x0b-\x1f\x7f]/g, ""), secrets);
}

function quoted(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return `"${flat.length > 300 ? `${flat.slice(0, 300)}…` : flat}"`;
}

const answered = (step: Step) => (step.stage === "greeting" ? "greeted us" : `answered ${step.label}`);
const awaited = (step: Step) => (step.stage === "greeting" ? "its greeting" : `the reply to ${step.label}`);

/** A complete reply the dialogue cannot go on with: 4xx temporary, 5xx permanent, anything else a protocol error. */
export function replyFailure(step: Step, reply: Reply): SmtpFailure {
  const text = replyText(reply, step.secrets);
  const temporary = reply.code >= 400 && reply.code < 500;
  const kind = temporary
    ? "a temporary failure, worth retrying later"
    : reply.code >= 500
      ? "a permanent failure"
      : "not the reply SMTP expects here, so a permanent failure";
  return failure(
    step.stage,
    temporary,
    reply.code,
    text,
    `The SMTP server ${step.server} ${answered(step)} with ${reply.code} ${quoted(text)} (${kind}).`,
  );
}

/** No usable reply: a refused or dropped connection, a timeout (temporary), or not SMTP at all (permanent). */
export function wireFailure(step: Step, err: unknown, budget: { ms: number; total: boolean }): SmtpFailure {
  const e = err instanceof WireError ? err : new WireError("io", err instanceof Error ? err.message : String(err));
  const detail = redact(e.message, step.secrets);
  const after = e.partial ? ` (it had sent ${quoted(redact(e.partial, step.secrets))})` : "";
  const fail = (temporary: boolean, message: string) => failure(step.stage, temporary, null, null, message);
  if (step.stage === "connect") {
    // The address first, as the owner typed it: "could not connect to host:port" says which setting to check.
    if (e.kind === "timeout")
      return fail(true, `Could not connect to ${step.server}: the SMTP server did not answer within ${budget.ms} ms.`);
    return fail(true, `Could not connect to ${step.server}: ${detail}.`);
  }
  if (e.kind === "timeout" && budget.total) {
    return fail(
      true,
      `The SMTP session with ${step.server} ran out of its ${step.totalMs} ms limit while waiting for ${awaited(step)}${after}.`,
    );
  }
  if (e.kind === "timeout")
    return fail(true, `The SMTP server ${step.server} did not finish ${awaited(step)} within ${budget.ms} ms${after}.`);
  if (e.kind === "closed")
    return fail(true, `The SMTP server ${step.server} closed the connection while we waited for ${awaited(step)}${after}.`);
  if (e.kind === "io")
    return fail(true, `The connection to the SMTP server ${step.server} failed while we waited for ${awaited(step)}: ${detail}.`);
  return fail(false, `The SMTP server ${step.server} ${answered(step)} with ${detail}, which is not SMTP (a permanent failure).`);
}
