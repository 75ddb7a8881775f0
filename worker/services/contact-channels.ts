/**
 * Contact channels: a user's email addresses. One is primary (the user's primary_email); those
 * `used_for_auth` sign in, so an address can be used for sign-in by one user of a project only
 * (a partial unique index decides races). Changing an address un-verifies it.
 */
import type { BatchItem } from "drizzle-orm/batch";
import {
  type ContactChannelRow,
  deleteChannel,
  findChannel,
  insertChannelStatement,
  listChannelsOfUser,
  unsetOtherPrimariesStatement,
  updateChannelStatement,
} from "../db/queries/contact-channels";
import type { ProjectRow } from "../db/queries/projects";
import { findUserRecord, isAuthEmailTaken, isUniqueViolation } from "../db/queries/users";
import type { Deps } from "./deps";
import { sendVerificationEmail } from "./email/verification";
import { fail, type Problem } from "./result";
import { normaliseEmail } from "./users";

export type ChannelProblem = Problem<
  "user_not_found" | "channel_not_found" | "channel_to_change_not_found" | "channel_used_for_auth" | "channel_duplicate"
>;

export type ChannelInput = { value?: string; usedForAuth?: boolean; isPrimary?: boolean; isVerified?: boolean };

export function listChannels(deps: Deps, projectId: string, userId: string) {
  return listChannelsOfUser(deps.db, projectId, userId);
}

async function runChannelBatch(
  deps: Deps,
  statements: BatchItem<"sqlite">[],
  value: string,
  usedForAuth: boolean,
): Promise<ChannelProblem | null> {
  try {
    await deps.db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
    return null;
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // Either another user signs in with this address (the partial index), or this user has it already.
    return usedForAuth ? fail("channel_used_for_auth", { value }) : fail("channel_duplicate");
  }
}

export async function createChannel(
  deps: Deps,
  project: ProjectRow,
  userId: string,
  input: Required<Pick<ChannelInput, "value" | "usedForAuth">> & ChannelInput,
): Promise<{ ok: true; channel: ContactChannelRow } | ChannelProblem> {
  if (!(await findUserRecord(deps.db, project.id, userId))) return fail("user_not_found");
  const value = normaliseEmail(input.value);
  if ((await listChannelsOfUser(deps.db, project.id, userId)).some((channel) => channel.value === value)) return fail("channel_duplicate");
  if (input.usedForAuth && (await isAuthEmailTaken(deps.db, project.id, value, userId))) return fail("channel_used_for_auth", { value });
  const id = deps.random.uuid();
  const statements: BatchItem<"sqlite">[] = [
    insertChannelStatement(deps.db, {
      id,
      projectId: project.id,
      userId,
      type: "email",
      value,
      isVerified: input.isVerified ?? false,
      isPrimary: input.isPrimary ?? false,
      usedForAuth: input.usedForAuth,
      createdAt: deps.now(),
    }),
  ];
  if (input.isPrimary) statements.push(unsetOtherPrimariesStatement(deps.db, userId, id));
  const problem = await runChannelBatch(deps, statements, value, input.usedForAuth);
  if (problem) return problem;
  const channel = await findChannel(deps.db, project.id, userId, id);
  return channel ? { ok: true, channel } : fail("channel_not_found");
}

export async function updateChannel(
  deps: Deps,
  project: ProjectRow,
  userId: string,
  channelId: string,
  input: ChannelInput,
): Promise<{ ok: true; channel: ContactChannelRow } | ChannelProblem> {
  const current = await findChannel(deps.db, project.id, userId, channelId);
  if (!current) return fail("channel_to_change_not_found");
  const value = input.value !== undefined ? normaliseEmail(input.value) : current.value;
  const usedForAuth = input.usedForAuth ?? current.usedForAuth;
  if (usedForAuth && (value !== current.value || !current.usedForAuth) && (await isAuthEmailTaken(deps.db, project.id, value, userId))) {
    return fail("channel_used_for_auth", { value });
  }
  const patch: Partial<ContactChannelRow> = { value, usedForAuth };
  if (value !== current.value) patch.isVerified = false;
  if (input.isVerified !== undefined) patch.isVerified = input.isVerified;
  if (input.isPrimary !== undefined) patch.isPrimary = input.isPrimary;
  const statements: BatchItem<"sqlite">[] = [updateChannelStatement(deps.db, channelId, patch)];
  if (input.isPrimary) statements.push(unsetOtherPrimariesStatement(deps.db, userId, channelId));
  const problem = await runChannelBatch(deps, statements, value, usedForAuth);
  if (problem) return problem;
  const channel = await findChannel(deps.db, project.id, userId, channelId);
  return channel ? { ok: true, channel } : fail("channel_not_found");
}

export async function removeChannel(
  deps: Deps,
  project: ProjectRow,
  userId: string,
  channelId: string,
): Promise<{ ok: true } | ChannelProblem> {
  const current = await findChannel(deps.db, project.id, userId, channelId);
  if (!current) return fail("channel_to_change_not_found");
  await deleteChannel(deps.db, channelId);
  return { ok: true };
}

export type SendChannelVerificationResult = { ok: true } | ChannelProblem | Problem<"already_verified" | "untrusted_url">;

export async function sendChannelVerification(
  deps: Deps,
  project: ProjectRow,
  userId: string,
  channelId: string,
  callbackUrl: string,
): Promise<SendChannelVerificationResult> {
  const user = await findUserRecord(deps.db, project.id, userId);
  const channel = user ? await findChannel(deps.db, project.id, userId, channelId) : null;
  if (!user || !channel) return fail("channel_not_found");
  if (channel.isVerified) return fail("already_verified");
  return sendVerificationEmail(deps, project, user, channel, callbackUrl);
}

export type LegacySendResult = SendChannelVerificationResult | Problem<"no_primary_email" | "not_primary_email">;

/** The legacy route: the email must be the current user's primary one. */
export async function sendPrimaryEmailVerification(
  deps: Deps,
  project: ProjectRow,
  userId: string,
  email: string,
  callbackUrl: string,
): Promise<LegacySendResult> {
  const user = await findUserRecord(deps.db, project.id, userId);
  if (!user) return fail("user_not_found");
  const primary = user.primaryEmail;
  if (!primary) return fail("no_primary_email");
  if (normaliseEmail(email) !== primary.value) return fail("not_primary_email", { email, primary: primary.value });
  if (primary.isVerified) return fail("already_verified");
  return sendVerificationEmail(deps, project, user, primary, callbackUrl);
}
