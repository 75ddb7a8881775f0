/**
 * Emails as a product on the wire (issue 14), as the reference shapes them: themes
 * (/internal/email-themes), templates (/internal/email-templates), drafts (/internal/email-drafts),
 * the live preview (POST /emails/render-email) and sending (POST /emails/send-email). Zod schemas
 * for the worker's declarations; the SDK uses the inferred types.
 */
import { z } from "zod";

/** Theme and template ids are uuids (checked loosely: the ids become config keys, so no dots or other characters). */
export const emailObjectIdSchema = z
  .string()
  .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, "must be a uuid");
/** A theme choice: a theme id, false (no theme), or null/absent (the project's active theme). */
export const themeChoiceSchema = z.union([emailObjectIdSchema, z.literal(false)]).nullable();
const tsxSource = z.string().max(100_000);
const displayName = z.string().min(1).max(256);
const variables = z.record(z.string(), z.unknown());

export const emailThemeSummarySchema = z.object({ id: z.string(), display_name: z.string() });
export const emailThemeListSchema = z.object({ themes: z.array(emailThemeSummarySchema) });
export const emailThemeSchema = z.object({ id: z.string(), display_name: z.string(), tsx_source: z.string() });
export const emailThemeCreateSchema = z.object({ display_name: displayName });
export const emailThemeUpdateSchema = z.object({ tsx_source: tsxSource.optional(), display_name: displayName.optional() });
export const emailThemeUpdatedSchema = z.object({ display_name: z.string() });

export const emailTemplateSchema = z.object({
  id: z.string(),
  display_name: z.string(),
  tsx_source: z.string(),
  theme_id: z
    .union([z.string(), z.literal(false)])
    .nullable()
    .optional(),
});
export const emailTemplateListSchema = z.object({ templates: z.array(emailTemplateSchema) });
export const emailTemplateCreateSchema = z.object({ display_name: displayName });
export const emailTemplateUpdateSchema = z.object({ tsx_source: tsxSource, theme_id: themeChoiceSchema.optional() });
/** The saved template rendered in preview mode. */
export const emailTemplateUpdatedSchema = z.object({ rendered_html: z.string() });

export const emailDraftSchema = z.object({
  id: z.string(),
  display_name: z.string(),
  tsx_source: z.string(),
  /** Absent: the project's active theme; false: no theme. */
  theme_id: z.union([z.string(), z.literal(false)]).optional(),
  sent_at_millis: z.number().nullable(),
  template_variables: variables,
});
export const emailDraftListSchema = z.object({ drafts: z.array(emailDraftSchema) });
export const emailDraftCreateSchema = z.object({
  display_name: displayName,
  theme_id: themeChoiceSchema.optional(),
  tsx_source: tsxSource.optional(),
  template_variables: variables.optional(),
});
export const emailDraftUpdateSchema = z.object({
  display_name: displayName.optional(),
  theme_id: themeChoiceSchema.optional(),
  tsx_source: tsxSource.optional(),
  template_variables: variables.optional(),
});
export const emailIdSchema = z.object({ id: z.string() });
export const emailOkSchema = z.object({ ok: z.literal("ok") });

/** POST /emails/render-email: a template (id or source) in a theme (id, source, or false for none). */
export const renderEmailBodySchema = z.object({
  theme_id: themeChoiceSchema.optional(),
  theme_tsx_source: tsxSource.optional(),
  template_id: emailObjectIdSchema.optional(),
  template_tsx_source: tsxSource.optional(),
  variables: variables.optional(),
});
export const renderEmailResultSchema = z.object({
  html: z.string(),
  text: z.string(),
  subject: z.string().optional(),
  notification_category: z.string().optional(),
});

/** POST /emails/send-email: user_ids or all_users; html, template_id (+ variables) or draft_id. */
export const sendEmailBodySchema = z.object({
  user_ids: z.array(z.string().min(1).max(128)).max(10_000).optional(),
  all_users: z.literal(true).optional(),
  theme_id: themeChoiceSchema.optional(),
  subject: z.string().min(1).max(998).optional(),
  notification_category_name: z.string().max(128).optional(),
  html: z.string().max(100_000).optional(),
  template_id: emailObjectIdSchema.optional(),
  variables: variables.optional(),
  draft_id: z.string().max(64).optional(),
});
export const sendEmailResultItemSchema = z.object({
  user_id: z.string(),
  user_email: z.string().optional(),
  /** true when the message is in the outbox. */
  success: z.boolean(),
  /** Doorman: queued (in the outbox: GET /emails/outbox/{email_id} follows it) or skipped (no primary email, or unsubscribed). */
  status: z.enum(["sent", "queued", "skipped", "failed"]),
  error: z.string().optional(),
  /** Doorman: the outbox row of this message (GET /emails/outbox/{id}); its email log entry has the same id once attempted. */
  email_id: z.string().optional(),
});
export const sendEmailResultSchema = z.object({ results: z.array(sendEmailResultItemSchema) });

export type EmailThemeJson = z.infer<typeof emailThemeSchema>;
export type EmailTemplateJson = z.infer<typeof emailTemplateSchema>;
export type EmailDraftJson = z.infer<typeof emailDraftSchema>;
export type RenderEmailResultJson = z.infer<typeof renderEmailResultSchema>;
export type SendEmailResultJson = z.infer<typeof sendEmailResultSchema>;
