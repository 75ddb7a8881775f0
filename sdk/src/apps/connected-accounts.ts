/**
 * A user's linked OAuth provider accounts (`/oauth-providers`) and connected accounts
 * (`/connected-accounts`) in the SDK: list, read, toggle and unlink links; find a connected
 * account and get provider access tokens for it. A missing connection or scope reads as "not
 * connected" (null) unless the caller asks to throw or to connect again.
 */
import { HttpError, type RequestOptions } from "../interface/http";
import { err, ok, type Result } from "../interface/result";
import { KnownError } from "../shared/known-errors";
import type { ConnectedAccountJson, OAuthProviderJson, ProviderAccessTokenJson } from "./wire-types";

type Request = <T>(path: string, options?: RequestOptions) => Promise<T>;

/** A provider account linked to the user (e.g. their GitHub account). */
export type OAuthProvider = {
  /** The link's id. */
  readonly id: string;
  readonly userId: string;
  /** The provider kind, e.g. "github". */
  readonly type: string;
  /** The project's provider config this link belongs to. */
  readonly providerConfigId: string;
  readonly email: string | null;
  /** The user can sign in with this provider account. */
  readonly allowSignIn: boolean;
  /** The app may act through this account (provider access tokens). */
  readonly allowConnectedAccounts: boolean;
  /** Expected failure: OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN (the account signs in to someone else). */
  update(update: { allowSignIn?: boolean; allowConnectedAccounts?: boolean }): Promise<Result<undefined>>;
  delete(): Promise<void>;
};

/** The server's view of a link: also the provider's account id, and the email and account id are editable. */
export type ServerOAuthProvider = Omit<OAuthProvider, "update"> & {
  readonly accountId: string;
  update(update: {
    allowSignIn?: boolean;
    allowConnectedAccounts?: boolean;
    email?: string | null;
    accountId?: string;
  }): Promise<Result<undefined>>;
};

/** A connected account the app can get provider access tokens for. */
export type OAuthConnection = {
  /** The provider id (kept for compatibility; same as `provider`). */
  readonly id: string;
  readonly provider: string;
  /** The account at the provider; null when the connection was looked up by provider only. */
  readonly providerAccountId: string | null;
  /** A fresh provider access token (refreshed by the server when needed); throws a KnownError when none can be had. */
  getAccessToken(options?: { scopes?: string[] }): Promise<{ accessToken: string }>;
};

export type GetConnectedAccountOptions = {
  /** Scopes the token must carry. */
  scopes?: string[];
  /** When not connected (or without the scopes): connect again ("redirect"), throw, or return null (default). */
  or?: "redirect" | "throw" | "return-null";
};

/** The codes that mean "this user has no usable connection for that": null, not an error (SPEC §7). */
const NOT_CONNECTED = new Set(["OAUTH_CONNECTION_NOT_CONNECTED_TO_USER", "OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE"]);

const enc = encodeURIComponent;

function providerFromJson(request: Request, json: OAuthProviderJson, onChange: () => Promise<unknown>): ServerOAuthProvider {
  const path = `/oauth-providers/${enc(json.user_id)}/${enc(json.id)}`;
  return {
    id: json.id,
    userId: json.user_id,
    type: json.type,
    providerConfigId: json.provider_config_id,
    email: json.email ?? null,
    allowSignIn: json.allow_sign_in,
    allowConnectedAccounts: json.allow_connected_accounts,
    accountId: json.account_id ?? "",
    async update(update) {
      const body: Record<string, unknown> = {};
      if (update.allowSignIn !== undefined) body.allow_sign_in = update.allowSignIn;
      if (update.allowConnectedAccounts !== undefined) body.allow_connected_accounts = update.allowConnectedAccounts;
      if (update.email !== undefined) body.email = update.email;
      if (update.accountId !== undefined) body.account_id = update.accountId;
      try {
        await request(path, { method: "PATCH", body });
      } catch (error) {
        if (error instanceof KnownError && error.code === "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN") return err(error);
        throw error;
      }
      await onChange();
      return ok(undefined);
    },
    async delete() {
      await request(path, { method: "DELETE" });
      await onChange();
    },
  };
}

/** A client's link: without the provider's account id. */
function clientProvider(provider: ServerOAuthProvider): OAuthProvider {
  const { accountId: _hidden, ...rest } = provider;
  return rest;
}

function connection(request: Request, user: string, provider: string, providerAccountId: string | null, scopes: string[]): OAuthConnection {
  const base = `/connected-accounts/${enc(user)}/${enc(provider)}${providerAccountId === null ? "" : `/${enc(providerAccountId)}`}`;
  return {
    id: provider,
    provider,
    providerAccountId,
    async getAccessToken(options = {}) {
      const wanted = options.scopes ?? scopes;
      const body = wanted.length > 0 ? { scope: wanted.join(" ") } : {};
      const json = await request<ProviderAccessTokenJson>(`${base}/access-token`, { body });
      return { accessToken: json.access_token };
    },
  };
}

