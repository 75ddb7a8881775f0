/**
 * Sends one message over SMTP under hard limits and never throws: the outcome is the server's
 * reply to the message, or the failed stage with the server's reply and whether a retry may help
 * (4xx, timeouts, dropped or refused connections: temporary; 5xx: permanent). STARTTLS when the
 * server offers it (implicit TLS on 465), AUTH PLAIN or LOGIN when credentials are given, and the
 * socket always closed. The wire is smtp-wire.ts, the message smtp-mime.ts, the sentences smtp-outcome.ts.
 */
import { prepareMessage } from "./smtp-mime";
import { failure, replyFailure, replyText, type SmtpOutcome, type SmtpStage, type Step, StepFailure, wireFailure } from "./smtp-outcome";
import { type Reply, SmtpWire } from "./smtp-wire";

export type { SmtpOutcome, SmtpStage } from "./smtp-outcome";
export type SmtpSettings = { host: string; port: number; username: string; password: string; senderName: string; senderEmail: string };
export type SmtpLimits = {
  connectMs: number;
  greetingMs: number;
  commandMs: number;
  dataMs: number;
  totalMs: number;
  maxReplyBytes: number;
};
export type SmtpMessage = { subject: string; html: string; text: string; headers?: Record<string, string> };

export const DEFAULT_SMTP_LIMITS: SmtpLimits = {
  connectMs: 10_000,
  greetingMs: 15_000,
  commandMs: 15_000,
  dataMs: 60_000,
  totalMs: 90_000,
  maxReplyBytes: 64 * 1024,
};

/** The polite QUIT once the outcome is known, and the close: each bounded on its own. */
const QUIT_MS = 2_000;
const CLOSE_MS = 1_000;

const utf8Base64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));
const is2xx = (code: number) => code >= 200 && code < 300;
const fail = (stage: SmtpStage, message: string) => new StepFailure(failure(stage, false, null, null, message));

class Session {
  stage: SmtpStage = "connect";
  private wire: SmtpWire | null = null;
  /** The last exchange ended on a complete reply: the dialogue is in step and a QUIT makes sense. */
  private inStep = false;
  private readonly totalAt: number;
  private readonly server: string;
  private readonly secrets: string[];

  constructor(
    private readonly smtp: SmtpSettings,
    private readonly limits: SmtpLimits,
  ) {
    this.totalAt = Date.now() + limits.totalMs;
    this.server = `${smtp.host}:${smtp.port}`;
    // Why: a server may echo what it got; a short password would redact half the sentence instead.
    const { username, password } = smtp;
    this.secrets = password.length >= 4 ? [password, utf8Base64(password), utf8Base64(`\0${username}\0${password}`)] : [];
  }

  private step(stage: SmtpStage, label: string): Step {
    this.stage = stage;
    return { server: this.server, stage, label, totalMs: this.limits.totalMs, secrets: this.secrets };
  }

  /** The time a step may take: its own limit, or what is left of the total. */
  private budget(stepMs: number): { ms: number; total: boolean } {
    const left = this.totalAt - Date.now();
    return left < stepMs ? { ms: Math.max(0, left), total: true } : { ms: stepMs, total: false };
  }

  /** Sends `line` (unless null) and reads the reply; a reply `accept` refuses is a failure. */
  private async exchange(stage: SmtpStage, label: string, line: string | null, stepMs: number, accept: (code: number) => boolean) {
    const step = this.step(stage, label);
    const budget = this.budget(stepMs);
    const started = Date.now();
    let reply: Reply;
    this.inStep = false;
    try {
      if (line !== null) await this.wire!.write(line, budget.ms);
      reply = await this.wire!.readReply(Math.max(0, budget.ms - (Date.now() - started)), this.limits.maxReplyBytes);
    } catch (err) {
      throw new StepFailure(wireFailure(step, err, budget));
    }
    this.inStep = true;
    if (!accept(reply.code)) throw new StepFailure(replyFailure(step, reply));
    return reply;
  }

  /** EHLO (HELO when the server refuses it): the extensions it offers, keyword → parameters. */
  private async hello(afterTls: boolean): Promise<Map<string, string>> {
    const domain = this.smtp.senderEmail.split("@").pop()!;
    const name = /^[a-z0-9.-]+$/i.test(domain) ? domain : "localhost";
    try {
      const reply = await this.exchange("ehlo", "EHLO", `EHLO ${name}\r\n`, this.limits.commandMs, is2xx);
      const extensions = new Map<string, string>();
      for (const line of reply.lines.slice(1)) {
        const [keyword = "", ...params] = line.trim().split(/[ =]/);
        extensions.set(keyword.toUpperCase(), params.join(" "));
      }
      return extensions;
    } catch (err) {
      if (!(err instanceof StepFailure)) throw err;
      const { code, message } = err.outcome;
      // After STARTTLS the first write and read carry the handshake: a failure there is the TLS stage's.
      if (afterTls && code === null)
        throw new StepFailure({ ...err.outcome, stage: "starttls", message: `TLS after STARTTLS failed. ${message}` });
      if (code === null || code < 500) throw err;
      await this.exchange("ehlo", "HELO", `HELO ${name}\r\n`, this.limits.commandMs, is2xx);
      return new Map();
    }
  }

