/**
 * A real SMTP sink (npm smtp-server) plus a tiny HTTP mailbox to read what it received.
 * Used by vitest's globalSetup (tests inside workerd fetch the mailbox over loopback) and by
 * the browser e2e. AUTH: none, or user "doorman" / password "sink-password"; anything else fails.
 */
import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export type SinkMessage = { to: string[]; from: string; subject: string; text: string; html: string; raw: string; receivedAt: number };

import { SINK_PASSWORD, SINK_USERNAME } from "./mail-sink-constants";

export { SINK_PASSWORD, SINK_USERNAME };

function header(raw: string, name: string): string {
  const match = new RegExp(`^${name}:\\s*(.*(?:\\r?\\n[ \\t].*)*)`, "im").exec(raw);
  return match ? match[1]!.replace(/\r?\n[ \t]+/g, " ").trim() : "";
}

/** Decodes RFC 2047 encoded-words and quoted-printable/base64 parts well enough for tests. */
function decodeWords(value: string): string {
  // RFC 2047 §6.2: the white space between two adjacent encoded-words is not part of the text.
  return value
    .replace(/(=\?[^?]+\?[bqBQ]\?[^?]*\?=)\s+(?==\?[^?]+\?[bqBQ]\?)/g, "$1")
    .replace(/=\?([^?]+)\?([bqBQ])\?([^?]*)\?=/g, (_, _charset: string, enc: string, text: string) =>
      enc.toUpperCase() === "B" ? Buffer.from(text, "base64").toString("utf8") : decodeQp(text.replace(/_/g, " ")),
    );
}

function decodeQp(text: string): string {
  const bytes = text.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

function parts(raw: string): { text: string; html: string } {
  // Nested multiparts (mixed > alternative): split on every boundary the message declares.
  const boundaries = [...raw.matchAll(/boundary="?([^";\r\n]+)"?/gi)].map((m) => m[1]!);
  let sections = [raw];
  for (const b of boundaries) sections = sections.flatMap((s) => s.split(`--${b}`));
  let text = "";
  let html = "";
  for (const section of sections) {
    const split = section.search(/\r?\n\r?\n/);
    if (split < 0) continue;
    const head = section.slice(0, split);
    let body = section.slice(split).replace(/^\r?\n\r?\n/, "");
    if (/content-transfer-encoding:\s*base64/i.test(head)) body = Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
    else if (/content-transfer-encoding:\s*quoted-printable/i.test(head)) body = decodeQp(body);
    if (/content-type:\s*text\/html/i.test(head)) html ||= body.trim();
    else if (/content-type:\s*text\/plain/i.test(head)) text ||= body.trim();
  }
  return { text, html };
}

/**
 * `smtpPort`: where SMTP listens (0 = any free port). `acceptAnyAuth`: any username/password signs in
 * (the reference suite's projects use test/test); otherwise only the sink's own credentials do.
 */
export async function startMailSink(
  options: { smtpPort?: number; acceptAnyAuth?: boolean } = {},
): Promise<{ smtpPort: number; httpPort: number; messages: SinkMessage[]; stop: () => Promise<void> }> {
  const messages: SinkMessage[] = [];
  const smtp = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (options.acceptAnyAuth || (auth.username === SINK_USERNAME && auth.password === SINK_PASSWORD))
        return callback(null, { user: auth.username });
      return callback(new Error("Invalid username or password"));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        messages.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          subject: decodeWords(header(raw, "Subject")),
          raw,
          receivedAt: Date.now(),
          ...parts(raw),
        });
        callback();
      });
    },
  });
  // A sender cut off mid-message (deferred mail still in flight when a test ends) must not crash the run.
  smtp.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code !== "ECONNRESET" && err.code !== "EPIPE") console.error(`mail sink: ${err.message}`);
  });
  await new Promise<void>((resolve, reject) => {
    smtp.server.once("error", reject);
    smtp.listen(options.smtpPort ?? 0, "127.0.0.1", resolve);
  });
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  const http: Server = createHttpServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://sink");
    const to = url.searchParams.get("to")?.toLowerCase();
    const list = to ? messages.filter((m) => m.to.includes(to)) : messages;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(list));
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const httpPort = (http.address() as AddressInfo).port;

  return {
    smtpPort,
    httpPort,
    messages,
    stop: async () => {
      await new Promise<void>((r) => smtp.close(() => r()));
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
}
