/**
 * Webhook endpoints of a project: create (the signing secret is generated, sealed at rest and
 * shown once), list, read, update (URL, description, event types, disabled by the owner), delete.
 * Every URL passes the checks of urls.ts.
 */
import { encodeBase64 } from "@oslojs/encoding";
import { encryptAtRest, openSealed } from "../../crypto/at-rest";
import {
  deleteWebhookEndpointRow,
  findWebhookEndpoint,
  insertWebhookEndpoint,
  listWebhookEndpointRows,
  updateWebhookEndpointRow,
  type WebhookEndpointPatch,
  type WebhookEndpointRow,
} from "../../db/queries/webhooks";
import type { Deps } from "../deps";
import { fail, type Problem } from "../result";
import { checkWebhookUrl } from "./urls";

export type EndpointInput = {
  url?: string;
  description?: string;
  eventTypes?: string[];
  disabled?: boolean;
  /** The project is in production mode: its URLs follow the production rule even on a development deployment. */
  productionMode?: boolean;
};
export type EndpointResult<T> = { ok: true; value: T } | Problem<"webhook_url_invalid" | "webhook_endpoint_not_found">;

/** A new signing secret in the Standard Webhooks form: `whsec_` and 24 random bytes in base64. */
export function newSigningSecret(): string {
  return `whsec_${encodeBase64(crypto.getRandomValues(new Uint8Array(24)))}`;
}

function urlProblem(deps: Deps, url: string | undefined, productionMode = false): Problem<"webhook_url_invalid"> | null {
  if (url === undefined) return null;
  // A production project's endpoints are public https, as its production checks require (issue 25).
  const check = checkWebhookUrl(url, { development: deps.config.environment === "development" && !productionMode });
  return check.ok ? null : fail("webhook_url_invalid", { message: check.message });
}

export async function createWebhookEndpoint(
  deps: Deps,
  projectId: string,
  input: EndpointInput & { url: string },
): Promise<EndpointResult<{ endpoint: WebhookEndpointRow; secret: string }>> {
  const problem = urlProblem(deps, input.url, input.productionMode);
  if (problem) return problem;
  const secret = newSigningSecret();
  const now = deps.now();
  // Why sealed, not hashed: the worker must read the secret back to sign every delivery.
  const endpoint = await insertWebhookEndpoint(deps.db, {
    id: deps.random.uuid(),
    projectId,
    url: input.url,
    description: input.description ?? "",
    eventTypes: [...new Set(input.eventTypes ?? [])],
    secretSealed: await encryptAtRest(deps.tokenKeys.secret, secret),
    createdAt: now,
    updatedAt: now,
  });
  return { ok: true, value: { endpoint, secret } };
}

export function listWebhookEndpoints(deps: Deps, projectId: string): Promise<WebhookEndpointRow[]> {
  return listWebhookEndpointRows(deps.db, projectId);
}

export function getWebhookEndpoint(deps: Deps, projectId: string, endpointId: string): Promise<WebhookEndpointRow | null> {
  return findWebhookEndpoint(deps.db, projectId, endpointId);
}

/** Updates an endpoint; enabling it again clears the reason and the failure streak. */
export async function updateWebhookEndpoint(
  deps: Deps,
  projectId: string,
  endpointId: string,
  input: EndpointInput,
): Promise<EndpointResult<WebhookEndpointRow>> {
  const problem = urlProblem(deps, input.url, input.productionMode);
  if (problem) return problem;
  const patch: WebhookEndpointPatch = {};
  if (input.url !== undefined) patch.url = input.url;
  if (input.description !== undefined) patch.description = input.description;
  if (input.eventTypes !== undefined) patch.eventTypes = [...new Set(input.eventTypes)];
  if (input.disabled === true) {
    const before = await findWebhookEndpoint(deps.db, projectId, endpointId);
    if (!before) return fail("webhook_endpoint_not_found");
    if (!before.disabled) Object.assign(patch, { disabled: true, disabledReason: "Disabled by an owner.", disabledAt: deps.now() });
  }
  if (input.disabled === false) Object.assign(patch, { disabled: false, disabledReason: null, disabledAt: null, consecutiveFailures: 0 });
  const row = await updateWebhookEndpointRow(deps.db, projectId, endpointId, patch, deps.now());
  return row ? { ok: true, value: row } : fail("webhook_endpoint_not_found");
}

export function deleteWebhookEndpoint(deps: Deps, projectId: string, endpointId: string): Promise<boolean> {
  return deleteWebhookEndpointRow(deps.db, projectId, endpointId);
}

/** The clear signing secret of an endpoint, to sign a delivery; null if it cannot be opened (sealed under a retired server secret). */
export function openSigningSecret(deps: Deps, endpoint: WebhookEndpointRow): Promise<string | null> {
  return openSealed(deps.tokenKeys, endpoint.secretSealed);
}
