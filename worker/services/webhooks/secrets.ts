/**
 * An endpoint's signing secret after creation: reveal it to an owner, or rotate it. Both write an
 * event (webhook.secret_revealed / webhook.secret_rotated) so the log says who read or replaced it.
 * The secret stays sealed at rest (crypto/at-rest.ts); deliveries open it when they are signed, so
 * after a rotation every attempt, including retries of older deliveries, signs with the new one.
 */
import { encryptAtRest } from "../../crypto/at-rest";
import { findWebhookEndpoint, replaceWebhookSecretStatement } from "../../db/queries/webhooks";
import type { Deps } from "../deps";
import { eventIfChangedStatement, eventStatement } from "../events";
import { fail, type Problem } from "../result";
import { newSigningSecret, openSigningSecret } from "./endpoints";

export type SecretResult = { ok: true; secret: string } | Problem<"webhook_endpoint_not_found" | "webhook_secret_unreadable">;

/** The endpoint's current signing secret, for an owner; the reveal is logged. */
export async function revealWebhookSecret(deps: Deps, projectId: string, endpointId: string): Promise<SecretResult> {
  const endpoint = await findWebhookEndpoint(deps.db, projectId, endpointId);
  if (!endpoint) return fail("webhook_endpoint_not_found");
  const secret = await openSigningSecret(deps, endpoint);
  if (!secret) return fail("webhook_secret_unreadable");
  // Reading a signing secret is logged (who, when, from where): it lets the reader forge deliveries.
  await eventStatement(deps, projectId, "webhook.secret_revealed", {}, { endpoint_id: endpointId }).run();
  return { ok: true, secret };
}

/** A new signing secret replaces the old one at once (the old one signs nothing more); answered this once. */
export async function rotateWebhookSecret(deps: Deps, projectId: string, endpointId: string): Promise<SecretResult> {
  const secret = newSigningSecret();
  // Why sealed, not hashed: the worker must read the secret back to sign every delivery.
  const sealed = await encryptAtRest(deps.tokenKeys.secret, secret);
  const [replaced] = await deps.db.batch([
    replaceWebhookSecretStatement(deps.db, projectId, endpointId, sealed, deps.now()),
    eventIfChangedStatement(deps, projectId, "webhook.secret_rotated", {}, { endpoint_id: endpointId }),
  ]);
  if (replaced.meta.changes === 0) return fail("webhook_endpoint_not_found");
  return { ok: true, secret };
}
