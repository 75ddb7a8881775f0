/**
 * Encrypted assertions (issue 31, SAML): the samlify IdP encrypts to the connection's SP certificate
 * (xml-encryption: RSA-OAEP mgf1p/SHA-1 key transport; AES-128/256-CBC with XML Encryption's padding, and
 * AES-128/256-GCM), and with RSA-OAEP SHA-256 (xmlenc11#rsa-oaep + MGF1-SHA256, the test IdP's own
 * encryption, CBC padded with random bytes); the worker decrypts on WebCrypto and reads the profile from the decrypted, verified
 * assertion. Refusals: requireEncryptedAssertions with a plain assertion, an assertion encrypted to
 * another key, a tampered ciphertext (GCM and CBC), an encrypted assertion nobody signed.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDb } from "../../worker/db/client";
import { findSsoConnectionById } from "../../worker/db/queries/sso-connections";
import { makeDeps } from "../../worker/services/deps";
import { verifySamlResponse } from "../../worker/services/sso/saml/verify";
import { type SsoProject, ssoProject } from "../helpers/sso-flow";
import {
  API,
  expectRefused,
  idpKeys,
  idpResponse,
  insertSamlConnection,
  postAcs,
  type ResponseOptions,
  type SamlConnection,
  toBase64,
} from "../helpers/sso-saml";

const user: ResponseOptions = {
  nameId: "ada@acme.example",
  attributes: { displayName: "Ada Lovelace", groups: ["engineering", "admins"] },
};

async function setup(o: Parameters<typeof insertSamlConnection>[1] = {}): Promise<{ p: SsoProject; connection: SamlConnection }> {
  const p = await ssoProject();
  return { p, connection: await insertSamlConnection(p, { allowIdpInitiated: true, ...o }) };
}

/** The worker's verification of `samlResponse` for the connection (the ACS's steps before the sign-in). */
async function verify(connection: SamlConnection, samlResponse: string) {
  const row = await findSsoConnectionById(createDb(env.DB), connection.id);
  if (!row) throw new Error("no connection");
  return verifySamlResponse(makeDeps(env, { origin: API }), row, samlResponse);
}

describe("SAML encrypted assertions", () => {
  for (const dataAlg of ["aes128-cbc", "aes256-cbc", "aes128-gcm", "aes256-gcm"] as const) {
    it(`samlify's ${dataAlg} with RSA-OAEP (mgf1p, SHA-1): decrypted, verified, and the profile read from it`, async () => {
      const { connection } = await setup();
      const { samlResponse, xml } = await idpResponse(connection, { ...user, encrypt: { dataAlg } });
      expect(xml).toContain("EncryptedAssertion");
      expect(xml).toContain("rsa-oaep-mgf1p");
      expect(xml).not.toContain("ada@acme.example");
      const result = await verify(connection, samlResponse);
      expect(result).toMatchObject({
        ok: true,
        inResponseTo: null,
        profile: { subject: "ada@acme.example", email: "ada@acme.example", displayName: "Ada Lovelace", groups: ["engineering", "admins"] },
      });
    });
  }

  for (const dataAlg of ["aes256-gcm", "aes128-cbc"] as const) {
    it(`RSA-OAEP with SHA-256 and MGF1-SHA256 (xmlenc11#rsa-oaep), ${dataAlg}${dataAlg.endsWith("cbc") ? " padded with random bytes (XML Encryption, not PKCS#7)" : ""}`, async () => {
      const { connection } = await setup();
      const { samlResponse, xml } = await idpResponse(connection, { ...user, encrypt: { dataAlg, keyAlg: "rsa-oaep-sha256" } });
      expect(xml).toContain("xmlenc11#rsa-oaep");
      expect(xml).toContain("mgf1sha256");
      expect(await verify(connection, samlResponse)).toMatchObject({ ok: true, profile: { email: "ada@acme.example" } });
    });
  }

  it("encrypted and then the Response signed over the ciphertext, with the assertion unsigned inside: the Response signature vouches for it", async () => {
    const { connection } = await setup();
    const { samlResponse } = await idpResponse(connection, {
      ...user,
      signAssertion: false,
      signResponse: true,
      encrypt: { dataAlg: "aes256-gcm" },
    });
    expect(await verify(connection, samlResponse)).toMatchObject({ ok: true, profile: { email: "ada@acme.example" } });
  });

  it("through the ACS, and requireEncryptedAssertions: a plain assertion is refused, an encrypted one passes", async () => {
    const { p, connection } = await setup({ requireEncryptedAssertions: true });
    await expectRefused(p, await postAcs(connection.id, (await idpResponse(connection, user)).samlResponse), "assertion_unencrypted");
    const encrypted = await idpResponse(connection, { ...user, encrypt: { dataAlg: "aes256-gcm" } });
    const res = await postAcs(connection.id, encrypted.samlResponse);
    expect(res.status, await res.clone().text()).toBe(303);
  });

  it("an assertion encrypted to another key does not open", async () => {
    const { p, connection } = await setup();
    const keys = await idpKeys();
    const elsewhere = await idpResponse(
      { ...connection, spCertificate: keys.certificates.other },
      { ...user, encrypt: { dataAlg: "aes256-gcm" } },
    );
    await expectRefused(p, await postAcs(connection.id, elsewhere.samlResponse), "decryption_failed");
  });

  it("a tampered ciphertext is refused (GCM: the tag; CBC: the signature inside no longer verifies, or the plaintext no longer parses)", async () => {
    const { p, connection } = await setup();
    for (const dataAlg of ["aes256-gcm", "aes128-cbc"] as const) {
      const { xml } = await idpResponse(connection, { ...user, encrypt: { dataAlg } });
      // The EncryptedData's own CipherValue is the last one (the key's comes first, in its KeyInfo).
      const values = [...xml.matchAll(/<(\w+:)?CipherValue>([^<]+)<\/(\w+:)?CipherValue>/g)];
      const data = values[values.length - 1]?.[2] ?? "";
      const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      bytes[40] = (bytes[40] ?? 0) ^ 0x01;
      const tampered = xml.replace(data, btoa(String.fromCharCode(...bytes)));
      const res = await postAcs(connection.id, toBase64(tampered));
      if (dataAlg.endsWith("gcm")) await expectRefused(p, res, "decryption_failed");
      else {
        // CBC has no tag: a garbled block fails as UTF-8, as XML, or as the signature inside — refused in any case.
        expect(res.status).toBe(400);
        expect(await res.text()).toContain("SAML_RESPONSE_INVALID");
      }
    }
  });

  it("an encrypted assertion that nobody signed is refused", async () => {
    const { p, connection } = await setup();
    const { samlResponse } = await idpResponse(connection, {
      ...user,
      signAssertion: false,
      signResponse: false,
      encrypt: { dataAlg: "aes256-gcm" },
    });
    await expectRefused(p, await postAcs(connection.id, samlResponse), "unsigned");
  });
});
