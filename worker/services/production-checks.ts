/**
 * The development-leftover checks of production mode (issue 25): webhook endpoints that are not
 * public https, an SMTP server on loopback or a private network, payments in test mode. The
 * messages and fix-it pages are shared with the console (sdk/src/shared/domain-rules.ts); the
 * worker judges hosts with the webhook URL rule (webhooks/urls.ts).
 */
import { type LeftoverConfig, leftoverChecks, type ProductionCheck } from "@doorman/shared/domain-rules";
import { listWebhookEndpointRows } from "../db/queries/webhooks";
import type { Deps } from "./deps";
import type { FlatProjectConfig } from "./project-config/flat";
import { checkWebhookUrl, isInternalHost } from "./webhooks/urls";

const hostRules = {
  isPublicHttpsUrl: (url: string) => checkWebhookUrl(url, { development: false }).ok,
  // A bare IPv6 SMTP host is written without brackets; the URL rule reads it with them.
  isInternalHost: (host: string) => isInternalHost(host.includes(":") && !host.startsWith("[") ? `[${host}]` : host),
};

/** The leftovers of a config (webhook URLs given, or none). */
export function leftoversOf(config: FlatProjectConfig, paymentsTestMode: boolean, webhookUrls: string[] = []): ProductionCheck[] {
  const input: LeftoverConfig = {
    webhookUrls,
    smtpHost: config.email_config.type === "standard" ? config.email_config.host : null,
    paymentsTestMode,
  };
  return leftoverChecks(input, hostRules);
}

/** Every leftover of the project, its webhook endpoints included (read from D1). */
export async function projectLeftovers(deps: Deps, projectId: string, config: FlatProjectConfig, paymentsTestMode: boolean) {
  const endpoints = await listWebhookEndpointRows(deps.db, projectId);
  return leftoversOf(
    config,
    paymentsTestMode,
    endpoints.map((e) => e.url),
  );
}
