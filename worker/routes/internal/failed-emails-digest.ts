/**
 * POST /internal/failed-emails-digest: for an external cron (Authorization: Bearer CRON_SECRET).
 * Lists the last 24 hours' failed emails by project and, unless dry_run=true, queues the owners'
 * digest emails (the daily cron does the same on its own).
 */

import { z } from "zod";
import { requireCronCaller } from "../../http/cron-caller";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { runFailedEmailsDigest } from "../../services/email/failed-digest";

const digestResponse = z.object({
  success: z.boolean(),
  failed_emails_by_tenancy: z.array(
    z.object({
      emails: z.array(z.object({ subject: z.string(), to: z.array(z.string()) })),
      tenant_owner_emails: z.array(z.string()),
      project_id: z.string(),
      /** One tenancy per project in Doorman: the project id. */
      tenancy_id: z.string(),
    }),
  ),
});

const digest = defineRoute({
  method: "post",
  path: "/",
  summary: "Queue the owners' failed-emails digest (cron; Authorization: Bearer CRON_SECRET)",
  description: "dry_run=true only lists the failed emails of the last 24 hours by project. At most one digest per owner, project and day.",
  // The cron's secret is the credential; x-stack-* headers are not needed.
  access: "public",
  query: z.strictObject({ dry_run: z.enum(["true", "false"]).optional() }),
  response: digestResponse,
  errors: ["SCHEMA_ERROR"],
});

export const failedEmailsDigestRoutes = routeGroup();
addRoute(failedEmailsDigestRoutes, digest, async (c, { query }) => {
  const deps = requireCronCaller(c);
  const run = await runFailedEmailsDigest(deps, { dryRun: query.dry_run === "true" });
  return c.json({
    success: true,
    failed_emails_by_tenancy: run.projects.map((p) => ({
      emails: p.emails,
      tenant_owner_emails: p.ownerEmails,
      project_id: p.projectId,
      tenancy_id: p.projectId,
    })),
  });
});
