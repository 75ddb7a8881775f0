/**
 * The root Hono app: middleware order, the route table on one screen, error rendering,
 * 404 (text) and 405 (a known path with another method).
 */

import { KnownError } from "@doorman/shared/known-errors";
import { Hono } from "hono";
import { ConfigError } from "./config";
import { CachedRouter } from "./http/cached-router";
import type { AppEnv } from "./http/hono-env";
import { addApiDocs, buildOpenApiDocument } from "./http/openapi";
import { routeGroup } from "./http/route";
import { renderKnownError, renderStatusError, StatusError } from "./lib/errors";
import { authenticate } from "./middleware/auth";
import { requestContext } from "./middleware/request-context";
import { responseHeaders } from "./middleware/response-headers";
import { webhookDispatch } from "./middleware/webhook-dispatch";
import { apiIndexRoutes } from "./routes/api-index";
import { credentialScanningRoutes, teamApiKeysRoutes, userApiKeysRoutes } from "./routes/api-keys";
import { BETA_VERSION_PREFIX, migrationTestsRoutes, serveBetaVersion } from "./routes/api-versions";
import { anonymousRoutes } from "./routes/auth/anonymous";
import { cliRoutes } from "./routes/auth/cli";
import { deviceVerificationRoutes } from "./routes/auth/device-verification";
import { impersonationRoutes } from "./routes/auth/impersonation";
import { mfaRoutes } from "./routes/auth/mfa";
import { oauthRoutes } from "./routes/auth/oauth";
import { appleNativeRoutes } from "./routes/auth/oauth-apple-native";
import { oauthCrossDomainRoutes } from "./routes/auth/oauth-cross-domain";
import { oauthTokenRoutes } from "./routes/auth/oauth-token";
import { otpRoutes } from "./routes/auth/otp";
import { passkeyRoutes } from "./routes/auth/passkey";
import { passwordRoutes } from "./routes/auth/password";
import { sessionsRoutes } from "./routes/auth/sessions";
import { connectedAccountsRoutes } from "./routes/connected-accounts";
import { contactChannelsRoutes } from "./routes/contact-channels";
import { dataVaultRoutes } from "./routes/data-vault";
import { emailsDeliveryRoutes } from "./routes/emails/delivery";
import { emailsDevInboxRoutes } from "./routes/emails/dev-inbox";
import { emailsRoutes } from "./routes/emails/emails";
import { emailsOutboxRoutes } from "./routes/emails/outbox";
import { emailsUnsubscribeRoutes } from "./routes/emails/unsubscribe";
import { healthRoutes } from "./routes/health";
import { healthEmailRoutes } from "./routes/health-email";
import { hostedPagesRoutes } from "./routes/hosted-pages";
import { internalAiChatRoutes } from "./routes/internal/ai-chat";
import { internalApiKeysRoutes } from "./routes/internal/api-keys";
import { internalConfigRoutes } from "./routes/internal/config";
import { emailQueueStepRoutes } from "./routes/internal/email-queue-step";
import { internalDevInboxRoutes } from "./routes/internal/emails/dev-inbox";
import { internalEmailDraftsRoutes } from "./routes/internal/emails/drafts";
import { internalEmailsRoutes, sendSignInInvitationRoutes, sendTestEmailRoutes } from "./routes/internal/emails/emails";
import { rewriteTemplateSourceRoutes } from "./routes/internal/emails/rewrite";
import { internalEmailTemplatesRoutes } from "./routes/internal/emails/templates";
import { internalEmailThemesRoutes } from "./routes/internal/emails/themes";
import { internalEventsRoutes } from "./routes/internal/events";
import { failedEmailsDigestRoutes } from "./routes/internal/failed-emails-digest";
import { internalHostedPagesRoutes } from "./routes/internal/hosted-pages";
import { impersonationLinksRoutes } from "./routes/internal/impersonation-links";
import { internalMetricsRoutes } from "./routes/internal/metrics";
import { internalOAuthClientsRoutes } from "./routes/internal/oauth-clients";
import { internalPaymentMethodsRoutes } from "./routes/internal/payments/method-configs";
import { internalPaymentsRoutes } from "./routes/internal/payments/payments";
import { internalPaymentsStripeRoutes } from "./routes/internal/payments/stripe";
import { internalTransactionsRoutes } from "./routes/internal/payments/transactions";
import { internalProjectsRoutes } from "./routes/internal/projects";
import { signUpRulesStatsRoutes, signUpRulesTestRoutes } from "./routes/internal/sign-up-rules";
import { internalWebhooksRoutes, sendTestWebhookRoutes, svixTokenRoutes } from "./routes/internal/webhooks";
import { notificationPreferencesRoutes } from "./routes/notification-preferences";
import { oauthProviderRoutes, originDiscoveryRoutes } from "./routes/oauth-provider";
import { oauthAuthorizedAppsRoutes } from "./routes/oauth-provider/authorized-apps";
import { oauthConsentRoutes } from "./routes/oauth-provider/consent";
import { oauthRegisterRoutes } from "./routes/oauth-provider/register";
import { oauthProvidersRoutes } from "./routes/oauth-providers";
import { paymentsBillingRoutes } from "./routes/payments/billing";
import { paymentsCancelRoutes } from "./routes/payments/cancel";
import { paymentsCheckoutRoutes } from "./routes/payments/checkout";
import { paymentsRoutes } from "./routes/payments/payments";
import { stripeWebhookRoutes, stripeWidgetsRoutes } from "./routes/payments/stripe";
import {
  projectPermissionDefinitionsRoutes,
  projectPermissionsRoutes,
  teamPermissionDefinitionsRoutes,
  teamPermissionsRoutes,
} from "./routes/permissions";
import { anonymousProjectsRoutes, projectsRoutes } from "./routes/projects";
import { scimRoutes } from "./routes/scim";
import { ssoConnectionsRoutes } from "./routes/sso/connections";
import { ssoDomainsRoutes } from "./routes/sso/domains";
import { ssoEventsRoutes } from "./routes/sso/events";
import { ssoSamlAcsRoutes, ssoSamlMetadataRoutes } from "./routes/sso/saml";
import { ssoSetupLinksRoutes } from "./routes/sso/setup-links";
import { ssoSignInRoutes } from "./routes/sso/sign-in";
import { teamInvitationsRoutes } from "./routes/team-invitations";
import { teamMemberProfilesRoutes } from "./routes/team-member-profiles";
import { teamMembershipsRoutes } from "./routes/team-memberships";
import { teamsRoutes } from "./routes/teams";
import { userActivityRoutes } from "./routes/user-activity";
import { usersRoutes } from "./routes/users";
import type { Deps } from "./services/deps";
import { databaseUnavailable, isD1OutageError } from "./services/outage/deadline";

