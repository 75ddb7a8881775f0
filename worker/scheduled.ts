/**
 * The worker's scheduled jobs (wrangler.toml [triggers]) and the development-only trigger that
 * `npm start` uses in their place. Kept out of worker/index.ts: workerd treats every export of the
 * main module as an entrypoint, so that file exports only the handlers and the Durable Object.
 */
import { readConfig } from "./config";
import type { Env } from "./env";
import { makeDeps } from "./services/deps";
import { runFailedEmailsDigest } from "./services/email/failed-digest";
import { sweepOutbox } from "./services/email/outbox-consumer";
import { pruneExpiredEvents } from "./services/events";
import { pruneOAuthProviderRows } from "./services/oauth-provider/cleanup";
import { recheckVerifiedDomains } from "./services/sso/domain-verification";
import { pruneUsedSamlAssertions } from "./services/sso/saml/cleanup";
import { pruneWebhookDeliveries, sweepWebhooks } from "./services/webhooks/queue";

/** The crons of wrangler.toml [triggers]: the webhook and outbox sweep; any other cron runs the daily jobs (retention, the failed-emails digest). */
const WEBHOOK_SWEEP_CRON = "*/10 * * * *";
const DAILY_CRON = "17 3 * * *";

/** The scheduled work of one cron; answers what it did (logged by the cron, returned by the dev trigger). */
export async function runScheduled(env: Env, cron: string): Promise<Record<string, number>> {
  const deps = makeDeps(env, { origin: "https://scheduled.invalid" });
  if (cron === WEBHOOK_SWEEP_CRON) {
    const [swept, outbox] = await Promise.all([sweepWebhooks(deps), sweepOutbox(deps)]);
    console.log(
      `webhook sweep: ${swept.events} events, ${swept.deliveries} deliveries re-enqueued; outbox: ${outbox.requeued} re-enqueued, ${outbox.interrupted} interrupted sends ended`,
    );
    return {
      webhookEventsEnqueued: swept.events,
      webhookDeliveriesEnqueued: swept.deliveries,
      outboxRequeued: outbox.requeued,
      outboxInterrupted: outbox.interrupted,
    };
  }
  const [events, deliveries, digest, oauth, samlAssertions, ssoDomains] = await Promise.all([
    pruneExpiredEvents(deps),
    pruneWebhookDeliveries(deps),
    runFailedEmailsDigest(deps, { dryRun: false }),
    pruneOAuthProviderRows(deps),
    pruneUsedSamlAssertions(deps),
    recheckVerifiedDomains(deps),
  ]);
  console.log(
    `event retention: ${events} expired events deleted; webhook log: ${deliveries} old deliveries deleted; failed-emails digest: ${digest.queued} queued; ` +
      `OpenID provider: ${oauth.authorizationRequests} expired authorization requests, ${oauth.clientAssertionJtis} used client-assertion jtis deleted; ` +
      `SAML: ${samlAssertions} expired used-assertion IDs deleted; ` +
      `SSO domains: ${ssoDomains.checked} re-checked, ${ssoDomains.lost} lost, ${ssoDomains.unknown} left for the next run (resolver failures)`,
  );
  return {
    expiredEventsDeleted: events,
    oldDeliveriesDeleted: deliveries,
    failedEmailsDigestsQueued: digest.queued,
    expiredAuthorizationRequestsDeleted: oauth.authorizationRequests,
    expiredClientAssertionJtisDeleted: oauth.clientAssertionJtis,
    expiredSamlAssertionsDeleted: samlAssertions,
    ssoDomainsRechecked: ssoDomains.checked,
    ssoDomainsLost: ssoDomains.lost,
    ssoDomainsUnknown: ssoDomains.unknown,
  };
}

/**
 * `npm start` runs under `wrangler pages dev`, which never fires cron triggers, so scripts/start.mjs
 * POSTs here (?cron=…) on start and on each cron's interval. Development only: a 404 otherwise, so
 * nobody outside can run the jobs in production.
 */
export const DEV_SCHEDULED_PATH = "/api/__dev/scheduled";

export async function devScheduled(request: Request, env: Env): Promise<Response> {
  if (readConfig(env).environment !== "development") return new Response("Not found", { status: 404 });
  if (request.method !== "POST") return new Response("Method not allowed", { status: 405 });
  const cron = new URL(request.url).searchParams.get("cron") ?? DAILY_CRON;
  if (cron !== DAILY_CRON && cron !== WEBHOOK_SWEEP_CRON) return new Response("Unknown cron", { status: 400 });
  return Response.json({ cron, ...(await runScheduled(env, cron)) });
}
