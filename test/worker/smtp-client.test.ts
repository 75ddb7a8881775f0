import { afterAll, describe, expect, inject, it } from "vitest";
import { type SmtpLimits, type SmtpOutcome, type SmtpSettings, sendSmtp } from "../../worker/services/email/smtp";
import { uniqueEmail } from "../helpers/api";
import { pollHealth } from "../helpers/health";
import { waitForMail } from "../helpers/mail";
import { SINK_PASSWORD, SINK_USERNAME } from "../mail-sink-constants";
import type { SmtpFaultRecord, SmtpFaultScenario, SmtpFaultStage } from "../smtp-fault-server.mjs";

const PASSWORD = "fault-password";
const QUICK: Partial<SmtpLimits> = { connectMs: 3_000, greetingMs: 3_000, commandMs: 3_000, dataMs: 3_000, totalMs: 20_000 };
const SILENT: Partial<SmtpLimits> = { connectMs: 3_000, greetingMs: 300, commandMs: 300, dataMs: 300, totalMs: 20_000 };
const message = { subject: "Fault test", html: "<p>Hello</p>", text: "Hello" };

const unhandled: unknown[] = [];
addEventListener("unhandledrejection", (event: PromiseRejectionEvent) => unhandled.push(event.reason));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const control = (path = "") => `http://127.0.0.1:${inject("smtpFaultsPort")}/servers${path}`;

async function faultServer(scenario: SmtpFaultScenario): Promise<number> {
  const res = await fetch(control(), { method: "POST", body: JSON.stringify(scenario) });
  expect(res.status).toBe(201);
  return ((await res.json()) as { port: number }).port;
}

async function record(port: number): Promise<SmtpFaultRecord> {
  return (await (await fetch(control(`/${port}`))).json()) as SmtpFaultRecord;
}

function settings(port: number, over: Partial<SmtpSettings> = {}): SmtpSettings {
  const sender = { senderName: "Doorman Tests", senderEmail: "tests@doorman.localhost" };
  return { host: "127.0.0.1", port, username: "tester", password: PASSWORD, ...sender, ...over };
}

/** Sends while /health is polled; asserts every poll answered 200 and logs the slowest. */
async function sendWatched(name: string, smtp: SmtpSettings, limits: Partial<SmtpLimits> = QUICK): Promise<SmtpOutcome> {
  const stop = pollHealth();
  const outcome = await sendSmtp(smtp, [uniqueEmail("fault")], message, limits);
  const health = await stop();
  console.log(
    `[smtp-fault] ${name}: ${health.statuses.length} /health polls, all 200: ${health.statuses.every((s) => s === 200)}, max ${health.maxMs} ms`,
  );
  expect(health.statuses.length).toBeGreaterThan(0);
  expect(health.statuses.filter((s) => s !== 200)).toEqual([]);
  expect(JSON.stringify(outcome)).not.toContain(PASSWORD);
  return outcome;
}

/** Waits until the fault server has seen every connection closed (no leaked socket). */
async function expectClosed(port: number): Promise<SmtpFaultRecord> {
  for (let i = 0; ; i++) {
    const seen = await record(port);
    if (seen.open === 0) return seen;
    if (i > 200) throw new Error(`the fault server on ${port} still has ${seen.open} open connection(s)`);
    await sleep(25);
  }
}

async function expectFault(name: string, scenario: SmtpFaultScenario, limits: Partial<SmtpLimits> = QUICK) {
  const port = await faultServer(scenario);
  const outcome = await sendWatched(name, settings(port), limits);
  const seen = await expectClosed(port);
  expect(seen.connections).toBe(1);
  return { outcome, seen, port };
}

/** The Subject of a raw message, unfolded and decoded per RFC 2047 (space between adjacent encoded-words dropped, §6.2). */
function decodedSubject(raw: string): string {
  const folded = /^Subject: (.*(?:\r\n[ \t].*)*)/m.exec(raw)![1]!;
  const bytes = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  return folded
    .replace(/\r\n[ \t]/g, " ")
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?UTF-8\?B\?([^?]*)\?=/gi, (_, b64: string) => new TextDecoder().decode(bytes(b64)));
}

const CODES = [421, 450, 451, 452, 550, 554];
const REPLY_STAGES: [SmtpFaultStage, string][] = [
  ["greeting", "greeted us with"],
  ["mail", "answered MAIL FROM with"],
  ["rcpt", "answered RCPT TO"],
  ["data", "answered DATA with"],
  ["message", "answered the message with"],
];

