/** Reading mail in tests: the SMTP sink's mailbox (over loopback) and the dev outbox (D1). */
import { env } from "cloudflare:test";
import { inject } from "vitest";
import { SINK_PASSWORD, SINK_USERNAME } from "../mail-sink-constants";

export type Mail = { to: string[]; subject: string; text: string; html: string };

/** An email_config pointing at the test SMTP sink. */
export function sinkEmailConfig(
  credentials: { username: string; password: string } = { username: SINK_USERNAME, password: SINK_PASSWORD },
) {
  return {
    type: "standard" as const,
    host: "127.0.0.1",
    port: inject("smtpPort"),
    username: credentials.username,
    password: credentials.password,
    sender_name: "Doorman Tests",
    sender_email: "tests@doorman.localhost",
  };
}

/** Waits for the n-th mail to an address in the SMTP sink (sending happens after the response). */
export async function waitForMail(address: string, count = 1, timeoutMs = 10_000): Promise<Mail[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`http://127.0.0.1:${inject("mailboxPort")}/messages?to=${encodeURIComponent(address)}`);
    const list = (await res.json()) as Mail[];
    if (list.length >= count) return list;
    if (Date.now() > deadline) throw new Error(`no mail for ${address} after ${timeoutMs} ms (have ${list.length})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The dev outbox: emails of "shared" projects without a platform sender are logged in D1 (with
 * codes redacted) and, in development, kept unredacted in the project's dev inbox in KV, under
 * `dev-outbox:{project id}:{newest-first stamp}:{email id}` (worker/kv/keys.ts).
 */
export async function outbox(address: string): Promise<Mail[]> {
  const rows = await env.DB.prepare('SELECT id, project_id, "to" FROM sent_emails WHERE "to" LIKE ? ORDER BY created_at')
    .bind(`%${address}%`)
    .all<{ id: string; project_id: string; to: string }>();
  const keysOf = new Map<string, string[]>();
  const mails: Mail[] = [];
  for (const r of rows.results) {
    let keys = keysOf.get(r.project_id);
    if (!keys) {
      keys = (await env.KV.list({ prefix: `dev-outbox:${r.project_id}:` })).keys.map((k) => k.name);
      keysOf.set(r.project_id, keys);
    }
    const key = keys.find((k) => k.endsWith(`:${r.id}`));
    const real = key ? await env.KV.get<{ subject: string; text: string; html: string }>(key, "json") : null;
    if (real) mails.push({ subject: real.subject, text: real.text, html: real.html, to: JSON.parse(r.to) as string[] });
  }
  return mails;
}

/** Waits until the outbox has the n-th mail to an address. */
export async function waitForOutbox(address: string, count = 1, timeoutMs = 5_000): Promise<Mail[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const list = await outbox(address);
    if (list.length >= count) return list;
    if (Date.now() > deadline) throw new Error(`no outbox mail for ${address} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The `?code=` from a mail's text body (the link is the callback URL with the code appended). */
export function codeFrom(mail: Mail): string {
  const match = /[?&]code=([a-zA-Z0-9]+)/.exec(mail.text);
  if (!match) throw new Error(`no code in mail: ${mail.text}`);
  return match[1]!;
}
