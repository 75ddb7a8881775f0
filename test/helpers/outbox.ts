/** Following emails through the outbox in tests (GET /emails/outbox). */
import { expect } from "vitest";
import { type CallOptions, call } from "./api";

export type OutboxItem = Record<string, any> & { id: string; status: string };

/** Waits until an outbox email reaches one of `statuses`; fails with the last state seen. */
export async function waitForOutboxStatus(server: CallOptions, id: string, statuses: string[], timeoutMs = 20_000): Promise<OutboxItem> {
  const deadline = Date.now() + timeoutMs;
  let last: OutboxItem | null = null;
  for (;;) {
    const res = await call(`/emails/outbox/${id}`, server);
    expect(res.status, res.text).toBe(200);
    last = res.body as OutboxItem;
    if (statuses.includes(last.status)) return last;
    if (Date.now() > deadline) throw new Error(`outbox ${id} never reached ${statuses.join("/")}: ${JSON.stringify(last).slice(0, 600)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The project's outbox rows, newest first (every page). */
export async function listOutbox(server: CallOptions, query = ""): Promise<OutboxItem[]> {
  const out: OutboxItem[] = [];
  let cursor: string | null = null;
  do {
    const q: string = [query, cursor ? `cursor=${cursor}` : ""].filter(Boolean).join("&");
    const res = await call(`/emails/outbox${q ? `?${q}` : ""}`, server);
    expect(res.status, res.text).toBe(200);
    out.push(...(res.body.items as OutboxItem[]));
    cursor = res.body.pagination.next_cursor;
  } while (cursor);
  return out;
}
