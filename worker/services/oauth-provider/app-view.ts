/**
 * A third-party app as its users see it (the consent page and the authorized-apps list): name,
 * logo, links and where it came from. Never the client's secrets, keys or redirect URIs.
 */
import type { OAuthAppJson } from "@doorman/shared/wire-oauth-provider";
import type { OAuthClient } from "./clients";

export function oauthAppView(client: OAuthClient): OAuthAppJson {
  return {
    client_id: client.clientId,
    name: client.name,
    logo_uri: client.logoUri,
    client_uri: client.clientUri,
    policy_uri: client.policyUri,
    tos_uri: client.tosUri,
    source: client.source,
  };
}
