/** Wire views of linked provider accounts and connected accounts (wire-protocol.md §2). */
import type { ConnectedAccountJson, OAuthProviderJson } from "@doorman/shared/wire";
import type { OAuthAccountRow } from "../db/queries/oauth-accounts";
import type { LinkedAccount } from "../services/oauth/linked-accounts";

/** A linked provider account (/oauth-providers); `account_id` only for server and admin callers. */
export function oauthProviderView(account: LinkedAccount, withAccountId: boolean): OAuthProviderJson {
  const { row, type } = account;
  return {
    user_id: row.userId,
    id: row.id,
    ...(row.email ? { email: row.email } : {}),
    provider_config_id: row.providerConfigId,
    type,
    allow_sign_in: row.allowSignIn,
    allow_connected_accounts: row.allowConnectedAccounts,
    ...(withAccountId ? { account_id: row.providerAccountId } : {}),
  };
}

/** A connected account (/connected-accounts). */
export function connectedAccountView(row: OAuthAccountRow): ConnectedAccountJson {
  return { user_id: row.userId, provider: row.providerConfigId, provider_account_id: row.providerAccountId };
}
