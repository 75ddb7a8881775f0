/**
 * The wire's JSON answers of the team and permission routes (wire-protocol.md §2, §7) that
 * wire.ts does not hold: memberships, invitation sends and code redemptions, permission grants
 * and permission definitions. Zod schemas for the worker's declarations; the SDK uses the
 * inferred types.
 */
import { z } from "zod";

/** POST /team-memberships/{teamId}/{userId}: the membership just added. */
export const teamMembershipSchema = z.object({ team_id: z.string(), user_id: z.string() });

/** POST /team-invitations/send-code: the invitation (code) id. */
export const invitationSentSchema = z.object({ success: z.literal(true), id: z.string() });

/** POST /team-invitations/accept/check-code: a code that is still valid (an invalid one is a known error). */
export const invitationCodeCheckSchema = z.object({ is_code_valid: z.literal(true) });

/** POST /team-invitations/accept/details: the team the code invites to. */
export const invitationCodeDetailsSchema = z.object({ team_id: z.string(), team_display_name: z.string() });

/** An empty object: the answer of accepting an invitation. */
export const emptyObjectSchema = z.object({});

/** A team permission a user holds in a team (directly, or through containment when listed recursively). */
export const teamPermissionSchema = z.object({ id: z.string(), team_id: z.string(), user_id: z.string() });

/** A project permission a user holds. */
export const projectPermissionSchema = z.object({ id: z.string(), user_id: z.string() });

/** A permission definition of one scope; `description` is left out when unset. */
export const permissionDefinitionSchema = z.object({
  id: z.string(),
  description: z.string().optional(),
  contained_permission_ids: z.array(z.string()),
});

export type TeamMembershipJson = z.infer<typeof teamMembershipSchema>;
export type InvitationSentJson = z.infer<typeof invitationSentSchema>;
export type InvitationCodeCheckJson = z.infer<typeof invitationCodeCheckSchema>;
export type InvitationCodeDetailsJson = z.infer<typeof invitationCodeDetailsSchema>;
export type EmptyObjectJson = z.infer<typeof emptyObjectSchema>;
export type TeamPermissionJson = z.infer<typeof teamPermissionSchema>;
export type ProjectPermissionJson = z.infer<typeof projectPermissionSchema>;
export type PermissionDefinitionJson = z.infer<typeof permissionDefinitionSchema>;