/**
 * The link and connection methods of one user (`user` is "me" for the signed-in user, or an id
 * with the secret key). `connectAgain` starts linking the provider with the scopes (the OAuth
 * link flow), for `or: "redirect"`; `onChange` refreshes cached user data after a mutation.
 *
 * @example
 * const methods = userConnectionMethods(app._userRequest.bind(app), "me", { onChange: () => app._refreshUser() });
 * const github = await methods.getConnectedAccount("github", { scopes: ["repo"] });
 */
export function userConnectionMethods(
  request: Request,
  user: string,
  options: { onChange?: () => Promise<unknown>; connectAgain?: (provider: string, scopes: string[]) => Promise<void> } = {},
) {
  const onChange = options.onChange ?? (async () => undefined);
  const links = async () => {
    const list = await request<{ items: OAuthProviderJson[] }>(`/oauth-providers?user_id=${enc(user)}`);
    return list.items.map((item) => providerFromJson(request, item, onChange));
  };
  const link = async (id: string) => {
    try {
      return providerFromJson(request, await request<OAuthProviderJson>(`/oauth-providers/${enc(user)}/${enc(id)}`), onChange);
    } catch (error) {
      if (error instanceof HttpError && error.status === 404) return null;
      throw error;
    }
  };

  async function listConnectedAccounts(): Promise<OAuthConnection[]> {
    const list = await request<{ items: ConnectedAccountJson[] }>(`/connected-accounts/${enc(user)}`);
    return list.items.map((a) => connection(request, user, a.provider, a.provider_account_id, []));
  }

  async function byProvider(provider: string, o: GetConnectedAccountOptions): Promise<OAuthConnection | null> {
    const scopes = o.scopes ?? [];
    const found = connection(request, user, provider, null, scopes);
    try {
      // The server answers whether a token with these scopes can be had (the reference SDK's check).
      await found.getAccessToken();
      return found;
    } catch (error) {
      if (!(error instanceof KnownError) || !NOT_CONNECTED.has(error.code)) throw error;
      if (o.or === "throw")
        throw new Error(`The user has no ${provider} connection${scopes.length ? ` with the scopes ${scopes.join(", ")}` : ""}.`);
      if (o.or === "redirect") {
        if (!options.connectAgain) throw new Error('or: "redirect" needs a browser app that can start the OAuth link flow.');
        await options.connectAgain(provider, scopes);
      }
      return null;
    }
  }

  /**
   * A connected account: by provider id (checked for a usable token with the scopes), or by
   * `{ provider, providerAccountId }` (a specific account, found in the list).
   */
  async function getConnectedAccount(
    target: string | { provider: string; providerAccountId: string },
    o: GetConnectedAccountOptions = {},
  ): Promise<OAuthConnection | null> {
    if (typeof target === "string") return byProvider(target, o);
    const all = await listConnectedAccounts();
    return all.find((a) => a.provider === target.provider && a.providerAccountId === target.providerAccountId) ?? null;
  }

  return { links, link, listConnectedAccounts, getConnectedAccount };
}

/** Client user methods: links without the provider's account id. */
export function clientConnectionMethods(...args: Parameters<typeof userConnectionMethods>) {
  const m = userConnectionMethods(...args);
  return {
    listOAuthProviders: async () => (await m.links()).map(clientProvider),
    getOAuthProvider: async (id: string) => {
      const found = await m.link(id);
      return found ? clientProvider(found) : null;
    },
    listConnectedAccounts: m.listConnectedAccounts,
    getConnectedAccount: m.getConnectedAccount,
  };
}

/** Server user methods: links with the provider's account id. */
export function serverConnectionMethods(...args: Parameters<typeof userConnectionMethods>) {
  const m = userConnectionMethods(...args);
  return {
    listOAuthProviders: m.links,
    getOAuthProvider: m.link,
    listConnectedAccounts: m.listConnectedAccounts,
    getConnectedAccount: m.getConnectedAccount,
  };
}

export type CreateOAuthProviderOptions = {
  userId: string;
  providerConfigId: string;
  accountId: string;
  email?: string | null;
  allowSignIn: boolean;
  allowConnectedAccounts: boolean;
};

/** Server: links a provider account to a user. Expected failure: OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN. */
export async function createOAuthProvider(request: Request, o: CreateOAuthProviderOptions): Promise<Result<ServerOAuthProvider>> {
  const body: Record<string, unknown> = {
    user_id: o.userId,
    provider_config_id: o.providerConfigId,
    account_id: o.accountId,
    allow_sign_in: o.allowSignIn,
    allow_connected_accounts: o.allowConnectedAccounts,
  };
  if (o.email !== undefined) body.email = o.email;
  try {
    return ok(providerFromJson(request, await request<OAuthProviderJson>("/oauth-providers", { body }), async () => undefined));
  } catch (error) {
    if (error instanceof KnownError && error.code === "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN") return err(error);
    throw error;
  }
}