  private async authenticate(extensions: Map<string, string>): Promise<void> {
    const offered = extensions.get("AUTH");
    // A server that offers no AUTH gets none (as before): it decides at MAIL FROM whether it relays for us.
    if (offered === undefined) return;
    const mechanisms = offered.toUpperCase().split(/\s+/);
    const { username, password } = this.smtp;
    const ms = this.limits.commandMs;
    if (mechanisms.includes("PLAIN")) {
      const token = utf8Base64(`\0${username}\0${password}`);
      const reply = await this.exchange("auth", "AUTH PLAIN", `AUTH PLAIN ${token}\r\n`, ms, (c) => c === 235 || c === 334);
      if (reply.code === 334) await this.exchange("auth", "AUTH PLAIN", `${token}\r\n`, ms, (c) => c === 235);
    } else if (mechanisms.includes("LOGIN")) {
      await this.exchange("auth", "AUTH LOGIN", "AUTH LOGIN\r\n", ms, (c) => c === 334);
      await this.exchange("auth", "AUTH LOGIN (user name)", `${utf8Base64(username)}\r\n`, ms, (c) => c === 334);
      await this.exchange("auth", "AUTH LOGIN (password)", `${utf8Base64(password)}\r\n`, ms, (c) => c === 235);
    } else {
      throw fail(
        "auth",
        `The SMTP server ${this.server} offers AUTH ${offered.slice(0, 100)}, none of which this client speaks (PLAIN, LOGIN).`,
      );
    }
  }

  async run(to: string[], message: SmtpMessage): Promise<SmtpOutcome> {
    const { smtp, limits } = this;
    if (!smtp.host || !Number.isInteger(smtp.port) || smtp.port < 1 || smtp.port > 65535) {
      throw fail("connect", `The SMTP server address ${this.server} is not valid.`);
    }
    // RFC 6761: a name under .invalid never resolves, so retrying cannot help (the reference's HOST_NOT_FOUND, not retried).
    if (/(^|\.)invalid\.?$/i.test(smtp.host)) {
      throw fail("connect", `Could not connect to ${this.server}: the host does not exist (.invalid names never resolve).`);
    }
    // Everything is checked and built before any connection: a bad address or header never reaches a server.
    const prepared = prepareMessage({ name: smtp.senderName, email: smtp.senderEmail }, to, message);
    if (!prepared.ok) throw fail(prepared.stage, prepared.message);
    const data = prepared.data;
    const connecting = this.budget(limits.connectMs);
    try {
      this.wire = await SmtpWire.open(smtp.host, smtp.port, smtp.port === 465, connecting.ms);
    } catch (err) {
      throw new StepFailure(wireFailure(this.step("connect", "connect"), err, connecting));
    }
    await this.exchange("greeting", "greeting", null, limits.greetingMs, (c) => c === 220);
    let extensions = await this.hello(false);
    if (smtp.port !== 465 && extensions.has("STARTTLS")) {
      await this.exchange("starttls", "STARTTLS", "STARTTLS\r\n", limits.commandMs, (c) => c === 220);
      try {
        this.wire.startTls();
      } catch (err) {
        this.inStep = false;
        throw new StepFailure(wireFailure(this.step("starttls", "STARTTLS"), err, { ms: 0, total: false }));
      }
      extensions = await this.hello(true);
    }
    if (smtp.username) await this.authenticate(extensions);
    await this.exchange("mail", "MAIL FROM", `MAIL FROM:<${smtp.senderEmail}>\r\n`, limits.commandMs, is2xx);
    for (const r of to) await this.exchange("rcpt", `RCPT TO <${r}>`, `RCPT TO:<${r}>\r\n`, limits.commandMs, is2xx);
    await this.exchange("data", "DATA", "DATA\r\n", limits.commandMs, (c) => c === 354);
    const reply = await this.exchange("message", "the message", data, limits.dataMs, is2xx);
    return { ok: true, code: reply.code, reply: replyText(reply, this.secrets) };
  }

  /** A polite QUIT when the dialogue is in step, then the close; neither can hold us, neither throws. */
  async finish(): Promise<void> {
    if (!this.wire) return;
    try {
      if (this.inStep && this.wire.usable) {
        const ms = Math.min(QUIT_MS, this.limits.commandMs, this.budget(QUIT_MS).ms);
        await this.wire.write("QUIT\r\n", ms);
        await this.wire.readReply(ms, this.limits.maxReplyBytes);
      }
    } catch {
      // The outcome is already decided; a server that hangs up on QUIT changes nothing.
    } finally {
      await this.wire.close(CLOSE_MS);
    }
  }
}

/**
 * Sends `message` to `to` through `smtp`. Never throws: every failure is an outcome naming the
 * stage, the server's reply and whether to retry (`temporary`). `limits` override DEFAULT_SMTP_LIMITS.
 * @example
 * const outcome = await sendSmtp(settings, ["ada@example.com"], { subject: "Hi", html: "<p>Hi</p>", text: "Hi" });
 * if (!outcome.ok && outcome.temporary) retryLater(outcome.message);
 */
export async function sendSmtp(
  smtp: SmtpSettings,
  to: string[],
  message: SmtpMessage,
  limits: Partial<SmtpLimits> = {},
): Promise<SmtpOutcome> {
  const merged = { ...DEFAULT_SMTP_LIMITS };
  for (const [key, value] of Object.entries(limits) as [keyof SmtpLimits, unknown][]) {
    if (key in merged && typeof value === "number" && value > 0 && Number.isFinite(value)) merged[key] = value;
  }
  let session: Session | null = null;
  try {
    session = new Session(smtp, merged);
    return await session.run(to, message);
  } catch (err) {
    if (err instanceof StepFailure) return err.outcome;
    // A bug of ours, not the server's: temporary, so the outbox retries after the fix ships.
    const text = `Sending through the SMTP server ${smtp.host}:${smtp.port} failed unexpectedly: ${err instanceof Error ? err.message : String(err)}.`;
    return failure(session?.stage ?? "connect", true, null, null, text);
  } finally {
    await session?.finish().catch(() => undefined);
  }
}
