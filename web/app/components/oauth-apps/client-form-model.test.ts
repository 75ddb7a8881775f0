import type { OAuthClient } from "@doorman/sdk";
import { describe, expect, it } from "vitest";
import {
  clientFormOf,
  clientFormProblems,
  createOptionsOf,
  emptyClientForm,
  placeClientError,
  updateOptionsOf,
  withClientType,
} from "./client-form-model";

const ec = { kty: "EC", crv: "P-256", x: "x", y: "y" };

describe("the OAuth client form", () => {
  it("asks for a name and redirect URIs, and checks what it can before the API", () => {
    expect(clientFormProblems(emptyClientForm())).toEqual({
      name: expect.stringMatching(/name/),
      redirect_uris: expect.stringMatching(/at least one/),
    });
    const form = { ...emptyClientForm(), name: "Acme", redirectUris: "https://acme.example/cb\n/relative" };
    expect(clientFormProblems(form)).toEqual({ redirect_uris: expect.stringMatching(/\/relative is not an absolute URL/) });
    const filled = {
      ...form,
      redirectUris: "https://acme.example/cb",
      allScopes: false,
      logoUri: "http://x.example/l.png",
      tosUri: "ftp://x",
    };
    expect(clientFormProblems(filled)).toEqual({
      allowed_scopes: expect.stringMatching(/at least one scope/),
      logo_uri: expect.stringMatching(/https/),
      tos_uri: "Use an https URL.",
    });
    expect(clientFormProblems({ ...filled, allScopes: true, logoUri: "data:image/png;base64,AAAA", tosUri: "" })).toEqual({});
  });

  it("a type change picks that type's method; private_key_jwt needs keys unless the client already has them", () => {
    const pub = withClientType({ ...emptyClientForm(), authMethod: "client_secret_post" }, "public");
    expect(pub.authMethod).toBe("none");
    expect(withClientType(pub, "confidential").authMethod).toBe("client_secret_basic");
    const jwt = { ...emptyClientForm(), name: "A", redirectUris: "https://a.example/cb", authMethod: "private_key_jwt" as const };
    expect(clientFormProblems(jwt)).toEqual({ jwks: expect.stringMatching(/public keys/) });
    expect(clientFormProblems(jwt, { hasJwks: true })).toEqual({});
    expect(clientFormProblems({ ...jwt, jwks: "{nope" })).toEqual({ jwks: expect.stringMatching(/JWK Set/) });
    expect(clientFormProblems({ ...jwt, keys: "jwksUri", jwksUri: "not a url" })).toEqual({ jwks_uri: expect.stringMatching(/URL/) });
    expect(createOptionsOf({ ...jwt, jwks: JSON.stringify({ keys: [ec] }) })).toMatchObject({
      tokenEndpointAuthMethod: "private_key_jwt",
      jwks: { keys: [ec] },
      jwksUri: null,
    });
    // Editing without pasting keys keeps the stored ones (jwks is not sent).
    expect(updateOptionsOf(jwt)).not.toHaveProperty("jwks");
  });

  it("sends trimmed lines, null for empty links, and null scopes for every scope", () => {
    const form = {
      ...emptyClientForm(),
      name: " Acme ",
      redirectUris: " https://a.example/cb \n\nhttp://127.0.0.1:8080/cb",
      policyUri: "  ",
      clientUri: "https://a.example",
    };
    expect(createOptionsOf(form)).toEqual({
      name: "Acme",
      clientType: "confidential",
      tokenEndpointAuthMethod: "client_secret_basic",
      redirectUris: ["https://a.example/cb", "http://127.0.0.1:8080/cb"],
      allowedScopes: null,
      logoUri: null,
      clientUri: "https://a.example",
      policyUri: null,
      tosUri: null,
      jwks: null,
      jwksUri: null,
    });
    expect(createOptionsOf({ ...form, allScopes: false, scopes: ["openid"] }).allowedScopes).toEqual(["openid"]);
  });

  it("fills the form from a client and round-trips it", () => {
    const client: OAuthClient = {
      clientId: "dmc_x",
      source: "console",
      name: "Acme",
      clientType: "public",
      tokenEndpointAuthMethod: "none",
      redirectUris: ["com.acme.app:/cb", "http://localhost:9000/cb"],
      allowedScopes: ["openid", "email"],
      logoUri: null,
      clientUri: "https://acme.example",
      policyUri: null,
      tosUri: null,
      jwksUri: null,
      hasJwks: false,
      secretPrefix: null,
      createdAt: new Date(0),
      updatedAt: new Date(0),
    };
    const form = clientFormOf(client);
    expect(form).toMatchObject({
      redirectUris: "com.acme.app:/cb\nhttp://localhost:9000/cb",
      allScopes: false,
      scopes: ["openid", "email"],
    });
    expect(updateOptionsOf(form)).toEqual({
      name: "Acme",
      tokenEndpointAuthMethod: "none",
      redirectUris: client.redirectUris,
      allowedScopes: ["openid", "email"],
      logoUri: null,
      clientUri: "https://acme.example",
      policyUri: null,
      tosUri: null,
    });
  });

  it("puts the API's OAUTH_CLIENT_INVALID on the field it names", () => {
    expect(
      placeClientError({
        code: "OAUTH_CLIENT_INVALID",
        details: { field: "redirect_uris", message: "http://x/cb uses http: only loopback…" },
      }),
    ).toEqual({ field: "redirect_uris", message: "http://x/cb uses http: only loopback…" });
    expect(placeClientError({ code: "OAUTH_CLIENT_INVALID", details: { field: "client_id", message: "a document's client" } })).toEqual({
      field: null,
      message: "a document's client",
    });
    expect(placeClientError(new Error("offline"))).toBeNull();
  });
});