const api = routeGroup()
  .route("/", apiIndexRoutes)
  .route("/", healthRoutes)
  .route("/projects", projectsRoutes)
  .route("/projects", oauthRegisterRoutes)
  // The project's OpenID provider under its issuer: discovery, authorize, token, userinfo, introspect, revoke.
  .route("/projects", oauthProviderRoutes)
  .route("/projects-anonymous-users", anonymousProjectsRoutes)
  .route("/hosted-pages", hostedPagesRoutes)
  .route("/users", usersRoutes)
  .route("/users", userActivityRoutes)
  .route("/auth/password", passwordRoutes)
  .route("/auth/anonymous", anonymousRoutes)
  .route("/auth/otp", otpRoutes)
  .route("/auth/impersonation", impersonationRoutes)
  .route("/auth/mfa", mfaRoutes)
  .route("/auth/device-verification", deviceVerificationRoutes)
  .route("/auth/sessions", sessionsRoutes)
  .route("/auth/oauth/token", oauthTokenRoutes)
  .route("/auth/oauth/cross-domain", oauthCrossDomainRoutes)
  .route("/auth/oauth", oauthRoutes)
  .route("/auth/oauth", appleNativeRoutes)
  .route("/auth/passkey", passkeyRoutes)
  .route("/auth/cli", cliRoutes)
  // Enterprise SSO: the sign-in flow (issue 31, FLOW).
  .route("/auth/sso", ssoSignInRoutes)
  // Enterprise SSO: SAML SP metadata and ACS (issue 31, SAML); the ACS answers its refusals as HTML pages.
  .route("/auth/sso", ssoSamlMetadataRoutes)
  .route("/auth/sso", ssoSamlAcsRoutes)
  .route("/oauth-providers", oauthProvidersRoutes)
  // The OpenID provider's consent page and the user's authorized apps (issue 30).
  .route("/oauth-provider/authorization-requests", oauthConsentRoutes)
  .route("/oauth-provider/authorized-apps", oauthAuthorizedAppsRoutes)
  .route("/connected-accounts", connectedAccountsRoutes)
  .route("/teams", teamsRoutes)
  .route("/team-memberships", teamMembershipsRoutes)
  .route("/team-member-profiles", teamMemberProfilesRoutes)
  .route("/team-invitations", teamInvitationsRoutes)
  // Enterprise SSO management (issue 31): a team's connections, domains, setup links and SSO events.
  .route("/sso/connections", ssoConnectionsRoutes)
  .route("/sso/domains", ssoDomainsRoutes)
  .route("/sso/setup-links", ssoSetupLinksRoutes)
  .route("/sso/events", ssoEventsRoutes)
  .route("/team-permissions", teamPermissionsRoutes)
  .route("/project-permissions", projectPermissionsRoutes)
  .route("/team-permission-definitions", teamPermissionDefinitionsRoutes)
  .route("/project-permission-definitions", projectPermissionDefinitionsRoutes)
  .route("/user-api-keys", userApiKeysRoutes)
  .route("/team-api-keys", teamApiKeysRoutes)
  .route("/integrations/credential-scanning", credentialScanningRoutes)
  .route("/contact-channels", contactChannelsRoutes)
  .route("/data-vault", dataVaultRoutes)
  .route("/emails/notification-preference", notificationPreferencesRoutes)
  .route("/emails", emailsRoutes)
  .route("/emails", emailsOutboxRoutes)
  .route("/emails", emailsDeliveryRoutes)
  .route("/emails", emailsUnsubscribeRoutes)
  .route("/emails", emailsDevInboxRoutes)
  .route("/internal/projects", internalProjectsRoutes)
  .route("/internal/api-keys", internalApiKeysRoutes)
  .route("/internal/emails", internalEmailsRoutes)
  .route("/internal/dev-inbox", internalDevInboxRoutes)
  .route("/internal/email-themes", internalEmailThemesRoutes)
  .route("/internal/email-templates", internalEmailTemplatesRoutes)
  .route("/internal/email-drafts", internalEmailDraftsRoutes)
  .route("/internal/rewrite-template-source", rewriteTemplateSourceRoutes)
  .route("/internal/config", internalConfigRoutes)
  .route("/internal/ai-chat", internalAiChatRoutes)
  .route("/internal/events", internalEventsRoutes)
  .route("/internal/hosted-pages", internalHostedPagesRoutes)
  .route("/internal/impersonation-links", impersonationLinksRoutes)
  .route("/internal/metrics", internalMetricsRoutes)
  .route("/internal/send-test-email", sendTestEmailRoutes)
  .route("/internal/failed-emails-digest", failedEmailsDigestRoutes)
  .route("/internal/email-queue-step", emailQueueStepRoutes)
  .route("/internal/send-sign-in-invitation", sendSignInInvitationRoutes)
  .route("/internal/webhooks", internalWebhooksRoutes)
  .route("/internal/oauth-clients", internalOAuthClientsRoutes)
  .route("/internal/send-test-webhook", sendTestWebhookRoutes)
  .route("/internal/sign-up-rules-test", signUpRulesTestRoutes)
  .route("/internal/sign-up-rules-stats", signUpRulesStatsRoutes)
  .route("/webhooks/svix-token", svixTokenRoutes)
  .route("/payments", paymentsRoutes)
  .route("/internal/payments", internalPaymentsRoutes)
  .route("/payments", paymentsCheckoutRoutes)
  .route("/payments", paymentsCancelRoutes)
  .route("/payments", paymentsBillingRoutes)
  .route("/integrations/stripe", stripeWebhookRoutes)
  .route("/stripe-widgets", stripeWidgetsRoutes)
  .route("/internal/payments", internalPaymentsStripeRoutes)
  .route("/internal/payments", internalPaymentMethodsRoutes)
  .route("/internal/payments", internalTransactionsRoutes)
  // The SCIM 2.0 server of each SSO connection (issue 31): its own bearer token and error wire.
  .route("/scim", scimRoutes);
