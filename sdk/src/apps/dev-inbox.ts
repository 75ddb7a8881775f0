/**
 * The dev inbox (development only, a Doorman extension): the real messages a project sent to the
 * dev outbox, with the codes and links to finish a flow locally without an SMTP relay. The admin
 * app reads the project's (GET /internal/dev-inbox); a signed-in user reads their own
 * (GET /emails/dev-inbox). A production worker answers 404, which these read as `null`.
 */
import { HttpError, type RequestOptions } from "../interface/http";
import type { DevInboxEntryJson, DevInboxListJson, DevInboxMessageJson } from "../shared/wire-dev-inbox";

type Requester = <T>(path: string, options?: RequestOptions) => Promise<T>;

/** One message of the dev inbox as listed. */
export type DevInboxEntry = {
  id: string;
  to: string[];
  subject: string;
  /** Codes to type (an OTP). */
  codes: string[];
  /** Links carrying a secret: verify, sign in, reset the password. */
  links: string[];
  createdAt: Date;
  /** A body was cut (the inbox keeps at most 256 KiB of each). */
  truncated: boolean;
};

/** One message with its bodies. */
export type DevInboxMessage = DevInboxEntry & { html: string; text: string };

function entryFromJson(e: DevInboxEntryJson): DevInboxEntry {
  return {
    id: e.id,
    to: e.to,
    subject: e.subject,
    codes: e.codes,
    links: e.links,
    createdAt: new Date(e.created_at_millis),
    truncated: e.truncated,
  };
}

function messageFromJson(m: DevInboxMessageJson): DevInboxMessage {
  return { ...entryFromJson(m), html: m.html, text: m.text };
}

/** `null` for a 404: not a development worker (or, for one message, no such message). */
async function orNull<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) return null;
    throw error;
  }
}

/** @internal The project's dev inbox, newest first; null when the worker is not in development. */
export function listDevInbox(request: Requester, options: { to?: string } = {}): Promise<DevInboxEntry[] | null> {
  const qs = options.to ? `?to=${encodeURIComponent(options.to)}` : "";
  return orNull(async () => (await request<DevInboxListJson>(`/internal/dev-inbox${qs}`)).items.map(entryFromJson));
}

/** @internal One message of the project's dev inbox, or null. */
export function getDevInboxMessage(request: Requester, id: string): Promise<DevInboxMessage | null> {
  return orNull(async () => messageFromJson(await request<DevInboxMessageJson>(`/internal/dev-inbox/${encodeURIComponent(id)}`)));
}

/** @internal The signed-in user's own messages, newest first with bodies; null when not in development. */
export function listOwnDevInbox(request: Requester): Promise<DevInboxMessage[] | null> {
  return orNull(async () => (await request<{ items: DevInboxMessageJson[] }>("/emails/dev-inbox")).items.map(messageFromJson));
}
