/** Wire views of the dev inbox (development only): the real messages of the dev outbox. */
import type { DevInboxEntryJson, DevInboxMessageJson } from "@doorman/shared/wire-dev-inbox";
import type { DevInboxMessage } from "../services/email/dev-inbox";

export function devInboxEntryView(m: DevInboxMessage): DevInboxEntryJson {
  return { id: m.id, to: m.to, subject: m.subject, codes: m.codes, links: m.links, created_at_millis: m.createdAt, truncated: m.truncated };
}

export function devInboxMessageView(m: DevInboxMessage): DevInboxMessageJson {
  return { ...devInboxEntryView(m), html: m.html, text: m.text };
}
