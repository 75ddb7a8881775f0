/**
 * The webhook event types, apart from the zod schemas of wire-webhooks.ts, so that the SDK's
 * client bundle (which re-exports them through the admin app) does not pull in zod.
 */

/** The webhook event types, as the reference names them. */
export const WEBHOOK_EVENT_TYPES = [
  "user.created",
  "user.updated",
  "user.deleted",
  "team.created",
  "team.updated",
  "team.deleted",
  "team_membership.created",
  "team_membership.deleted",
  "team_permission.created",
  "team_permission.deleted",
  "project_permission.created",
  "project_permission.deleted",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The type of the event "send test event" sends (the reference's). */
export const WEBHOOK_TEST_EVENT_TYPE = "stack.test";
