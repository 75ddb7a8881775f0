/** The delivery log owners read: a page of deliveries with every attempt, and "resend". */
import {
  findDelivery,
  listAttemptRows,
  listDeliveryRows,
  requeueDelivery,
  type WebhookAttemptRow,
  type WebhookDeliveryRow,
} from "../../db/queries/webhook-deliveries";
import type { Deps } from "../deps";
import { enqueueResend } from "./queue";

export type DeliveryWithAttempts = { delivery: WebhookDeliveryRow; attempts: WebhookAttemptRow[] };

async function withAttempts(deps: Deps, rows: WebhookDeliveryRow[]): Promise<DeliveryWithAttempts[]> {
  const attempts = await listAttemptRows(
    deps.db,
    rows.map((r) => r.id),
  );
  return rows.map((delivery) => ({ delivery, attempts: attempts.filter((a) => a.deliveryId === delivery.id) }));
}

/** The cursor is "<created_at>.<id>" of the last delivery of the page before. */
function parseCursor(cursor: string | undefined): { createdAt: number; id: string } | undefined | null {
  if (cursor === undefined) return undefined;
  const at = cursor.indexOf(".");
  const createdAt = Number(cursor.slice(0, at));
  return at > 0 && Number.isSafeInteger(createdAt) ? { createdAt, id: cursor.slice(at + 1) } : null;
}

/** A page of the project's deliveries, newest first; null for a malformed cursor. */
export async function listWebhookDeliveries(
  deps: Deps,
  projectId: string,
  q: { endpointId?: string; cursor?: string; limit: number },
): Promise<{ items: DeliveryWithAttempts[]; nextCursor: string | null } | null> {
  const before = parseCursor(q.cursor);
  if (before === null) return null;
  const rows = await listDeliveryRows(deps.db, { projectId, endpointId: q.endpointId, before, limit: q.limit + 1 });
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return { items: await withAttempts(deps, page), nextCursor: rows.length > q.limit && last ? `${last.createdAt}.${last.id}` : null };
}

export async function getWebhookDelivery(deps: Deps, projectId: string, deliveryId: string): Promise<DeliveryWithAttempts | null> {
  const row = await findDelivery(deps.db, projectId, deliveryId);
  return row ? ((await withAttempts(deps, [row]))[0] ?? null) : null;
}

/** Resend: due again now with a fresh retry schedule, carried by the queue; null when no such delivery. */
export async function resendWebhookDelivery(deps: Deps, projectId: string, deliveryId: string): Promise<DeliveryWithAttempts | null> {
  const row = await requeueDelivery(deps.db, projectId, deliveryId, deps.now());
  if (!row) return null;
  await enqueueResend(deps, row.id);
  return (await withAttempts(deps, [row]))[0] ?? null;
}
