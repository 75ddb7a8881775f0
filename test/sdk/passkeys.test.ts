/**
 * SDK passkeys against the real worker: `user.registerPasskey()` and `app.signInWithPasskey()`
 * through @simplewebauthn/browser, with `navigator.credentials` answered by a software
 * authenticator (real keys and signatures) and `window.location` set to http://localhost:3000.
 * Browser failures come back as PASSKEY_WEBAUTHN_ERROR values with the SPEC §8 codes.
 */

import { DEV_PUBLISHABLE_CLIENT_KEY } from "@doorman/shared/constants";
import { base64url } from "jose";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { StackClientApp } from "../../sdk/src";
import { call, internalAdmin, uniqueEmail } from "../helpers/api";
import { SoftAuthenticator } from "../helpers/webauthn";
import { workerFetch } from "../helpers/worker-fetch";

const ORIGIN = "http://localhost:3000";
const SENTINEL = "THIS_VALUE_WILL_BE_REPLACED.example.com";

const app = () =>
  new StackClientApp({
    baseUrl: "http://localhost",
    fetch: (input, init) => workerFetch(input, init),
    redirectMethod: "none",
    projectId: "internal",
    publishableClientKey: DEV_PUBLISHABLE_CLIENT_KEY,
    tokenStore: "memory",
  });

const buffer = (b64: string) => base64url.decode(b64).buffer as ArrayBuffer;
const b64 = (b: ArrayBuffer) => base64url.encode(new Uint8Array(b));

/** What the fake browser saw and does: the RP IDs it was asked for, and an optional failure. */
const browser: { device: SoftAuthenticator | null; rpIds: string[]; fail: DOMException | null } = { device: null, rpIds: [], fail: null };

/** navigator.credentials backed by the software authenticator, in the shapes a browser returns. */
const credentials = {
  async create({ publicKey }: { publicKey: any }) {
    if (browser.fail) throw browser.fail;
    browser.rpIds.push(publicKey.rp.id);
    const json = await browser.device!.register({ challenge: b64(publicKey.challenge) }, { origin: ORIGIN, rpId: publicKey.rp.id });
    return {
      id: json.id,
      rawId: buffer(json.rawId),
      type: "public-key",
      authenticatorAttachment: "platform",
      response: {
        clientDataJSON: buffer(json.response.clientDataJSON),
        attestationObject: buffer(json.response.attestationObject),
        getTransports: () => ["internal"],
      },
      getClientExtensionResults: () => ({ credProps: { rk: true } }),
    };
  },
  async get({ publicKey }: { publicKey: any }) {
    if (browser.fail) throw browser.fail;
    browser.rpIds.push(publicKey.rpId);
    const json = await browser.device!.authenticate({ challenge: b64(publicKey.challenge) }, { origin: ORIGIN, rpId: publicKey.rpId });
    return {
      id: json.id,
      rawId: buffer(json.rawId),
      type: "public-key",
      authenticatorAttachment: "platform",
      response: {
        clientDataJSON: buffer(json.response.clientDataJSON),
        authenticatorData: buffer(json.response.authenticatorData),
        signature: buffer(json.response.signature),
        userHandle: null,
      },
      getClientExtensionResults: () => ({}),
    };
  },
};

const g = globalThis as Record<string, unknown>;

beforeAll(async () => {
  const res = await call("/internal/projects/current", { ...internalAdmin, method: "PATCH", body: { config: { passkey_enabled: true } } });
  expect(res.status).toBe(200);
});

beforeEach(async () => {
  browser.device = await SoftAuthenticator.create();
  browser.rpIds = [];
  browser.fail = null;
  g.window = { location: new URL(ORIGIN) };
  g.PublicKeyCredential = function PublicKeyCredential() {};
  Object.defineProperty(navigator, "credentials", { value: credentials, configurable: true });
});

afterEach(() => {
  delete g.window;
  delete g.PublicKeyCredential;
  Reflect.deleteProperty(navigator, "credentials");
});

async function signedUpApp() {
  const client = app();
  const signedUp = await client.signUpWithCredential({
    email: uniqueEmail("sdk-passkey"),
    password: "passkey password 1",
    noRedirect: true,
  });
  expect(signedUp.status).toBe("ok");
  return { client, user: (await client.getUser({ or: "throw" }))! };
}

describe("SDK passkeys", () => {
  it("registers a passkey (sentinel replaced by the page's host), then signs in with it", async () => {
    const { user } = await signedUpApp();
    expect(user.passkeyAuthEnabled).toBe(false);
    expect(await user.registerPasskey()).toEqual({ status: "ok", data: undefined });
    expect(browser.rpIds).toEqual(["localhost"]);
    const signedOut = app();
    expect(await signedOut.getUser()).toBeNull();
    expect(await signedOut.signInWithPasskey({ noRedirect: true })).toEqual({ status: "ok", data: undefined });
    expect(browser.rpIds).toEqual(["localhost", "localhost"]);
    const me = await signedOut.getUser({ or: "throw" });
    expect(me?.id).toBe(user.id);
    expect(me?.passkeyAuthEnabled).toBe(true);
  });

  it("a dismissed prompt is PASSKEY_WEBAUTHN_ERROR with ERROR_CEREMONY_ABORTED", async () => {
    const { user } = await signedUpApp();
    browser.fail = new DOMException("The operation either timed out or was not allowed.", "NotAllowedError");
    const result = await user.registerPasskey();
    expect(result.status).toBe("error");
    if (result.status !== "error") return;
    expect(result.error.code).toBe("PASSKEY_WEBAUTHN_ERROR");
    expect(result.error.details).toEqual({ message: "The operation either timed out or was not allowed.", code: "ERROR_CEREMONY_ABORTED" });
    const signIn = await app().signInWithPasskey({ noRedirect: true });
    expect(signIn.status === "error" && signIn.error.details?.code).toBe("ERROR_CEREMONY_ABORTED");
  });

  it("an authenticator that already holds a credential is ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED", async () => {
    const { user } = await signedUpApp();
    browser.fail = new DOMException(
      "The user attempted to register an authenticator that contains one of the credentials already registered with the relying party.",
      "InvalidStateError",
    );
    const result = await user.registerPasskey();
    expect(result.status === "error" && result.error.details?.code).toBe("ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED");
  });

  it("a passkey the server does not know is PASSKEY_AUTHENTICATION_FAILED, and nobody is signed in", async () => {
    const client = app();
    const result = await client.signInWithPasskey({ noRedirect: true });
    expect(result.status === "error" && result.error.code).toBe("PASSKEY_AUTHENTICATION_FAILED");
    expect(await client.getUser()).toBeNull();
  });

  it("options without the sentinel RP ID are refused before the browser is asked", async () => {
    const client = app();
    const tampered = new StackClientApp({
      ...client._options,
      fetch: async (input, init) => {
        const res = await workerFetch(input, init);
        if (!input.endsWith("/initiate-passkey-authentication")) return res;
        const body = (await res.json()) as { options_json: { rpId: string } };
        expect(body.options_json.rpId).toBe(SENTINEL);
        body.options_json.rpId = "evil.example.net";
        return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
      },
    });
    await expect(tampered.signInWithPasskey({ noRedirect: true })).rejects.toThrow(/sentinel/);
    expect(browser.rpIds).toEqual([]);
  });
});