addApiDocs(api);

/** The OpenAPI document of every /api/v1 route (also served at /api/v1/openapi.json). */
export const openApiDocument = () => buildOpenApiDocument(api);
/** The /api/v1 group, for the route-table test. */
export const apiRoutes = api;

export const app = new Hono<AppEnv>({ strict: false, router: new CachedRouter() });
// The reference's beta versions (routes/api-versions.ts): a route they do not change answers as at
// /api/latest, through the whole pipeline once, on the rewritten request.
app.use(`${BETA_VERSION_PREFIX}/*`, (c, next) =>
  serveBetaVersion(c, next, (request) => {
    let ctx: Parameters<typeof app.fetch>[2];
    try {
      ctx = c.executionCtx;
    } catch {
      ctx = undefined; // in tests without an execution context
    }
    return app.fetch(request, c.env, ctx);
  }),
);
// Outermost first: request id, config and deps; the wire's response headers and CORS (and preflights); then who is calling.
app.use("*", requestContext);
app.use("*", responseHeaders);
app.use("/api/*", authenticate);
// After the response: the request's committed webhook events go to the queue.
app.use("/api/*", webhookDispatch);
// /api/latest serves the same handlers as /api/v1 (wire §0).
app.route("/api/v1", api);
app.route("/api/latest", api);
app.route("/api/latest/migration-tests", migrationTestsRoutes);
app.route(`${BETA_VERSION_PREFIX}/migration-tests`, migrationTestsRoutes);
// The reference's email monitor lives beside /api, at /health/email (the web app forwards /health/* here).
app.route("/health", healthEmailRoutes);
// RFC 8414 §3.1: the OpenID provider's metadata at the origin's path-insertion forms (the web app forwards them here).
app.route("/.well-known", originDiscoveryRoutes);

