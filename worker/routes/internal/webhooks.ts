/**
 * Doorman's built-in webhooks API (the reference delegates this to Svix): endpoints CRUD and the
 * delivery log with resend under /internal/webhooks, POST /internal/send-test-webhook, and
 * POST /webhooks/svix-token. The /internal/webhooks routes take admin access, or the token from
 * /webhooks/svix-token as `Authorization: Bearer <token>` (as the reference's console calls Svix).
 */

import { KnownError } from "@doorman/shared/known-errors";
import { successSchema } from "@doorman/shared/wire";
import {
  sendTestWebhookBodySchema,
  sendTestWebhookResultSchema,
  svixTokenSchema,
  webhookDeliveryListSchema,
  webhookDeliverySchema,
  webhookEndpointCreatedSchema,
  webhookEndpointCreateSchema,
  webhookEndpointListSchema,
  webhookEndpointSchema,
  webhookEndpointSecretSchema,
  webhookEndpointUpdateSchema,
} from "@doorman/shared/wire-webhooks";
import type { MiddlewareHandler } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../http/hono-env";
import { unwrap } from "../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { StatusError } from "../../lib/errors";
import { stackHeader } from "../../middleware/headers";
import { loadProject } from "../../services/seed";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  type EndpointResult,
  getWebhookEndpoint,
  listWebhookEndpoints,
  updateWebhookEndpoint,
} from "../../services/webhooks/endpoints";
import { getWebhookDelivery, listWebhookDeliveries, resendWebhookDelivery } from "../../services/webhooks/log";
import { sendTestWebhook } from "../../services/webhooks/queue";
import { revealWebhookSecret, rotateWebhookSecret } from "../../services/webhooks/secrets";
import { issueWebhookToken, verifyWebhookToken } from "../../services/webhooks/token";
import { webhookDeliveryView, webhookEndpointView } from "../../views/webhooks";

const CREDENTIAL =
  "Admin access, or `Authorization: Bearer <token>` with a token from POST /webhooks/svix-token (scoped to its project, valid one hour while the key set or owner session that minted it is live).";

/**
 * The token from /webhooks/svix-token stands for admin access to this group only: without the
 * usual headers, a valid `Authorization: Bearer <token>` authenticates as its project's admin.
 */
const bearerToken: MiddlewareHandler<AppEnv> = async (c, next) => {
  const bearer = c.get("auth") ? undefined : c.req.header("authorization")?.match(/^Bearer\s+(\S+)$/i)?.[1];
  if (bearer) {
    const deps = c.get("deps");
    const projectId = await verifyWebhookToken(deps, bearer);
    const project = projectId ? await loadProject(deps, projectId) : null;
    if (!project)
      throw new StatusError(
        401,
        "The webhooks token is invalid, expired, or its key set or session has ended; get a new one from POST /webhooks/svix-token.",
      );
    c.set("auth", { type: "admin", project, user: null, sessionId: null, adminUserId: null });
    deps.audit.actorType = "admin";
  }
  await next();
};

function endpointOf<T>(result: EndpointResult<T>): T {
  return unwrap(result).value;
}

const endpointParams = z.strictObject({ endpointId: z.string().min(1).max(64) });
const deliveryParams = z.strictObject({ deliveryId: z.string().min(1).max(64) });
const common = { access: ["admin"], description: CREDENTIAL } as const;

