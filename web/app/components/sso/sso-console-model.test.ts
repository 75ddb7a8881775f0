/** The console's team SSO page helpers (issue 31): test link, advanced settings, SCIM calls in words. */
import type { SsoConnection } from "@doorman/sdk";
import { describe, expect, it } from "vitest";
import { advancedFormOf, advancedProblems, advancedUpdateOf, daysToMillis, describeScimCall, testSignInUrl } from "./sso-console-model";

const saml: SsoConnection = {
  id: "c1",
  teamId: "t1",
  protocol: "saml",
  displayName: "Okta",
  enabled: true,
  isComplete: true,
  allowIdpInitiated: false,
  saml: {
    idpEntityId: "urn:idp",
    idpSsoUrl: "https://idp.example/sso",
    idpCertificates: ["PEM"],
    requireSignedResponse: false,
    requireEncryptedAssertions: false,
    signAuthnRequests: true,
    clockSkewSeconds: 120,
  },
  oidc: null,
  attributeMapping: { email: "mail", name: null, groups: null },
  serviceProvider: { entityId: "e", acsUrl: "a", metadataUrl: "m", certificate: null },
  oidcRedirectUri: null,
  scim: { baseUrl: "b", tokenPrefix: null, groupMapping: [] },
  createdAt: new Date(0),
  updatedAt: new Date(0),
};

describe("team SSO page helpers", () => {
  it("links the test sign-in to the project's hosted sign-in page with the connection", () => {
    expect(testSignInUrl("https://auth.example/", "p1", "c 1")).toBe("https://auth.example/p/p1/handler/sign-in?sso_connection_id=c%201");
  });

  it("reads a connection into the advanced form and back, with empty attributes as the default", () => {
    const form = advancedFormOf(saml);
    expect(form).toMatchObject({
      displayName: "Okta",
      signAuthnRequests: true,
      clockSkewSeconds: "120",
      emailAttribute: "mail",
      nameAttribute: "",
    });
    expect(advancedUpdateOf({ ...form, nameAttribute: " displayName ", allowIdpInitiated: true }, "saml")).toEqual({
      displayName: "Okta",
      enabled: true,
      allowIdpInitiated: true,
      attributeMapping: { email: "mail", name: "displayName", groups: null },
      saml: { requireSignedResponse: false, requireEncryptedAssertions: false, signAuthnRequests: true, clockSkewSeconds: 120 },
    });
    // An OIDC connection has no SAML flags to send.
    expect(advancedUpdateOf(form, "oidc")).not.toHaveProperty("saml");
    expect(advancedProblems({ ...form, displayName: " ", clockSkewSeconds: "700" })).toEqual({
      displayName: expect.any(String),
      clockSkewSeconds: expect.any(String),
    });
    expect(advancedProblems(form)).toEqual({});
  });

  it("says what a SCIM call did, and the setup link's days in milliseconds", () => {
    expect(describeScimCall({ type: "scim.user_deactivated", data: { connection_id: "c1" } })).toBe("User deactivated");
    expect(describeScimCall({ type: "scim.group_created", data: { display_name: "Engineering" } })).toBe("Group created: Engineering");
    expect(describeScimCall({ type: "scim.something_new", data: null })).toBe("scim.something_new");
    expect(daysToMillis(7)).toBe(604_800_000);
  });
});