/** Every concrete (method, path) pair, to tell 405 from 404. */
const methodProbe = new Hono({ strict: false });
for (const route of app.routes) {
  if (route.method !== "ALL") methodProbe.on(route.method, route.path, (c) => c.body(null, 204));
}

app.notFound(async (c) => {
  const url = new URL(c.req.url);
  for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
    if (method === c.req.method) continue;
    const probe = await methodProbe.request(url.pathname, { method });
    if (probe.status === 204) return c.text(`Method ${c.req.method} is not allowed on ${url.pathname}.`, 405, { allow: method });
  }
  return c.text(`Not found: ${url.pathname}`, 404);
});

app.onError((err, c) => {
  if (err instanceof KnownError) return renderKnownError(err);
  // A misconfigured worker answers every request with the settings to fix; the log says it too.
  if (err instanceof ConfigError) console.error(err.message);
  if (err instanceof StatusError) return renderStatusError(err);
  // D1 away or overloaded, on a path no outage fallback covers: the known 503, never a raw 500 (services/outage/).
  if (isD1OutageError(err)) return renderKnownError(databaseUnavailable());
  const requestId = c.get("requestId") ?? "unknown";
  console.error(`[${requestId}] unhandled error`, err);
  // Only a development worker shows the stack; a misconfigured one (no deps) never does.
  const dev = (c.get("deps") as Deps | undefined)?.config.environment === "development";
  const detail = dev ? `\n${err instanceof Error ? (err.stack ?? err.message) : String(err)}` : "";
  return c.text(`An internal error occurred (request id ${requestId}).${detail}`, 500);
});
