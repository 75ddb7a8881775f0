/**
 * The reference suite reads mail through Inbucket's REST API (STACK_INBUCKET_API_URL). This serves
 * that API over Doorman's own SMTP sink (test/mail-sink.ts), so the mail the suite reads is the mail
 * Doorman really sent over SMTP:
 *   GET /api/v1/mailbox/{name}        the message headers, oldest first
 *   GET /api/v1/mailbox/{name}/{id}   one message with its header map and text/html body
 * A mailbox is the recipient's local part, lower-cased, without a +tag (Inbucket's "local" naming).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type SinkMessage, startMailSink } from "../../mail-sink";

export function mailboxName(address: string): string {
  return address.split("@")[0]!.split("+")[0]!.toLowerCase();
}

function headerMap(raw: string): Record<string, string[]> {
  const head = raw.slice(0, Math.max(0, raw.search(/\r?\n\r?\n/)));
  const map: Record<string, string[]> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim();
    const key = name.replace(/(^|-)([a-z])/g, (_, d: string, c: string) => d + c.toUpperCase());
    (map[key] ??= []).push(line.slice(colon + 1).trim());
  }
  return map;
}

function summary(m: SinkMessage, id: string, mailbox: string) {
  const headers = headerMap(m.raw);
  return {
    mailbox,
    id,
    from: headers.From?.[0] ?? m.from,
    to: headers.To ?? m.to,
    subject: m.subject,
    date: new Date(m.receivedAt).toISOString(),
    "posix-millis": m.receivedAt,
    size: m.raw.length,
    seen: false,
  };
}

/** `smtpPort`: the suite's projects that bring their own SMTP server point it at localhost:8129 (test/test). */
export async function startInbucket(smtpPort = 0) {
  const sink = await startMailSink({ smtpPort, acceptAnyAuth: true });
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://inbucket").pathname.split("/").map(decodeURIComponent);
    // ["", "api", "v1", "mailbox", name, id?]
    if (path[1] !== "api" || path[2] !== "v1" || path[3] !== "mailbox" || !path[4]) {
      res.writeHead(404).end();
      return;
    }
    const name = path[4].toLowerCase();
    const inBox = sink.messages
      .map((m, index) => ({ m, id: String(index + 1) }))
      .filter(({ m }) => m.to.some((to) => mailboxName(to) === name));
    let body: unknown;
    if (path[5]) {
      const found = inBox.find(({ id }) => id === path[5]);
      if (!found) {
        res.writeHead(404).end();
        return;
      }
      body = {
        ...summary(found.m, found.id, name),
        header: headerMap(found.m.raw),
        body: { text: found.m.text, html: found.m.html },
        attachments: [],
      };
    } else {
      body = inBox.map(({ m, id }) => summary(m, id, name));
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    smtpPort: sink.smtpPort,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      await new Promise<void>((r) => server.close(() => r()));
      await sink.stop();
    },
  };
}