const listEndpoints = defineRoute({
  ...common,
  method: "get",
  path: "/endpoints",
  summary: "List the project's webhook endpoints",
  response: webhookEndpointListSchema,
});
const createEndpoint = defineRoute({
  ...common,
  method: "post",
  path: "/endpoints",
  summary: "Create a webhook endpoint; its signing secret (whsec_…) is answered this once",
  body: webhookEndpointCreateSchema,
  response: webhookEndpointCreatedSchema,
  errors: ["SCHEMA_ERROR"],
});
const getEndpoint = defineRoute({
  ...common,
  method: "get",
  path: "/endpoints/{endpointId}",
  summary: "A webhook endpoint",
  params: endpointParams,
  response: webhookEndpointSchema,
});
const updateEndpoint = defineRoute({
  ...common,
  method: "patch",
  path: "/endpoints/{endpointId}",
  summary: "Update a webhook endpoint: URL, description, event types, or disable/enable it",
  params: endpointParams,
  body: webhookEndpointUpdateSchema,
  response: webhookEndpointSchema,
  errors: ["SCHEMA_ERROR"],
});
const deleteEndpoint = defineRoute({
  ...common,
  method: "delete",
  path: "/endpoints/{endpointId}",
  summary: "Delete a webhook endpoint and its delivery log",
  params: endpointParams,
  response: successSchema,
});
const revealSecret = defineRoute({
  ...common,
  method: "get",
  path: "/endpoints/{endpointId}/secret",
  summary: "Reveal an endpoint's signing secret (whsec_…); each reveal is logged as a webhook.secret_revealed event",
  params: endpointParams,
  response: webhookEndpointSecretSchema,
});
const rotateSecret = defineRoute({
  ...common,
  method: "post",
  path: "/endpoints/{endpointId}/secret/rotate",
  summary: "Rotate an endpoint's signing secret: the new one (answered this once) signs every attempt from now on, the old one none",
  params: endpointParams,
  body: z.strictObject({}).optional(),
  response: webhookEndpointSecretSchema,
});
const listDeliveries = defineRoute({
  ...common,
  method: "get",
  path: "/deliveries",
  summary: "The delivery log, newest first, each delivery with its payload and attempts; filter by endpoint, page with the cursor",
  query: z.strictObject({
    endpoint_id: z.string().max(64).optional(),
    cursor: z.string().max(128).optional(),
    limit: z.coerce.number().int().min(1).max(100).optional(),
  }),
  response: webhookDeliveryListSchema,
  errors: ["SCHEMA_ERROR"],
});
const getDelivery = defineRoute({
  ...common,
  method: "get",
  path: "/deliveries/{deliveryId}",
  summary: "A delivery with its attempts",
  params: deliveryParams,
  response: webhookDeliverySchema,
});
const resendDelivery = defineRoute({
  ...common,
  method: "post",
  path: "/deliveries/{deliveryId}/resend",
  summary: "Send a delivery again (now, with a fresh retry schedule)",
  params: deliveryParams,
  response: webhookDeliverySchema,
});

export const internalWebhooksRoutes = routeGroup();
internalWebhooksRoutes.use("*", bearerToken);
addRoute(internalWebhooksRoutes, listEndpoints, async (c, { auth }) => {
  const rows = await listWebhookEndpoints(c.get("deps"), auth.project.id);
  return c.json({ items: rows.map(webhookEndpointView), is_paginated: false as const });
});
addRoute(internalWebhooksRoutes, createEndpoint, async (c, { auth, body }) => {
  const projectId = auth.project.id;
  const created = endpointOf(
    await createWebhookEndpoint(c.get("deps"), projectId, {
      url: body.url,
      description: body.description,
      eventTypes: body.event_types,
      productionMode: auth.project.isProductionMode,
    }),
  );
  return c.json({ ...webhookEndpointView(created.endpoint), secret: created.secret });
});
addRoute(internalWebhooksRoutes, getEndpoint, async (c, { auth, params }) => {
  const row = await getWebhookEndpoint(c.get("deps"), auth.project.id, params.endpointId);
  if (!row) throw new StatusError(404, "Webhook endpoint not found.");
  return c.json(webhookEndpointView(row));
});
addRoute(internalWebhooksRoutes, updateEndpoint, async (c, { auth, params, body }) => {
  const projectId = auth.project.id;
  const row = endpointOf(
    await updateWebhookEndpoint(c.get("deps"), projectId, params.endpointId, {
      url: body.url,
      description: body.description,
      eventTypes: body.event_types,
      disabled: body.disabled,
      productionMode: auth.project.isProductionMode,
    }),
  );
  return c.json(webhookEndpointView(row));
});
addRoute(internalWebhooksRoutes, deleteEndpoint, async (c, { auth, params }) => {
  if (!(await deleteWebhookEndpoint(c.get("deps"), auth.project.id, params.endpointId)))
    throw new StatusError(404, "Webhook endpoint not found.");
  return c.json({ success: true as const });
});
addRoute(internalWebhooksRoutes, revealSecret, async (c, { auth, params }) => {
  const { secret } = unwrap(await revealWebhookSecret(c.get("deps"), auth.project.id, params.endpointId));
  return c.json({ secret });
});
addRoute(internalWebhooksRoutes, rotateSecret, async (c, { auth, params }) => {
  const { secret } = unwrap(await rotateWebhookSecret(c.get("deps"), auth.project.id, params.endpointId));
  return c.json({ secret });
});
addRoute(internalWebhooksRoutes, listDeliveries, async (c, { auth, query }) => {
  const page = await listWebhookDeliveries(c.get("deps"), auth.project.id, {
    endpointId: query.endpoint_id,
    cursor: query.cursor,
    limit: query.limit ?? 20,
  });
  if (!page) throw new KnownError("SCHEMA_ERROR", { message: "cursor is not a cursor of this list." });
  return c.json({
    items: page.items.map((d) => webhookDeliveryView(d.delivery, d.attempts)),
    is_paginated: true as const,
    pagination: { next_cursor: page.nextCursor },
  });
});
addRoute(internalWebhooksRoutes, getDelivery, async (c, { auth, params }) => {
  const found = await getWebhookDelivery(c.get("deps"), auth.project.id, params.deliveryId);
  if (!found) throw new StatusError(404, "Webhook delivery not found.");
  return c.json(webhookDeliveryView(found.delivery, found.attempts));
});
addRoute(internalWebhooksRoutes, resendDelivery, async (c, { auth, params }) => {
  const found = await resendWebhookDelivery(c.get("deps"), auth.project.id, params.deliveryId);
  if (!found) throw new StatusError(404, "Webhook delivery not found.");
  return c.json(webhookDeliveryView(found.delivery, found.attempts));
});

