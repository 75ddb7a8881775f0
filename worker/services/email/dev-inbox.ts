/**
 * The dev inbox (development only): the real messages of a project's emails that went to the dev
 * outbox (a "shared" project with no platform sender), with their codes and links, so a local owner
 * can finish "verify your email" without an SMTP relay. The email log keeps the redacted copy
 * (./redact.ts); production never keeps or serves these (the routes answer 404 there).
 * Tenancy: kept per project in KV (kv/keys.ts), at most DEV_INBOX_MAX_MESSAGES a project (each
 * write prunes the older ones), each body capped at DEV_INBOX_MAX_BODY_CHARS, one hour each.
 */

import { DEV_INBOX_MAX_MESSAGES, devInboxPrefix, devOutboxKey, emailIdOfDevInboxKey } from "../../kv/keys";
import type { Deps } from "../deps";
import { fail, type Problem } from "../result";
import type { RenderedEmail } from "./templates";

/** A body longer than this is cut (a rendered email is far smaller; this bounds what one message may hold). */
export const DEV_INBOX_MAX_BODY_CHARS = 256 * 1024;

export type DevInboxMessage = {
  id: string;
  to: string[];
  subject: string;
  html: string;
  text: string;
  /** Codes to type (an OTP), as the template marked them secret. */
  codes: string[];
  /** The links of the text body that carry a secret (a verification or sign-in link). */
  links: string[];
  createdAt: number;
  /** A body was cut at DEV_INBOX_MAX_BODY_CHARS. */
  truncated: boolean;
};

type Stored = Omit<DevInboxMessage, "id">;

export function isDevInboxEnabled(deps: Deps): boolean {
  return deps.config.environment === "development";
}

const URL_IN_TEXT = /https?:\/\/[^\s<>"')\]]+/g;

/** Splits a message's secrets into links (the text's URLs holding one) and codes (secrets left outside any link). */
export function codesAndLinks(text: string, secrets: string[]): { codes: string[]; links: string[] } {
  const wanted = secrets.filter((s) => s.length > 0);
  if (wanted.length === 0) return { codes: [], links: [] };
  const urls = [...new Set(text.match(URL_IN_TEXT) ?? [])];
  const links = urls.filter((u) => wanted.some((s) => u.includes(s) || u.includes(encodeURIComponent(s))));
  const rest = text.replace(URL_IN_TEXT, " ");
  const codes = wanted.filter((s) => !/^https?:\/\//.test(s) && rest.includes(s));
  return { codes: [...new Set(codes)], links };
}

function cut(body: string): { value: string; cut: boolean } {
  return body.length > DEV_INBOX_MAX_BODY_CHARS
    ? { value: body.slice(0, DEV_INBOX_MAX_BODY_CHARS), cut: true }
    : { value: body, cut: false };
}

/**
 * Keeps the real message of an email sent to the dev outbox (development only; a no-op otherwise).
 * The caller then runs pruneDevInbox (after its log row, so the row's time is not held up by it).
 */
export async function keepInDevInbox(deps: Deps, projectId: string, id: string, to: string[], message: RenderedEmail): Promise<void> {
  if (!isDevInboxEnabled(deps)) return;
  const createdAt = deps.now();
  const html = cut(message.html);
  const text = cut(message.text);
  const stored: Stored = {
    to: to.slice(0, 50),
    subject: message.subject.slice(0, 1000),
    html: html.value,
    text: text.value,
    ...codesAndLinks(message.text, message.secrets ?? []),
    createdAt,
    truncated: html.cut || text.cut,
  };
  const { key, ttl } = devOutboxKey(projectId, createdAt, id);
  await deps.env.KV.put(key, JSON.stringify(stored), { expirationTtl: ttl });
}

/**
 * Drops the project's messages past the newest DEV_INBOX_MAX_MESSAGES (development only). Pruning
 * only deletes (idempotent), so concurrent writers can at worst leave a few extra keys until the
 * next write or their TTL.
 */
export async function pruneDevInbox(deps: Deps, projectId: string): Promise<void> {
  if (!isDevInboxEnabled(deps)) return;
  const kept = await deps.env.KV.list({ prefix: devInboxPrefix(projectId), limit: DEV_INBOX_MAX_MESSAGES });
  if (kept.list_complete) return;
  const older = await deps.env.KV.list({ prefix: devInboxPrefix(projectId), cursor: kept.cursor, limit: 1000 });
  await Promise.all(older.keys.map((k) => deps.env.KV.delete(k.name)));
}

async function readAll(deps: Deps, projectId: string): Promise<DevInboxMessage[]> {
  const { keys } = await deps.env.KV.list({ prefix: devInboxPrefix(projectId), limit: DEV_INBOX_MAX_MESSAGES });
  const messages = await Promise.all(
    keys.map(async (k) => {
      const stored = await deps.env.KV.get<Stored>(k.name, "json");
      return stored ? { id: emailIdOfDevInboxKey(k.name), ...stored } : null;
    }),
  );
  return messages.filter((m): m is DevInboxMessage => m !== null);
}

/** The project's dev inbox, newest first; `to` keeps only the messages sent to that address. */
export async function listDevInbox(
  deps: Deps,
  projectId: string,
  options: { to?: string } = {},
): Promise<{ ok: true; messages: DevInboxMessage[] } | Problem<"dev_inbox_unavailable">> {
  if (!isDevInboxEnabled(deps)) return fail("dev_inbox_unavailable");
  const all = await readAll(deps, projectId);
  const to = options.to?.toLowerCase();
  return { ok: true, messages: to ? all.filter((m) => m.to.some((a) => a.toLowerCase() === to)) : all };
}

/** One message of the project's dev inbox. */
export async function readDevInboxMessage(
  deps: Deps,
  projectId: string,
  id: string,
): Promise<{ ok: true; message: DevInboxMessage } | Problem<"dev_inbox_unavailable" | "dev_inbox_message_not_found">> {
  if (!isDevInboxEnabled(deps)) return fail("dev_inbox_unavailable");
  const message = (await readAll(deps, projectId)).find((m) => m.id === id);
  return message ? { ok: true, message } : fail("dev_inbox_message_not_found", { emailId: id });
}
