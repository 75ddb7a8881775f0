/**
 * StackAdminApp: project administration with the admin key, or as a project owner through an
 * internal-project session (x-stack-admin-access-token, refreshed and retried once when stale).
 */
import { HttpError, type RequestOptions } from "../interface/http";
import type { Session } from "../session/session";
import { KnownError } from "../shared/known-errors";
import type { AiChatContextType } from "../shared/wire-ai-chat";
import type { EventListJson } from "../shared/wire-events";
import type { ImpersonationLinkJson } from "../shared/wire-impersonation";
import type { MetricsJson } from "../shared/wire-metrics";
import * as aiChat from "./admin-ai-chat";
import * as outbox from "./admin-email-outbox";
import * as emails from "./admin-emails";
import * as oauthClients from "./admin-oauth-clients";
import * as adminPayments from "./admin-payments";
import { type AdminProject, adminProjectFromJson } from "./admin-project";
import * as signUpRules from "./admin-sign-up-rules";
import * as webhooks from "./admin-webhooks";
import type { AppCore, ClientAppOptions } from "./app-core";
import * as devInbox from "./dev-inbox";
import * as hostedPages from "./hosted-pages";
import type { CustomerType, PaymentsCustomerView } from "./payments-shapes";
import * as permissions from "./permissions";
import { ServerAppBase, type ServerUser } from "./server-app";
import * as ssoManagement from "./sso-management";
import type { KeySetJson, LastFour, ListJson, ProjectAdminJson, SentEmailJson } from "./wire-types";

export type AdminAppOptions = Omit<ClientAppOptions, "tokenStore"> & {
  tokenStore?: ClientAppOptions["tokenStore"];
  superSecretAdminKey?: string;
  secretServerKey?: string;
  /** The session of an internal-project user whose team owns this project. */
  projectOwnerSession?: Session;
};

export type InternalApiKey = {
  id: string;
  description: string;
  expiresAt: Date;
  createdAt: Date;
  manuallyRevokedAt: Date | null;
  publishableClientKey: { lastFour: string } | null;
  secretServerKey: { lastFour: string } | null;
  superSecretAdminKey: { lastFour: string } | null;
  isValid(): boolean;
  whyInvalid(): "expired" | "manually-revoked" | null;
  revoke(): Promise<void>;
};

/** The create response: the only time the full key values are shown. */
export type InternalApiKeyFirstView = Omit<InternalApiKey, "publishableClientKey" | "secretServerKey" | "superSecretAdminKey"> & {
  publishableClientKey?: string;
  secretServerKey?: string;
  superSecretAdminKey?: string;
};

export type ProjectStats = {
  userCount: number;
  anonymousUserCount: number;
  teamCount: number;
  signUpsToday: number;
  activeSessionCount: number;
  /** The assistant's use in the last 30 UTC days (today included). */
  aiUsage: { requests: number; promptTokens: number; completionTokens: number };
  /** Whether the assistant has a model: the project's choice in Settings, or the deployment's default. */
  aiConfigured: boolean;
};

type ProjectStatsJson = {
  user_count: number;
  anonymous_user_count: number;
  team_count: number;
  sign_ups_today: number;
  active_session_count: number;
  ai_usage: { requests: number; prompt_tokens: number; completion_tokens: number };
  ai_configured: boolean;
};

/** One UTC day of a metrics series: `date` is YYYY-MM-DD. */
export type MetricsDataPoint = { date: string; activity: number };

/** The project's metrics (GET /internal/metrics): the console overview's numbers. */
export type ProjectMetrics = {
  totalUsers: number;
  /** Sign-ups per UTC day: today and the 30 days before, oldest first. */
  dailyUsers: MetricsDataPoint[];
  /** Distinct active users per UTC day, the same days. */
  dailyActiveUsers: MetricsDataPoint[];
  /** Country code → users whose latest located activity was there. */
  usersByCountry: Record<string, number>;
  recentlyRegistered: ServerUser[];
  recentlyActive: ServerUser[];
  /** Sign-in methods set up on accounts (password, otp, passkey, each OAuth provider). */
  loginMethods: { method: string; count: number }[];
  /** Successful sign-ins of the same days by method. */
  signInsByMethod: { method: string; count: number }[];
};

/** One entry of the event log (a state change: who did it, to whom, from where). */
export type ProjectEvent = {
  id: string;
  type: string;
  createdAt: Date;
  actor: { type: "user" | "server" | "admin" | "system"; id: string | null };
  userId: string | null;
  teamId: string | null;
  ip: string | null;
  userAgent: string | null;
  countryCode: string | null;
  data: Record<string, unknown> | null;
};

export type SentEmail = {
  id: string;
  subject: string;
  to: string[];
  status: "queued" | "sent" | "failed";
  error: string | null;
  sentAt: Date;
};

const sentEmailFromJson = (e: SentEmailJson): SentEmail => ({
  id: e.id,
  subject: e.subject,
  to: e.to,
  status: e.status,
  error: e.error,
  sentAt: new Date(e.sent_at_millis),
});

