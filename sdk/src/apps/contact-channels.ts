/** A user's contact channels (emails) and notification categories, as SDK objects. */
import type { Result } from "../interface/result";
import type { AppCore } from "./app-core";
import { absoluteUrl, asResult } from "./email-auth";
import type { ContactChannelJson as ChannelJson, NotificationPreferenceJson as PreferenceJson } from "./wire-types";

export type ContactChannel = {
  readonly id: string;
  readonly value: string;
  readonly type: "email";
  readonly isPrimary: boolean;
  readonly isVerified: boolean;
  readonly usedForAuth: boolean;
  update(update: { value?: string; usedForAuth?: boolean; isPrimary?: boolean }): Promise<void>;
  delete(): Promise<void>;
  /** Emails a verification link (default: the app's email-verification page). */
  sendVerificationEmail(options?: { callbackUrl?: string }): Promise<Result<undefined>>;
};

export type NotificationCategory = {
  readonly id: string;
  readonly name: string;
  readonly enabled: boolean;
  readonly canDisable: boolean;
  setEnabled(enabled: boolean): Promise<void>;
};

function channelFromJson(app: AppCore, json: ChannelJson): ContactChannel {
  const path = `/contact-channels/me/${encodeURIComponent(json.id)}`;
  return {
    id: json.id,
    value: json.value,
    type: json.type,
    isPrimary: json.is_primary,
    isVerified: json.is_verified,
    usedForAuth: json.used_for_auth,
    async update(update) {
      const body: Record<string, unknown> = {};
      if (update.value !== undefined) body.value = update.value;
      if (update.usedForAuth !== undefined) body.used_for_auth = update.usedForAuth;
      if (update.isPrimary !== undefined) body.is_primary = update.isPrimary;
      await app._userRequest(path, { method: "PATCH", body });
      await app._refreshUser();
    },
    async delete() {
      await app._userRequest(path, { method: "DELETE" });
      await app._refreshUser();
    },
    sendVerificationEmail(options = {}) {
      return asResult(async () => {
        await app._userRequest(`${path}/send-verification-code`, {
          body: { callback_url: absoluteUrl(options.callbackUrl ?? app.urls.emailVerification) },
        });
        return undefined;
      });
    },
  };
}

export async function listContactChannels(app: AppCore): Promise<ContactChannel[]> {
  const list = await app._userRequest<{ items: ChannelJson[] }>("/contact-channels?user_id=me");
  return list.items.map((c) => channelFromJson(app, c));
}

export async function createContactChannel(
  app: AppCore,
  options: { value: string; type?: "email"; usedForAuth: boolean; isPrimary?: boolean },
): Promise<ContactChannel> {
  const body: Record<string, unknown> = {
    user_id: "me",
    value: options.value,
    type: options.type ?? "email",
    used_for_auth: options.usedForAuth,
  };
  if (options.isPrimary !== undefined) body.is_primary = options.isPrimary;
  const json = await app._userRequest<ChannelJson>("/contact-channels", { body });
  await app._refreshUser();
  return channelFromJson(app, json);
}

/** Re-sends verification of the primary email (legacy route). */
export function sendPrimaryVerificationEmail(app: AppCore, email: string, callbackUrl?: string): Promise<Result<undefined>> {
  return asResult(async () => {
    await app._userRequest("/contact-channels/send-verification-code", {
      body: { email, callback_url: absoluteUrl(callbackUrl ?? app.urls.emailVerification) },
    });
    return undefined;
  });
}

export async function listNotificationCategories(app: AppCore): Promise<NotificationCategory[]> {
  const list = await app._userRequest<{ items: PreferenceJson[] }>("/emails/notification-preference/me");
  return list.items.map((p) => ({
    id: p.notification_category_id,
    name: p.notification_category_name,
    enabled: p.enabled,
    canDisable: p.can_disable,
    async setEnabled(enabled: boolean) {
      await app._userRequest(`/emails/notification-preference/me/${encodeURIComponent(p.notification_category_id)}`, {
        method: "PATCH",
        body: { enabled },
      });
    },
  }));
}