const sendTest = defineRoute({
  method: "post",
  path: "/",
  summary: "Send a `stack.test` event to one endpoint and answer whether its first attempt succeeded (it shows in the delivery log)",
  access: ["admin"],
  body: sendTestWebhookBodySchema,
  response: sendTestWebhookResultSchema,
});

export const sendTestWebhookRoutes = routeGroup();
addRoute(sendTestWebhookRoutes, sendTest, async (c, { auth, body }) => {
  const deps = c.get("deps");
  const endpoint = await getWebhookEndpoint(deps, auth.project.id, body.endpoint_id);
  if (!endpoint) return c.json({ success: false, error_message: "Endpoint not found. Make sure it still exists." });
  if (endpoint.disabled) return c.json({ success: false, error_message: "The endpoint is disabled. Enable it to send events." });
  const { result } = await sendTestWebhook(deps, endpoint);
  if (result.outcome === "succeeded") return c.json({ success: true });
  return c.json({ success: false, error_message: "Webhook not delivered. Make sure the endpoint is configured correctly." });
});

const svixToken = defineRoute({
  method: "post",
  path: "/",
  summary: "A short-lived token for the built-in webhooks API (the reference's Svix app-portal token)",
  description:
    "Use it as `Authorization: Bearer <token>` on /internal/webhooks/… ; it is scoped to the project and valid one hour, and only while the admin key set or owner session that minted it is live (revoking it refuses the token at once).",
  access: ["admin"],
  body: z.strictObject({}).optional(),
  response: svixTokenSchema,
});

export const svixTokenRoutes = routeGroup();
addRoute(svixTokenRoutes, svixToken, async (c, { auth }) => {
  // Bound to the credential that asked: revoking the key set or ending the owner's session ends the token too.
  const adminAccessToken = stackHeader(c, "admin-access-token");
  const adminKey = stackHeader(c, "super-secret-admin-key");
  const credential =
    auth.adminUserId && adminAccessToken ? { adminAccessToken, ownerUserId: auth.adminUserId } : adminKey ? { adminKey } : null;
  const token = credential ? await issueWebhookToken(c.get("deps"), auth.project.id, credential) : null;
  if (!token) throw new StatusError(401, "This credential cannot mint a webhooks token.");
  return c.json({ token });
});
