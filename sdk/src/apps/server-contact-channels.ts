/**
 * A user's contact channels managed with the secret key (`/contact-channels/{userId}/…`): unlike
 * the signed-in user's own channels, a back end may mark an address verified.
 */
import type { RequestOptions } from "../interface/http";
import type { ContactChannelJson, ListJson } from "./wire-types";

type Request = <T>(path: string, options?: RequestOptions) => Promise<T>;

export type ServerContactChannel = {
  readonly id: string;
  readonly userId: string;
  readonly value: string;
  readonly type: "email";
  readonly isPrimary: boolean;
  readonly isVerified: boolean;
  readonly usedForAuth: boolean;
  update(update: ServerContactChannelUpdateOptions): Promise<void>;
  delete(): Promise<void>;
};

export type ServerContactChannelUpdateOptions = { value?: string; usedForAuth?: boolean; isPrimary?: boolean; isVerified?: boolean };
export type ServerContactChannelCreateOptions = {
  value: string;
  type?: "email";
  usedForAuth: boolean;
  isPrimary?: boolean;
  isVerified?: boolean;
};

const enc = encodeURIComponent;

function channelToWire(options: ServerContactChannelUpdateOptions): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (options.value !== undefined) body.value = options.value;
  if (options.usedForAuth !== undefined) body.used_for_auth = options.usedForAuth;
  if (options.isPrimary !== undefined) body.is_primary = options.isPrimary;
  if (options.isVerified !== undefined) body.is_verified = options.isVerified;
  return body;
}

function channelFromJson(request: Request, userId: string, json: ContactChannelJson): ServerContactChannel {
  const path = `/contact-channels/${enc(userId)}/${enc(json.id)}`;
  return {
    id: json.id,
    userId,
    value: json.value,
    type: json.type,
    isPrimary: json.is_primary,
    isVerified: json.is_verified,
    usedForAuth: json.used_for_auth,
    async update(update) {
      await request(path, { method: "PATCH", body: channelToWire(update) });
    },
    async delete() {
      await request(path, { method: "DELETE" });
    },
  };
}

/**
 * Contact-channel methods for one server user.
 *
 * @example
 * const user = await server.getUser(userId);
 * const channel = await user.createContactChannel({ value: "ada@work.example", usedForAuth: false, isVerified: true });
 * await channel.update({ isPrimary: true });
 * console.log((await user.listContactChannels()).map((c) => c.value));
 */
export function serverContactChannelMethods(request: Request, userId: string) {
  return {
    /** The user's contact channels (emails), primary first as the API orders them. */
    async listContactChannels(): Promise<ServerContactChannel[]> {
      const list = await request<ListJson<ContactChannelJson>>(`/contact-channels?user_id=${enc(userId)}`);
      return list.items.map((c) => channelFromJson(request, userId, c));
    },
    /** Adds an email to the user; `isVerified` declares it verified without a code (back ends only). */
    async createContactChannel(options: ServerContactChannelCreateOptions): Promise<ServerContactChannel> {
      const body = { user_id: userId, type: options.type ?? "email", ...channelToWire(options) };
      return channelFromJson(request, userId, await request<ContactChannelJson>("/contact-channels", { body }));
    },
  };
}