const lastFour = (v: string | LastFour | undefined) => (v && typeof v === "object" ? { lastFour: v.last_four } : null);
const full = (v: string | LastFour | undefined) => (typeof v === "string" ? v : undefined);

/**
 * The admin app of a project.
 *
 * @example
 * const [project] = await owner.listOwnedProjects(); // owner: a signed-in internal-project user
 * const keys = await project.app.createInternalApiKey({ description: "prod", expiresAt, hasPublishableClientKey: true, hasSecretServerKey: true, hasSuperSecretAdminKey: false });
 */
export class StackAdminApp extends ServerAppBase<StackAdminApp> {
  private readonly ownerSession: Session | undefined;

  constructor(options: AdminAppOptions) {
    const owner = options.projectOwnerSession;
    super(
      { ...options, tokenStore: options.tokenStore ?? "memory", secretServerKey: options.secretServerKey ?? "" },
      {
        type: "admin",
        publishableClientKey: options.publishableClientKey,
        superSecretAdminKey: options.superSecretAdminKey,
        getAdminAccessToken: owner ? () => owner.getAccessToken() : undefined,
      },
      ownerAdminApp,
    );
    if (!owner && !options.superSecretAdminKey) throw new Error("StackAdminApp needs superSecretAdminKey or projectOwnerSession");
    this.ownerSession = owner;
  }

