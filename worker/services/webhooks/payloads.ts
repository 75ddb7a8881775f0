/**
 * The webhook payload of an event, as the reference sends it: `{ type, data }`, where `data` is the
 * server-side JSON of the user or team as D1 holds it now, `{ team_id, user_id }` for a membership,
 * `{ id, user_id, team_id }` for a team permission, `{ id, user_id }` for a project permission, and
 * for deletions what the event row kept.
 */
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "@doorman/shared/wire-webhooks";
import type { EventRow } from "../../db/queries/events";
import { findProjectById } from "../../db/queries/projects";
import { findTeam } from "../../db/queries/teams";
import { findUserRecord } from "../../db/queries/users";
import type { Db } from "../deps";
import { readProjectConfig } from "../project-config/flat";
import { teamServerView } from "../team-view";
import { userServerView } from "../user-view";

export type WebhookPayload = { type: string; data: unknown };

export function isWebhookEventType(type: string): type is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type);
}

function dataOf(event: EventRow): Record<string, unknown> {
  return (event.data as Record<string, unknown> | null) ?? {};
}

async function userPayload(db: Db, event: EventRow): Promise<unknown | null> {
  if (!event.userId) return null;
  const [record, project] = await Promise.all([findUserRecord(db, event.projectId, event.userId), findProjectById(db, event.projectId)]);
  if (!record || !project) return null;
  return userServerView(record, readProjectConfig(project.config));
}

async function teamPayload(db: Db, event: EventRow): Promise<unknown | null> {
  if (!event.teamId) return null;
  const team = await findTeam(db, event.projectId, event.teamId);
  return team ? teamServerView(team) : null;
}

/**
 * The payload of a committed webhook event; null when it has none: not a webhook type, or its
 * user or team is gone by now (a later change deleted it; that deletion has its own event).
 */
export async function buildWebhookPayload(db: Db, event: EventRow): Promise<WebhookPayload | null> {
  const type = event.type;
  if (!isWebhookEventType(type)) return null;
  const data = await webhookData(db, type, event);
  return data === null ? null : { type, data };
}

async function webhookData(db: Db, type: WebhookEventType, event: EventRow): Promise<unknown | null> {
  switch (type) {
    case "user.created":
    case "user.updated":
      return userPayload(db, event);
    case "user.deleted": {
      const teamIds = dataOf(event).team_ids;
      const teams = Array.isArray(teamIds) ? teamIds.filter((id): id is string => typeof id === "string") : [];
      return event.userId ? { id: event.userId, teams: teams.map((id) => ({ id })) } : null;
    }
    case "team.created":
    case "team.updated":
      return teamPayload(db, event);
    case "team.deleted":
      return event.teamId ? { id: event.teamId } : null;
    case "team_membership.created":
    case "team_membership.deleted":
      // A team's creator joins with the team: its team.created is the webhook, as the reference sends it.
      if (dataOf(event).creator === true) return null;
      return event.teamId && event.userId ? { team_id: event.teamId, user_id: event.userId } : null;
    case "team_permission.created":
    case "team_permission.deleted": {
      const permissionId = dataOf(event).permission_id;
      return typeof permissionId === "string" && event.teamId && event.userId
        ? { id: permissionId, user_id: event.userId, team_id: event.teamId }
        : null;
    }
    case "project_permission.created":
    case "project_permission.deleted": {
      const permissionId = dataOf(event).permission_id;
      return typeof permissionId === "string" && event.userId ? { id: permissionId, user_id: event.userId } : null;
    }
  }
}
