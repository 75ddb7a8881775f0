/**
 * An OAuthClientProvider for the official MCP TypeScript SDK whose "redirect the user" step drives
 * Chromium through Doorman's hosted consent page (oauth-provider-kit.mjs) and keeps the code the
 * browser lands with, so a test then calls `transport.finishAuth(code)` as a real MCP client would
 * after its redirect. In memory; records what the SDK did (registrations, authorization URLs).
 * With `clientMetadataUrl` the SDK uses a client ID metadata document (CIMD) instead of registering.
 */
import { randomUUID } from "node:crypto";
import { assert } from "./harness.mjs";
import { authorizeInBrowser } from "./oauth-provider-kit.mjs";

export class BrowserOAuthClientProvider {
  /**
   * @param {{ page: import("playwright-core").Page, redirectUri: string, clientName: string,
   *   clientMetadataUrl?: string, consent?: { appName?: string, email?: string, projectId?: string } }} options
   */
  constructor({ page, redirectUri, clientName, clientMetadataUrl, consent }) {
    this.page = page;
    this.redirectUri = redirectUri;
    this.clientName = clientName;
    if (clientMetadataUrl) this.clientMetadataUrl = clientMetadataUrl;
    this.consent = consent;
    this.savedClient = undefined;
    this.savedTokens = undefined;
    this.verifier = "";
    this.lastState = "";
    /** What the SDK saved as client information, in order (a DCR answer, or `{client_id: <CIMD URL>}`). */
    this.registrations = [];
    /** Every authorization URL the SDK sent the user to. */
    this.authorizationUrls = [];
    /** The code of the last completed authorization. */
    this.code = null;
  }

  get redirectUrl() {
    return this.redirectUri;
  }

  get clientMetadata() {
    return {
      client_name: this.clientName,
      redirect_uris: [this.redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }

  state() {
    this.lastState = randomUUID();
    return this.lastState;
  }

  clientInformation() {
    return this.savedClient;
  }

  saveClientInformation(info) {
    this.savedClient = info;
    this.registrations.push(info);
  }

  tokens() {
    return this.savedTokens;
  }

  saveTokens(tokens) {
    this.savedTokens = tokens;
  }

  saveCodeVerifier(verifier) {
    this.verifier = verifier;
  }

  codeVerifier() {
    return this.verifier;
  }

  /** The browser goes to Doorman, the user approves, and the browser lands on the redirect URI with the code. */
  async redirectToAuthorization(authorizationUrl) {
    this.authorizationUrls.push(new URL(authorizationUrl));
    const landed = await authorizeInBrowser(this.page, authorizationUrl, this.redirectUri, { consent: this.consent });
    assert.equal(landed.searchParams.get("state"), this.lastState, "the callback carries the state the client sent");
    const error = landed.searchParams.get("error");
    assert.equal(error, null, `the authorization answered ${error}: ${landed.searchParams.get("error_description")}`);
    this.code = landed.searchParams.get("code");
  }
}
