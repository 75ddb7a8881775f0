import { describe, expect, it } from "vitest";
import {
  offeredScopes,
  placeProviderError,
  providerFromConfig,
  scopeDescriptionId,
  scopeNameId,
  scopeProblems,
  scopeRowsOf,
  scopesOverride,
  TOKEN_FIELD_IDS,
  toggleOverride,
  tokenFormOf,
  tokenOverride,
  tokenProblems,
} from "./provider-settings";

describe("OpenID provider settings in the console", () => {
  it("reads doorman.oauthProvider with the worker's defaults for what is not answered", () => {
    const s = providerFromConfig({
      doorman: { oauthProvider: { dynamicRegistration: true, scopes: { "docs:read": { description: "Read" } } } },
    });
    expect(s).toEqual({
      enabled: true,
      dynamicRegistration: true,
      clientIdMetadataDocuments: false,
      scopes: { "docs:read": { description: "Read" } },
      resources: [],
      accessTokenTtlSeconds: 3600,
      refreshTokenTtlDays: 30,
    });
    expect(offeredScopes(s)).toEqual(["openid", "profile", "email", "offline_access", "team", "docs:read"]);
    expect(providerFromConfig({}).enabled).toBe(true);
    expect(toggleOverride("clientIdMetadataDocuments", true)).toEqual({ "doorman.oauthProvider.clientIdMetadataDocuments": true });
  });

  it("checks custom scopes by row and writes the whole record (a removed scope is gone)", () => {
    const rows = [
      { name: "docs:read", description: "Read your documents" },
      { name: "openid", description: "x" },
      { name: "docs:read", description: "" },
      { name: "bad name", description: "y".repeat(201) },
    ];
    expect(scopeProblems(rows)).toEqual({
      [scopeNameId(1)]: expect.stringMatching(/standard scope/),
      [scopeNameId(2)]: expect.stringMatching(/twice/),
      [scopeDescriptionId(2)]: expect.stringMatching(/consent page/),
      [scopeNameId(3)]: expect.stringMatching(/letters, digits/),
      [scopeDescriptionId(3)]: "At most 200 characters.",
    });
    expect(scopeProblems([rows[0]!])).toEqual({});
    expect(scopesOverride([{ name: " docs:read ", description: " Read " }])).toEqual({
      "doorman.oauthProvider.scopes": { "docs:read": { description: "Read" } },
    });
    expect(scopesOverride([])).toEqual({ "doorman.oauthProvider.scopes": {} });
    expect(scopeRowsOf(providerFromConfig({ doorman: { oauthProvider: { scopes: { a: { description: "A" } } } } }))).toEqual([
      { name: "a", description: "A" },
    ]);
  });

  it("checks token lifetimes and resource indicators, and writes them as numbers and a list", () => {
    const form = tokenFormOf(providerFromConfig({}));
    expect(form).toEqual({ accessTokenTtlSeconds: "3600", refreshTokenTtlDays: "30", resources: "" });
    expect(tokenProblems({ accessTokenTtlSeconds: "59", refreshTokenTtlDays: "366", resources: "api.example.com" })).toEqual({
      [TOKEN_FIELD_IDS.accessTokenTtlSeconds]: expect.stringMatching(/60 to 86400/),
      [TOKEN_FIELD_IDS.refreshTokenTtlDays]: expect.stringMatching(/1 to 365/),
      [TOKEN_FIELD_IDS.resources]: expect.stringMatching(/not an absolute URL/),
    });
    expect(tokenProblems({ ...form, resources: "https://api.example.com/#x" })[TOKEN_FIELD_IDS.resources]).toMatch(/fragment/);
    expect(
      tokenOverride({
        accessTokenTtlSeconds: " 900",
        refreshTokenTtlDays: "7",
        resources: "https://a.example\n\nhttps://a.example\nhttps://b.example/mcp",
      }),
    ).toEqual({
      "doorman.oauthProvider.accessTokenTtlSeconds": 900,
      "doorman.oauthProvider.refreshTokenTtlDays": 7,
      "doorman.oauthProvider.resources": ["https://a.example", "https://b.example/mcp"],
    });
  });

  it("places the API's refusal on its field", () => {
    expect(placeProviderError("Invalid config value at doorman.oauthProvider.resources.1: Invalid URL")).toEqual({
      field: TOKEN_FIELD_IDS.resources,
      message: "Invalid URL",
    });
    const rows = [
      { name: "a", description: "A" },
      { name: "b:c", description: "B" },
    ];
    expect(placeProviderError("Invalid config value at doorman.oauthProvider.scopes.b:c.description: Too big", rows)).toEqual({
      field: scopeNameId(1),
      message: "Too big",
    });
    expect(placeProviderError("Could not save.")).toEqual({ field: null, message: "Could not save." });
  });
});