describe.each(REPLY_STAGES)("a failure code at %s", (stage, wording) => {
  it.each(CODES)("%i: temporary when 4xx, permanent when 5xx, socket closed, /health answering", async (code) => {
    const { outcome } = await expectFault(`${code} at ${stage}`, {
      replies: { [stage]: { code, text: `${code >= 500 ? 5 : 4}.0.0 no (${stage})` } },
    });
    expect(outcome).toMatchObject({ ok: false, stage, code, temporary: code < 500, reply: `${code >= 500 ? 5 : 4}.0.0 no (${stage})` });
    if (!outcome.ok) expect(outcome.message).toContain(`${wording}`);
    if (!outcome.ok) expect(outcome.message).toContain(`${code}`);
  });
});

describe("a server that hangs up", () => {
  it("the freeze's repro: 250 to EHLO, 450 to MAIL FROM, then close (default limits)", async () => {
    const port = await faultServer({ replies: { mail: { code: 450, text: "4.2.0 Mailbox busy" } }, closeAfterReplyAt: "mail" });
    const outcome = await sendWatched("450 at MAIL FROM then close", settings(port), {});
    expect(outcome).toMatchObject({ ok: false, temporary: true, stage: "mail", code: 450, reply: "4.2.0 Mailbox busy" });
    const seen = await expectClosed(port);
    expect(seen.commands).toEqual(["EHLO doorman.localhost", expect.stringMatching(/^AUTH PLAIN /), "MAIL FROM:<tests@doorman.localhost>"]);
  });

  it.each(["greeting", "ehlo", "auth", "mail", "rcpt", "data", "message"] as const)(
    "in the middle of the reply at %s: temporary, no code",
    async (stage) => {
      const { outcome } = await expectFault(`close mid-reply at ${stage}`, { closeMidReplyAt: stage });
      expect(outcome).toMatchObject({ ok: false, temporary: true, stage, code: null, reply: null });
      if (!outcome.ok) expect(outcome.message).toMatch(/closed the connection while we waited for .* \(it had sent "\d{3}[ -]/);
    },
  );

  it("right after a 250 to RCPT TO: DATA meets EOF, temporary", async () => {
    const { outcome } = await expectFault("close after 250 at RCPT TO", { closeAfterReplyAt: "rcpt" });
    expect(outcome).toMatchObject({ ok: false, temporary: true, stage: "data", code: null });
  });

  it("a refused connection is temporary at connect", async () => {
    const port = await faultServer({ accept: true });
    await fetch(control(`/${port}`), { method: "DELETE" });
    const outcome = await sendWatched("refused connection", settings(port));
    expect(outcome).toMatchObject({ ok: false, temporary: true, stage: "connect", code: null });
    // The message names the address the owner configured (issue 28).
    if (!outcome.ok) expect(outcome.message).toMatch(new RegExp(`^Could not connect to 127\\.0\\.0\\.1:${port}: `));
  });
});

describe("a server that stalls", () => {
  it.each(["greeting", "ehlo", "mail", "rcpt", "data", "message"] as const)("silent at %s: a timeout, temporary", async (stage) => {
    const { outcome } = await expectFault(`silent at ${stage}`, { silentAt: stage }, SILENT);
    expect(outcome).toMatchObject({ ok: false, temporary: true, stage, code: null });
    if (!outcome.ok) expect(outcome.message).toContain("within 300 ms");
  });

  it("silent, with the total limit shorter than the command's: the total limit ends it", async () => {
    const { outcome } = await expectFault("silent at MAIL FROM, total limit", { silentAt: "mail" }, { commandMs: 10_000, totalMs: 800 });
    expect(outcome).toMatchObject({ ok: false, temporary: true, stage: "mail", code: null });
    if (!outcome.ok) expect(outcome.message).toContain("ran out of its 800 ms limit");
  });

  it("drip of one byte a second at MAIL FROM: a timeout with what had arrived, temporary", async () => {
    const { outcome } = await expectFault("drip at MAIL FROM", { dripAt: "mail", dripMs: 1000 }, { ...QUICK, commandMs: 2_500 });
    expect(outcome).toMatchObject({ ok: false, temporary: true, stage: "mail", code: null });
    if (!outcome.ok) expect(outcome.message).toContain("did not finish the reply to MAIL FROM within 2500 ms");
  });

  it("a reply dripped quickly is assembled byte by byte", async () => {
    const { outcome } = await expectFault("quick drip at greeting", { dripAt: "greeting", dripMs: 5 }, { ...QUICK, greetingMs: 20_000 });
    expect(outcome).toMatchObject({ ok: true, code: 250 });
  });

  it("an endless multi-line reply stops at the byte cap: permanent", async () => {
    const { outcome } = await expectFault("flood at EHLO", { floodAt: "ehlo" }, { ...QUICK, maxReplyBytes: 64 * 1024 });
    expect(outcome).toMatchObject({ ok: false, temporary: false, stage: "ehlo", code: null });
    if (!outcome.ok) expect(outcome.message).toContain("longer than 65536 bytes");
  });
});

describe("the dialogue", () => {
  it("a multi-line failure reply keeps every line", async () => {
    const { outcome } = await expectFault("multi-line 550 at MAIL FROM", {
      replies: { mail: { code: 550, text: "5.7.1 first line\nsecond line" } },
    });
    expect(outcome).toMatchObject({ ok: false, temporary: false, code: 550, reply: "5.7.1 first line\nsecond line" });
  });

  it("AUTH: 535 is permanent, 454 temporary, and the password never shows", async () => {
    const denied = await expectFault("535 at AUTH", { replies: { auth: { code: 535, text: `5.7.8 bad credentials ${PASSWORD}` } } });
    expect(denied.outcome).toMatchObject({
      ok: false,
      temporary: false,
      stage: "auth",
      code: 535,
      reply: "5.7.8 bad credentials [redacted]",
    });
    const later = await expectFault("454 at AUTH", { replies: { auth: 454 } });
    expect(later.outcome).toMatchObject({ ok: false, temporary: true, stage: "auth", code: 454 });
  });

  it("AUTH LOGIN when the server offers only LOGIN; no AUTH when it offers none; refused when it offers neither", async () => {
    const login = await expectFault("AUTH LOGIN", { extensions: ["AUTH LOGIN"] });
    expect(login.outcome).toMatchObject({ ok: true, code: 250 });
    expect(login.seen.commands.slice(1, 4)).toEqual(["AUTH LOGIN", btoa("tester"), btoa(PASSWORD)]);
    const none = await expectFault("no AUTH offered", { extensions: [] });
    expect(none.outcome).toMatchObject({ ok: true });
    expect(none.seen.commands.some((c) => c.startsWith("AUTH"))).toBe(false);
    const other = await expectFault("only CRAM-MD5 offered", { extensions: ["AUTH CRAM-MD5"] });
    expect(other.outcome).toMatchObject({ ok: false, temporary: false, stage: "auth", code: null });
  });

  it("HELO when EHLO is refused", async () => {
    const { outcome, seen } = await expectFault("502 to EHLO", { replies: { ehlo: 502 } });
    expect(outcome).toMatchObject({ ok: true });
    expect(seen.commands.slice(0, 2)).toEqual(["EHLO doorman.localhost", "HELO doorman.localhost"]);
  });

  it("STARTTLS: 454 is temporary; a server that answers 220 but speaks no TLS times out at starttls", async () => {
    const refused = await expectFault("454 to STARTTLS", { extensions: ["STARTTLS", "AUTH PLAIN"], replies: { starttls: 454 } });
    expect(refused.outcome).toMatchObject({ ok: false, temporary: true, stage: "starttls", code: 454 });
    const port = await faultServer({ extensions: ["STARTTLS", "AUTH PLAIN"] });
    const stuck = await sendWatched("STARTTLS without TLS", settings(port), SILENT);
    expect(stuck).toMatchObject({ ok: false, temporary: true, stage: "starttls", code: null });
    expect((await record(port)).commands).toEqual(["EHLO doorman.localhost", "STARTTLS"]);
    // workerd cannot close a TLS socket whose handshake never finished: its TCP connection lasts
    // until the invocation ends (a request or a queue batch; under wrangler dev it is gone when the
    // response is), and in this runner the invocation is the whole file. So this server is stopped here.
    await fetch(control(`/${port}`), { method: "DELETE" });
  });

  it("a server that recovers: 450 at RCPT TO, then accepted after PATCH", async () => {
    const port = await faultServer({ replies: { rcpt: 450 } });
    expect(await sendWatched("450 at RCPT TO before recovery", settings(port))).toMatchObject({
      ok: false,
      temporary: true,
      stage: "rcpt",
    });
    await fetch(control(`/${port}`), { method: "PATCH", body: JSON.stringify({ accept: true }) });
    const outcome = await sendWatched("after recovery", settings(port));
    expect(outcome).toMatchObject({ ok: true, code: 250, reply: "2.0.0 OK queued as fault-0" });
    const seen = await expectClosed(port);
    expect(seen.connections).toBe(2);
    expect(seen.accepted).toHaveLength(1);
    expect(seen.accepted[0]!.from).toBe("tests@doorman.localhost");
    expect(seen.commands.at(-1)).toBe("QUIT");
  });

  it("a bad address or header is refused before any connection", async () => {
    const port = await faultServer({ accept: true });
    const injected = await sendSmtp(settings(port), ["a@b.test>\r\nRCPT TO:<c@d.test"], message);
    expect(injected).toMatchObject({ ok: false, temporary: false, stage: "rcpt", code: null });
    const header = await sendSmtp(settings(port), ["a@b.test"], { ...message, headers: { "X-Bad": "a\r\nBcc: c@d.test" } });
    expect(header).toMatchObject({ ok: false, temporary: false, stage: "message", code: null });
    expect(await sendSmtp(settings(port), [], message)).toMatchObject({ ok: false, temporary: false, stage: "rcpt" });
    expect((await record(port)).connections).toBe(0);
    // A .invalid host never resolves (RFC 6761): permanent, not retried.
    const nowhere = await sendSmtp(settings(port, { host: "mail.this-host-does-not-exist.invalid" }), ["a@b.test"], message);
    expect(nowhere).toMatchObject({ ok: false, temporary: false, stage: "connect", code: null });
    if (!nowhere.ok)
      expect(nowhere.message).toContain(`Could not connect to mail.this-host-does-not-exist.invalid:${port}: the host does not exist`);
  });
});

describe("against the real SMTP sink", () => {
  const sink = (over: Partial<SmtpSettings> = {}) =>
    settings(inject("smtpPort"), { username: SINK_USERNAME, password: SINK_PASSWORD, senderName: "Doorman – Tests", ...over });

  it("delivers a UTF-8 subject and intact text and html parts, with the extra headers", async () => {
    const to = uniqueEmail("smtp-client");
    const subject = "Grüße aus Zürich — 你好，世界 ✓ a subject long enough to need more than one encoded-word";
    const text = `Hello Zoë,\n.a line that starts with a dot\n..and two\n${"long line ".repeat(20)}end\nlast line  `;
    const html = `<p>Hello <b>Zoë</b> — ✓</p>\n<p>.dot</p><p>${"x=y ".repeat(40)}</p>`;
    const headers = {
      "List-Unsubscribe": "<https://doorman.localhost/unsubscribe?token=abc>",
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    };
    const stop = pollHealth();
    const outcome = await sendSmtp(sink(), [to], { subject, text, html, headers });
    const health = await stop();
    console.log(`[smtp-fault] happy path (sink): ${health.statuses.length} /health polls, max ${health.maxMs} ms`);
    expect(health.statuses.filter((s) => s !== 200)).toEqual([]);
    expect(outcome).toMatchObject({ ok: true, code: 250 });
    const [mail] = (await waitForMail(to)) as (Awaited<ReturnType<typeof waitForMail>>[number] & { raw: string })[];
    expect(decodedSubject(mail!.raw)).toBe(subject);
    expect(mail!.text.replace(/\r\n/g, "\n")).toBe(text.trim());
    expect(mail!.html.replace(/\r\n/g, "\n")).toBe(html.trim());
    const raw = mail!.raw;
    expect(raw).toContain("List-Unsubscribe: <https://doorman.localhost/unsubscribe?token=abc>\r\n");
    expect(raw).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n");
    expect(raw).toMatch(/^Message-ID: <[0-9a-f-]{36}@doorman\.localhost>\r$/m);
    expect(raw).toMatch(/^Date: \w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} \+0000\r$/m);
    expect(raw).toMatch(/^From: "Doorman – Tests"|^From: =\?UTF-8\?B\?/m);
    expect(raw).toContain("Content-Type: multipart/alternative;");
    expect(raw.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    const body = raw.slice(raw.indexOf("\r\n\r\n") + 4);
    expect(body.split("\r\n").filter((l) => l.length > 76)).toEqual([]);
    expect(raw.split("\r\n").filter((l) => l.length > 998)).toEqual([]);
    expect(raw).toContain(`To: <${to}>\r\n`);
  });

  it("writes a plain display name as it is and quotes one with specials", async () => {
    const plain = uniqueEmail("smtp-plain");
    expect(await sendSmtp(sink({ senderName: "Test Project" }), [plain], message)).toMatchObject({ ok: true });
    const [a] = (await waitForMail(plain)) as (Awaited<ReturnType<typeof waitForMail>>[number] & { raw: string })[];
    expect(a!.raw).toMatch(/^From: Test Project <tests@doorman\.localhost>\r$/m);
    const special = uniqueEmail("smtp-special");
    expect(await sendSmtp(sink({ senderName: 'Acme, Inc. "HQ"' }), [special], message)).toMatchObject({ ok: true });
    const [b] = (await waitForMail(special)) as (Awaited<ReturnType<typeof waitForMail>>[number] & { raw: string })[];
    expect(b!.raw).toMatch(/^From: "Acme, Inc\. \\"HQ\\"" <tests@doorman\.localhost>\r$/m);
  });

  it("a wrong password is a permanent auth failure from a real server", async () => {
    const outcome = await sendSmtp(sink({ password: "wrong-password" }), [uniqueEmail()], message);
    expect(outcome).toMatchObject({ ok: false, temporary: false, stage: "auth", code: 535 });
  });
});

afterAll(async () => {
  await sleep(50);
  expect(unhandled).toEqual([]);
});
