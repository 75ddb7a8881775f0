/**
 * Hosted pages on the wire (issue 28). Public: GET /hosted-pages?project_id=… or ?host=… tells the
 * web app which project a hosted page belongs to, with its theme, the key the pages use and where
 * they may return. Admin: GET/PUT/DELETE /internal/hosted-pages(/custom-domain) read and map the
 * project's custom domain.
 */
import { z } from "zod";

export const hostedPagesQuerySchema = z.strictObject({
  project_id: z.string().min(1).max(64).optional(),
  /** A request's Host (a custom domain), without the port. */
  host: z.string().min(1).max(253).optional(),
  /** The page's after_auth_return_to, absolute; answered back in `return_to` only when trusted. */
  return_to: z.string().max(4096).optional(),
});

export const hostedPagesSchema = z.object({
  project_id: z.string(),
  display_name: z.string(),
  logo_url: z.string().nullable(),
  /** The publishable client key the hosted pages use (derived per project; public like any publishable key). */
  publishable_client_key: z.string(),
  /** The project's custom domain, or null. */
  custom_domain: z.string().nullable(),
  /** Where the pages return after sign-in, sign-up and sign-out by default: the first trusted domain's base URL, or null. */
  default_return_url: z.string().nullable(),
  /** The request's return_to when it is a trusted URL of the project, else null (an untrusted one is ignored). */
  return_to: z.string().nullable(),
  /** Origins the pages may redirect to (the trusted domains without wildcards). */
  trusted_origins: z.array(z.string()),
});
export type HostedPagesJson = z.infer<typeof hostedPagesSchema>;

export const customDomainBodySchema = z.strictObject({ hostname: z.string().min(1).max(300) });

export const hostedPagesAdminSchema = z.object({
  /** The hosted sign-in page on Doorman's web origin. */
  hosted_url: z.string(),
  /** The mapped hostname, or null. */
  custom_domain: z.string().nullable(),
});
export type HostedPagesAdminJson = z.infer<typeof hostedPagesAdminSchema>;