  override async _serverRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
    try {
      return await this._http.request<T>(path, options);
    } catch (error) {
      // A stale owner token: refresh the owner's session once and retry.
      if (
        this.ownerSession &&
        error instanceof KnownError &&
        (error.is("INVALID_ADMIN_ACCESS_TOKEN") || error.code === "API_KEY_NOT_FOUND")
      ) {
        await this.ownerSession.refresh();
        return this._http.request<T>(path, options);
      }
      throw error;
    }
  }

  /** @internal */
  _adminRequest<T>(path: string, options: { method?: string; body?: unknown } = {}): Promise<T> {
    return this._serverRequest<T>(path, options);
  }

  /** The project with its full configuration. */
  override async getProject(): Promise<AdminProject> {
    return adminProjectFromJson(this, await this._serverRequest<ProjectAdminJson>("/internal/projects/current"));
  }

  private keyFromJson(json: KeySetJson): InternalApiKey {
    const expiresAt = new Date(json.expires_at_millis);
    const manuallyRevokedAt = json.manually_revoked_at_millis ? new Date(json.manually_revoked_at_millis) : null;
    const whyInvalid = () => (expiresAt.getTime() < Date.now() ? "expired" : manuallyRevokedAt ? "manually-revoked" : null);
    return {
      id: json.id,
      description: json.description,
      expiresAt,
      createdAt: new Date(json.created_at_millis),
      manuallyRevokedAt,
      publishableClientKey: lastFour(json.publishable_client_key),
      secretServerKey: lastFour(json.secret_server_key),
      superSecretAdminKey: lastFour(json.super_secret_admin_key),
      whyInvalid,
      isValid: () => whyInvalid() === null,
      revoke: async () => {
        await this._serverRequest(`/internal/api-keys/${encodeURIComponent(json.id)}`, { method: "PATCH", body: { revoked: true } });
      },
    };
  }

  /** Creates a key set; the full key values appear only in this response. */
  async createInternalApiKey(options: {
    description: string;
    expiresAt: Date;
    hasPublishableClientKey: boolean;
    hasSecretServerKey: boolean;
    hasSuperSecretAdminKey: boolean;
  }): Promise<InternalApiKeyFirstView> {
    const json = await this._serverRequest<KeySetJson>("/internal/api-keys", {
      body: {
        description: options.description,
        expires_at_millis: options.expiresAt.getTime(),
        has_publishable_client_key: options.hasPublishableClientKey,
        has_secret_server_key: options.hasSecretServerKey,
        has_super_secret_admin_key: options.hasSuperSecretAdminKey,
      },
    });
    const key = this.keyFromJson(json);
    return {
      ...key,
      publishableClientKey: full(json.publishable_client_key),
      secretServerKey: full(json.secret_server_key),
      superSecretAdminKey: full(json.super_secret_admin_key),
    };
  }

  /** The project's email log, newest first: every email sent, failed (with its error) or queued. */
  async listSentEmails(options: { limit?: number } = {}): Promise<SentEmail[]> {
    const list = await this._serverRequest<ListJson<SentEmailJson>>(`/internal/emails${options.limit ? `?limit=${options.limit}` : ""}`);
    return list.items.map(sentEmailFromJson);
  }

  /**
   * Signs every user of the project out (DELETE /internal/projects/current/sessions): every session
   * ends, and its access tokens are refused from the next request on. Answers how many ended.
   * The owners' console sessions (internal project) are not touched; the internal project refuses it.
   *
   * @example
   * const { endedSessionCount } = await admin.revokeAllProjectSessions();
   */
  async revokeAllProjectSessions(): Promise<{ endedSessionCount: number }> {
    const res = await this._serverRequest<{ ended_session_count: number }>("/internal/projects/current/sessions", { method: "DELETE" });
    return { endedSessionCount: res.ended_session_count };
  }

  /** Counts for an overview: users (and anonymous ones), teams, sign-ups since 00:00 UTC, active sessions. */
  async getProjectStats(): Promise<ProjectStats> {
    const s = await this._serverRequest<ProjectStatsJson>("/internal/projects/current/stats");
    return {
      userCount: s.user_count,
      anonymousUserCount: s.anonymous_user_count,
      teamCount: s.team_count,
      signUpsToday: s.sign_ups_today,
      activeSessionCount: s.active_session_count,
      aiUsage: { requests: s.ai_usage.requests, promptTokens: s.ai_usage.prompt_tokens, completionTokens: s.ai_usage.completion_tokens },
      aiConfigured: s.ai_configured,
    };
  }

  /**
   * The project's metrics: total users, daily sign-ups and active users (31 UTC days ending today),
   * users by country, the latest and the most recently active users, and sign-in methods.
   *
   * @example
   * const { totalUsers, dailyActiveUsers } = await admin.getMetrics();
   */
  async getMetrics(options: { includeAnonymous?: boolean } = {}): Promise<ProjectMetrics> {
    const m = await this._serverRequest<MetricsJson>(`/internal/metrics${options.includeAnonymous ? "?include_anonymous=true" : ""}`);
    return {
      totalUsers: m.total_users,
      dailyUsers: m.daily_users,
      dailyActiveUsers: m.daily_active_users,
      usersByCountry: m.users_by_country,
      recentlyRegistered: m.recently_registered.map((u) => this._serverUser(u)),
      recentlyActive: m.recently_active.map((u) => this._serverUser(u)),
      loginMethods: m.login_methods,
      signInsByMethod: m.sign_ins_by_method,
    };
  }

  /**
   * The project's event log, newest first (filters and a cursor; `nextCursor` is null on the last page).
   *
   * @example
   * const { items, nextCursor } = await admin.listEvents({ userId, limit: 20 });
   */
  async listEvents(
    options: {
      type?: string;
      /** Every type of one area (EVENT_AREAS of @doorman/shared/event-types); `type` wins when both are given. */
      area?: string;
      userId?: string;
      teamId?: string;
      since?: Date;
      until?: Date;
      cursor?: string;
      limit?: number;
    } = {},
  ): Promise<{ items: ProjectEvent[]; nextCursor: string | null }> {
    const q = new URLSearchParams();
    if (options.type) q.set("type", options.type);
    if (options.area) q.set("area", options.area);
    if (options.userId) q.set("user_id", options.userId);
    if (options.teamId) q.set("team_id", options.teamId);
    if (options.since) q.set("since_millis", String(options.since.getTime()));
    if (options.until) q.set("until_millis", String(options.until.getTime()));
    if (options.cursor) q.set("cursor", options.cursor);
    if (options.limit) q.set("limit", String(options.limit));
    const qs = q.toString();
    const page = await this._serverRequest<EventListJson>(`/internal/events${qs ? `?${qs}` : ""}`);
    return {
      items: page.items.map((e) => ({
        id: e.id,
        type: e.type,
        createdAt: new Date(e.created_at_millis),
        actor: e.actor,
        userId: e.user_id,
        teamId: e.team_id,
        ip: e.ip,
        userAgent: e.user_agent,
        countryCode: e.country_code,
        data: e.data,
      })),
      nextCursor: page.pagination.next_cursor,
    };
  }

  /**
   * Development only: the project's dev inbox, the real messages it sent to the dev outbox with
   * their codes and links, newest first; null when the worker is not in development (a Doorman extension).
   *
   * @example
   * const inbox = await admin.listDevInbox({ to: "ada@example.com" });
   * const link = inbox?.[0]?.links[0];
   */
  listDevInbox(options?: { to?: string }): Promise<devInbox.DevInboxEntry[] | null> {
    return devInbox.listDevInbox(this._serverRequest.bind(this), options);
  }
  /**
   * Development only: one dev inbox message with its bodies, or null.
   *
   * @example
   * const message = await admin.getDevInboxMessage(id);
   */
  getDevInboxMessage(id: string): Promise<devInbox.DevInboxMessage | null> {
    return devInbox.getDevInboxMessage(this._serverRequest.bind(this), id);
  }

  /** One logged email with its (redacted) bodies, or null. */
  async getSentEmail(id: string): Promise<(SentEmail & { html: string; text: string }) | null> {
    try {
      const e = await this._serverRequest<SentEmailJson & { html: string; text: string }>(`/internal/emails/${encodeURIComponent(id)}`);
      return { ...sentEmailFromJson(e), html: e.html, text: e.text };
    } catch (error) {
      if (error instanceof HttpError && error.status === 404) return null;
      throw error;
    }
  }

  /** Sends a test email with these SMTP settings (nothing is stored) and reports whether the server took it. */
  async sendTestEmail(options: {
    recipientEmail: string;
    emailConfig: { host: string; port: number; username: string; password: string; senderName: string; senderEmail: string };
  }): Promise<{ success: true } | { success: false; errorMessage: string | null }> {
    const c = options.emailConfig;
    const res = await this._serverRequest<{ success: boolean; error_message?: string | null }>("/internal/send-test-email", {
      body: {
        recipient_email: options.recipientEmail,
        email_config: {
          host: c.host,
          port: c.port,
          username: c.username,
          password: c.password,
          sender_name: c.senderName,
          sender_email: c.senderEmail,
        },
      },
    });
    return res.success ? { success: true } : { success: false, errorMessage: res.error_message ?? null };
  }

  /**
   * The project's hosted pages: their URL on Doorman's origin and the custom domain mapped to them.
   *
   * @example
   * const { hostedUrl, customDomain } = await admin.getHostedPages();
   */
  getHostedPages(): Promise<hostedPages.HostedPagesSettings> {
    return hostedPages.getHostedPagesSettings((path, options) => this._serverRequest(path, options));
  }

  /** Maps a custom domain (e.g. "auth.example.com") to the hosted pages; CUSTOM_DOMAIN_INVALID / CUSTOM_DOMAIN_TAKEN otherwise. */
  setCustomDomain(hostname: string): Promise<hostedPages.HostedPagesSettings> {
    return hostedPages.setCustomDomain((path, options) => this._serverRequest(path, options), hostname);
  }

  /** Removes the project's custom domain. */
  removeCustomDomain(): Promise<hostedPages.HostedPagesSettings> {
    return hostedPages.removeCustomDomain((path, options) => this._serverRequest(path, options));
  }

  /** Emails an invitation to sign in, linking to `callbackUrl` (which must be on a trusted domain). */
  async sendSignInInvitation(options: { email: string; callbackUrl: string }): Promise<void> {
    await this._serverRequest("/internal/send-sign-in-invitation", { body: { email: options.email, callback_url: options.callbackUrl } });
  }

  // emails: themes, templates, drafts and the preview (issue 14); sending is the server app's sendEmail
  /**
   * The project's email themes (the built-in Default Light and Default Dark, and its own).
   *
   * @example
   * const themes = await admin.listEmailThemes();
   */
  listEmailThemes() {
    return emails.listEmailThemes(this._serverRequest.bind(this));
  }
  getEmailTheme(id: string): Promise<emails.EmailTheme> {
    return emails.getEmailTheme(this._serverRequest.bind(this), id);
  }
  /**
   * Creates a theme (a copy of Default Light).
   *
   * @example
   * const { id } = await admin.createEmailTheme("Brand");
   */
  createEmailTheme(displayName: string): Promise<{ id: string }> {
    return emails.createEmailTheme(this._serverRequest.bind(this), displayName);
  }
  /** Saves a theme's TSX (it must render: EMAIL_RENDERING_ERROR otherwise), as the reference's updateEmailTheme. */
  updateEmailTheme(id: string, tsxSource: string): Promise<void> {
    return emails.updateEmailTheme(this._serverRequest.bind(this), id, { tsxSource });
  }
  renameEmailTheme(id: string, displayName: string): Promise<void> {
    return emails.updateEmailTheme(this._serverRequest.bind(this), id, { displayName });
  }
  /** Deletes a theme of the project's own (not a built-in one, not the active one). */
  deleteEmailTheme(id: string): Promise<void> {
    return emails.deleteEmailTheme(this._serverRequest.bind(this), id);
  }
  /** The project's email templates: the built-in ones (verification, reset, …) as edited, and its own. */
  listEmailTemplates(): Promise<emails.EmailTemplate[]> {
    return emails.listEmailTemplates(this._serverRequest.bind(this));
  }
  getEmailTemplate(id: string): Promise<emails.EmailTemplate> {
    return emails.getEmailTemplate(this._serverRequest.bind(this), id);
  }
  createEmailTemplate(displayName: string): Promise<{ id: string }> {
    return emails.createEmailTemplate(this._serverRequest.bind(this), displayName);
  }
  /**
   * Saves a template's TSX (with a Subject and a NotificationCategory) and theme; answers the preview.
   *
   * @example
   * const { renderedHtml } = await admin.updateEmailTemplate(id, source, false);
   */
  updateEmailTemplate(id: string, tsxSource: string, themeId?: emails.EmailThemeChoice): Promise<{ renderedHtml: string }> {
    return emails.updateEmailTemplate(this._serverRequest.bind(this), id, tsxSource, themeId);
  }
  /** Deletes a template of the project's own, or resets a built-in one to Doorman's version. */
  deleteEmailTemplate(id: string): Promise<void> {
    return emails.deleteEmailTemplate(this._serverRequest.bind(this), id);
  }
  listEmailDrafts(): Promise<emails.EmailDraft[]> {
    return emails.listEmailDrafts(this._serverRequest.bind(this));
  }
  getEmailDraft(id: string): Promise<emails.EmailDraft> {
    return emails.getEmailDraft(this._serverRequest.bind(this), id);
  }
  /**
   * Creates a draft; send it with `sendEmail({ draftId, userIds })`.
   *
   * @example
   * const { id } = await admin.createEmailDraft({ displayName: "Spring news" });
   */
  createEmailDraft(options: emails.EmailDraftFields & { displayName: string }): Promise<{ id: string }> {
    return emails.createEmailDraft(this._serverRequest.bind(this), options);
  }
  updateEmailDraft(id: string, data: emails.EmailDraftFields): Promise<void> {
    return emails.updateEmailDraft(this._serverRequest.bind(this), id, data);
  }
  deleteEmailDraft(id: string): Promise<void> {
    return emails.deleteEmailDraft(this._serverRequest.bind(this), id);
  }
  /**
   * Renders a template (by id or source) in a theme (by id, source, or `false` for none): html, text, subject.
   *
   * @example
   * const { html, subject } = await admin.renderEmail({ templateTsxSource: source, themeId: false });
   */
  renderEmail(options: emails.EmailPreviewOptions): Promise<emails.RenderedEmailPreview> {
    return emails.renderEmail(this._serverRequest.bind(this), options);
  }
  /** The preview's HTML, as the reference's getEmailPreview. */
  async getEmailPreview(options: emails.EmailPreviewOptions): Promise<string> {
    return (await this.renderEmail(options)).html;
  }

  // the email outbox (issue 24): every email is an outbox row first, sent (and retried) by a queue
  /**
   * Outbox emails, newest first; `nextCursor` continues the list (null at the end).
   *
   * @example
   * const { items, nextCursor } = await admin.listOutboxEmails({ simpleStatus: "error", limit: 20 });
   */
  listOutboxEmails(options?: outbox.EmailOutboxListOptions): Promise<outbox.EmailOutboxListResult> {
    return outbox.listOutboxEmails(this._serverRequest.bind(this), options);
  }
  /**
   * One outbox email, with its attempts' errors.
   *
   * @example
   * const email = await admin.getOutboxEmail(id);
   * if (email.status === "server-error") console.log(email.serverError, email.sendAttemptErrors);
   */
  getOutboxEmail(id: string): Promise<outbox.AdminEmailOutbox> {
    return outbox.getOutboxEmail(this._serverRequest.bind(this), id);
  }
  /**
   * Changes an email not yet sent (paused, preparing, rendering, render-error, scheduled, queued or
   * server-error; otherwise EMAIL_NOT_EDITABLE): pause, reschedule, or what is rendered.
   *
   * @example
   * await admin.updateOutboxEmail(id, { scheduledAt: new Date(Date.now() + 3_600_000) });
   */
  updateOutboxEmail(id: string, options: outbox.EmailOutboxUpdateOptions): Promise<outbox.AdminEmailOutbox> {
    return outbox.updateOutboxEmail(this._serverRequest.bind(this), id, options);
  }
  /**
   * Holds an email back until `unpauseOutboxEmail`.
   *
   * @example
   * await admin.pauseOutboxEmail(id);
   */
  pauseOutboxEmail(id: string): Promise<outbox.AdminEmailOutbox> {
    return this.updateOutboxEmail(id, { isPaused: true });
  }
  /**
   * Lets a paused email go on.
   *
   * @example
   * await admin.unpauseOutboxEmail(id);
   */
  unpauseOutboxEmail(id: string): Promise<outbox.AdminEmailOutbox> {
    return this.updateOutboxEmail(id, { isPaused: false });
  }
  /**
   * Cancels an email not yet sent: it becomes `skipped` (MANUALLY_CANCELLED).
   *
   * @example
   * await admin.cancelOutboxEmail(id);
   */
  cancelOutboxEmail(id: string): Promise<outbox.AdminEmailOutbox> {
    return this.updateOutboxEmail(id, { cancel: true });
  }
  /**
   * Doorman: sends a failed email (render-error or server-error) again now, with its retries reset.
   *
   * @example
   * const email = await admin.retryOutboxEmail(id); // email.status: "queued" (or "scheduled")
   */
  retryOutboxEmail(id: string): Promise<outbox.AdminEmailOutbox> {
    return this.updateOutboxEmail(id, { scheduledAt: new Date() });
  }

  // sign-up rules: the rules are config (project.updateConfig); these try them and count them
  /**
   * Runs the project's sign-up rules on a described sign-up, as a real one would (nothing is
   * created or counted): the context, each rule's status and which rule decided.
   *
   * @example
   * const { shouldAllow, decisionRuleId } = await admin.testSignUpRules({ email: "a@mailinator.com", authMethod: "password", countryCode: "DE" });
   */
  testSignUpRules(input: signUpRules.SignUpRulesTestInput): Promise<signUpRules.SignUpRulesTestOutcome> {
    return signUpRules.testSignUpRules(this._serverRequest.bind(this), input);
  }
  /**
   * How often each sign-up rule matched: per UTC hour over the last 48 hours, and over all time.
   *
   * @example
   * const { rules, triggersByAction } = await admin.getSignUpRulesStats();
   */
  getSignUpRulesStats(): Promise<signUpRules.SignUpRulesStatsView> {
    return signUpRules.getSignUpRulesStats(this._serverRequest.bind(this));
  }

  // webhooks: Doorman's built-in endpoints API (the reference's SDK hands a Svix token to Svix's portal)
  /**
   * The project's webhook endpoints, oldest first.
   *
   * @example
   * const endpoints = await admin.listWebhookEndpoints();
   */
  listWebhookEndpoints(): Promise<webhooks.WebhookEndpoint[]> {
    return webhooks.listWebhookEndpoints(this._serverRequest.bind(this));
  }
  /**
   * Creates an endpoint; `secret` (whsec_…) is answered this once: keep it to verify signatures.
   *
   * @example
   * const { endpoint, secret } = await admin.createWebhookEndpoint({ url: "https://api.example.com/hooks", eventTypes: ["user.created"] });
   */
  createWebhookEndpoint(input: { url: string; description?: string; eventTypes?: string[] }) {
    return webhooks.createWebhookEndpoint(this._serverRequest.bind(this), input);
  }
  /** Updates an endpoint (URL, description, event types), or disables / enables it. */
  updateWebhookEndpoint(id: string, input: webhooks.WebhookEndpointInput): Promise<webhooks.WebhookEndpoint> {
    return webhooks.updateWebhookEndpoint(this._serverRequest.bind(this), id, input);
  }
  /** Deletes an endpoint and its delivery log. */
  deleteWebhookEndpoint(id: string): Promise<void> {
    return webhooks.deleteWebhookEndpoint(this._serverRequest.bind(this), id);
  }

  /**
   * A one-time link that opens the project's app signed in as the user (an impersonation session):
   * the app's handler page `impersonate` on the first trusted domain redeems it. `url` is null when
   * the project has no trusted domain. The code works once, for five minutes.
   *
   * @example
   * const { url } = await admin.createImpersonationLink(userId);
   * if (url) window.open(url, "_blank", "noopener");
   */
  async createImpersonationLink(userId: string): Promise<{ code: string; expiresAt: Date; url: string | null }> {
    const link = await this._serverRequest<ImpersonationLinkJson>("/internal/impersonation-links", { body: { user_id: userId } });
    return { code: link.code, expiresAt: new Date(link.expires_at_millis), url: link.url };
  }

  /**
   * An endpoint's signing secret (whsec_…), for an owner; each reveal is logged as a webhook.secret_revealed event.
   *
   * @example
   * const secret = await admin.revealWebhookSecret(endpoint.id);
   */
  revealWebhookSecret(id: string): Promise<string> {
    return webhooks.revealWebhookSecret(this._serverRequest.bind(this), id);
  }

  /**
   * Rotates an endpoint's signing secret: answers the new one (this once); the old one signs nothing more.
   *
   * @example
   * const secret = await admin.rotateWebhookSecret(endpoint.id);
   */
  rotateWebhookSecret(id: string): Promise<string> {
    return webhooks.rotateWebhookSecret(this._serverRequest.bind(this), id);
  }
  /**
   * The delivery log, newest first, each delivery with its payload and every attempt.
   *
   * @example
   * const { items, nextCursor } = await admin.listWebhookDeliveries({ endpointId, limit: 20 });
   */
  listWebhookDeliveries(options: { endpointId?: string; cursor?: string; limit?: number } = {}) {
    return webhooks.listWebhookDeliveries(this._serverRequest.bind(this), options);
  }
  /** Sends a delivery again, now, with a fresh retry schedule. */
  resendWebhookDelivery(id: string): Promise<webhooks.WebhookDelivery> {
    return webhooks.resendWebhookDelivery(this._serverRequest.bind(this), id);
  }
  /**
   * Sends a `stack.test` event to one endpoint and reports whether its first attempt succeeded.
   *
   * @example
   * const result = await admin.sendTestWebhook({ endpointId });
   */
  sendTestWebhook(options: { endpointId: string }) {
    return webhooks.sendTestWebhook(this._serverRequest.bind(this), options.endpointId);
  }
  /** A short-lived token for the webhooks API (`Authorization: Bearer`), as the reference's getSvixToken. */
  getSvixToken(): Promise<string> {
    return webhooks.getSvixToken(this._serverRequest.bind(this));
  }

  // OAuth clients: the third-party apps and agents of the project's OpenID provider (issue 30)
  /**
   * The project's OAuth clients (registered here, by dynamic registration, or cached metadata documents), oldest first.
   *
   * @example
   * const clients = await admin.listOAuthClients();
   */
  listOAuthClients(): Promise<oauthClients.OAuthClient[]> {
    return oauthClients.listOAuthClients(this._serverRequest.bind(this));
  }
  /**
   * Registers an OAuth client; a confidential client's secret is in this answer only (Doorman keeps its hash).
   *
   * @example
   * const { client, clientSecret } = await admin.createOAuthClient({ name: "Acme", clientType: "confidential", redirectUris: ["https://acme.example/callback"] });
   */
  createOAuthClient(options: oauthClients.OAuthClientCreateOptions): Promise<oauthClients.OAuthClientWithSecret> {
    return oauthClients.createOAuthClient(this._serverRequest.bind(this), options);
  }
  /** One OAuth client by its id (a metadata document's client by its URL). */
  getOAuthClient(clientId: string): Promise<oauthClients.OAuthClient> {
    return oauthClients.getOAuthClient(this._serverRequest.bind(this), clientId);
  }
  /**
   * Changes an OAuth client (null clears an optional field; the client type is fixed).
   *
   * @example
   * await admin.updateOAuthClient(client.clientId, { redirectUris: ["https://acme.example/cb2"], logoUri: null });
   */
  updateOAuthClient(clientId: string, options: oauthClients.OAuthClientUpdateOptions): Promise<oauthClients.OAuthClient> {
    return oauthClients.updateOAuthClient(this._serverRequest.bind(this), clientId, options);
  }
  /** Deletes an OAuth client with its users' consents and its grants: its tokens stop working. */
  deleteOAuthClient(clientId: string): Promise<void> {
    return oauthClients.deleteOAuthClient(this._serverRequest.bind(this), clientId);
  }
  /**
   * A new secret for a client that has one: answered once, and the old secret stops working at once.
   *
   * @example
   * const { clientSecret } = await admin.rotateOAuthClientSecret(client.clientId);
   */
  rotateOAuthClientSecret(clientId: string): Promise<oauthClients.OAuthClientWithSecret> {
    return oauthClients.rotateOAuthClientSecret(this._serverRequest.bind(this), clientId);
  }

  // Enterprise SSO (issue 31): any team's connections, domains, SCIM token, setup links and SSO events
  /**
   * One team's enterprise SSO, as the project's owner: connections (SAML, OIDC), email domains, the
   * SCIM token, setup links for the team's IT admin and the team's SSO events.
   *
   * @example
   * const sso = admin.getTeamSso(teamId);
   * const connection = await sso.createConnection({ protocol: "saml", displayName: "Okta", saml: { idpMetadataXml } });
   * const { token } = await sso.rotateScimToken(connection.id); // shown this once
   */
  getTeamSso(teamId: string): ssoManagement.TeamSsoManagement {
    return ssoManagement.teamSsoManagement(this._serverRequest.bind(this), teamId);
  }

  /** Key sets of the project (last four characters only). */
  async listInternalApiKeys(): Promise<InternalApiKey[]> {
    const list = await this._serverRequest<ListJson<KeySetJson>>("/internal/api-keys");
    return list.items.map((k) => this.keyFromJson(k));
  }

  // permissions: definitions of the team scope (with the built-in `$…` system ones) and the project scope
  /**
   * Team permission definitions, sorted by id; the `$…` system permissions are included (read-only).
   *
   * @example
   * const defs = await admin.listTeamPermissionDefinitions();
   */
  listTeamPermissionDefinitions(): Promise<permissions.PermissionDefinition[]> {
    return permissions.definitionMethods(this._serverRequest.bind(this), "team").list();
  }
  /**
   * Creates a team permission; contained ids must be team or system permissions.
   *
   * @example
   * await admin.createTeamPermissionDefinition({ id: "editor", description: "Edit docs", containedPermissionIds: ["$read_members"] });
   */
  createTeamPermissionDefinition(options: permissions.PermissionDefinitionCreateOptions): Promise<permissions.PermissionDefinition> {
    return permissions.definitionMethods(this._serverRequest.bind(this), "team").create(options);
  }
  /** Updates (or renames, with `id`) a team permission; grants and containment follow a rename. */
  updateTeamPermissionDefinition(
    permissionId: string,
    options: permissions.PermissionDefinitionUpdateOptions,
  ): Promise<permissions.PermissionDefinition> {
    return permissions.definitionMethods(this._serverRequest.bind(this), "team").update(permissionId, options);
  }
  /** Deletes a team permission, its grants, and its id from other definitions. */
  deleteTeamPermissionDefinition(permissionId: string): Promise<void> {
    return permissions.definitionMethods(this._serverRequest.bind(this), "team").delete(permissionId);
  }
  /**
   * Project permission definitions, sorted by id.
   *
   * @example
   * await admin.createProjectPermissionDefinition({ id: "read:docs" });
   */
  listProjectPermissionDefinitions(): Promise<permissions.PermissionDefinition[]> {
    return permissions.definitionMethods(this._serverRequest.bind(this), "project").list();
  }
  createProjectPermissionDefinition(options: permissions.PermissionDefinitionCreateOptions): Promise<permissions.PermissionDefinition> {
    return permissions.definitionMethods(this._serverRequest.bind(this), "project").create(options);
  }
  updateProjectPermissionDefinition(
    permissionId: string,
    options: permissions.PermissionDefinitionUpdateOptions,
  ): Promise<permissions.PermissionDefinition> {
    return permissions.definitionMethods(this._serverRequest.bind(this), "project").update(permissionId, options);
  }
  deleteProjectPermissionDefinition(permissionId: string): Promise<void> {
    return permissions.definitionMethods(this._serverRequest.bind(this), "project").delete(permissionId);
  }

  // the console's assistant (/internal/ai-chat/{threadId}; threads are the caller's own)

  /**
   * Asks the project's assistant in a stored thread, streaming the reply.
   * @example
   * const { text } = await admin.askAssistant(threadId, "How do I enable passkeys?", { onDelta: (_, soFar) => render(soFar) });
   */
  askAssistant(threadId: string, text: string, options?: aiChat.AskAssistantOptions): Promise<aiChat.AssistantReply> {
    return aiChat.askAssistant(this._serverRequest.bind(this), threadId, text, options);
  }

  /** The thread's stored messages, oldest first. */
  listChatMessages(threadId: string): Promise<aiChat.AiChatStoredMessage[]> {
    return aiChat.listChatMessages(this._serverRequest.bind(this), threadId);
  }

  /** Appends one message to the thread (the reference's save). */
  saveChatMessage(threadId: string, message: aiChat.AiChatStoredMessage): Promise<void> {
    return aiChat.saveChatMessage(this._serverRequest.bind(this), threadId, message);
  }

  /** Replaces the thread's messages (after an edit; [] clears it). */
  replaceChatMessages(threadId: string, messages: aiChat.AiChatStoredMessage[]): Promise<void> {
    return aiChat.replaceChatMessages(this._serverRequest.bind(this), threadId, messages);
  }

  /** The reference's call: the conversation in, the reply's content blocks out; nothing is stored. */
  sendChatMessage(
    threadId: string,
    contextType: AiChatContextType,
    messages: aiChat.AiChatStoredMessage[],
  ): Promise<{ content: { type: "text"; text: string }[] }> {
    return aiChat.sendChatMessage(this._serverRequest.bind(this), threadId, contextType, messages);
  }

  // payments: customers, test-mode checkout, Stripe onboarding (items and offers are config: project.updateConfig)
  /**
   * One customer as the console shows it: the items of its type with quantities, its purchases,
   * and its recent quantity changes.
   *
   * @example
   * const view = await admin.getPaymentsCustomer({ customerType: "user", customerId: user.id });
   */
  getPaymentsCustomer(options: { customerType: CustomerType; customerId: string }): Promise<PaymentsCustomerView> {
    return adminPayments.getPaymentsCustomer(this._serverRequest.bind(this), options);
  }
  /**
   * Starts (or resumes) Stripe Connect onboarding for the project; send the owner to `url`.
   *
   * @example
   * window.location.href = (await admin.setupPayments()).url;
   */
  setupPayments(): Promise<{ url: string }> {
    return adminPayments.setupPayments(this._serverRequest.bind(this));
  }
  /** The connected Stripe account's state, or null when the project has none yet. */
  getStripeAccountInfo(): Promise<adminPayments.StripeAccountInfo | null> {
    return adminPayments.getStripeAccountInfo(this._serverRequest.bind(this));
  }
  /** A client secret for Stripe's embedded components (account management, payouts). */
  createStripeWidgetSession(): Promise<{ clientSecret: string }> {
    return adminPayments.createStripeWidgetSession(this._serverRequest.bind(this));
  }
  /**
   * Completes a purchase code's checkout in test mode as the owner (the console's "test purchase").
   *
   * @example
   * await admin.testModePurchase({ fullCode, priceId: "monthly" });
   */
  testModePurchase(options: { fullCode: string; priceId: string; quantity?: number }): Promise<void> {
    return adminPayments.testModePurchase(this._serverRequest.bind(this), options);
  }
}

/**
 * The admin app of a project owned by the signed-in user of `owner` (an internal-project app):
 * it acts through the owner's session. Every app's current user builds owned projects with it.
 *
 * @example
 * const admin = ownerAdminApp(internalApp, projectId);
 */
export function ownerAdminApp(owner: AppCore, projectId: string): StackAdminApp {
  return new StackAdminApp({
    projectId,
    baseUrl: owner._http.baseUrl,
    fetch: owner._options.fetch,
    sleep: owner._options.sleep,
    redirectMethod: "none",
    projectOwnerSession: owner._session,
  });
}
