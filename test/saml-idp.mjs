/**
 * A SAML 2.0 identity provider that is not Doorman's code, for the SSO tests (issue 31): samlify 2.13.1 in
 * IdP mode (its response template, its xml-crypto signatures, its xml-encryption), signing with keys it
 * makes at start. Node only (samlify needs node:crypto): vitest's globalSetup and the e2e runner start it;
 * the worker in workerd and the browser reach it over loopback HTTP.
 *
 * Control API (JSON):
 * - GET /keys → {certificates: {main, other, ec}} (PEM): `main` is the IdP's key; `other` an unrelated
 *   RSA key (the "wrong certificate" tests sign with it); `ec` a P-256 key (ECDSA signatures).
 * - GET /metadata → samlify's IdP metadata (entityID {base}/idp, SSO HTTP-Redirect {base}/sso).
 * - POST /response {acsUrl, spEntityId, spCertificate?, nameId, …} → {samlResponse (base64), xml}: a login
 *   response built by samlify with exactly the given values (see `buildResponse` for every field).
 * - POST /sps {metadata}: registers an SP (its metadata XML) for the browser flows.
 * Browser (a real IdP's pages):
 * - GET /sso?SAMLRequest&RelayState[&SigAlg&Signature]: samlify parses the AuthnRequest of a registered SP
 *   and shows a sign-in form; POST /login signs the user in and auto-posts the response to the ACS.
 * - GET /start?sp={entityID}: IdP-initiated: the same form, then an unsolicited response (no InResponseTo).
 * A sign-in sets the IdP's session cookie; with it, /sso and /start answer the auto-posting page at once.
 */
import {
  constants,
  createCipheriv,
  sign as nodeSign,
  publicEncrypt,
  randomBytes,
  randomUUID,
  webcrypto,
  X509Certificate,
} from "node:crypto";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { inflateRawSync } from "node:zlib";
import { DOMParser, XMLSerializer } from "@xmldom/xmldom";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { readBody } from "./read-body.mjs";

// CommonJS packages, loaded as Node loads them (vite's interop under vitest's globalSetup differs from Node's).
const require = createRequire(import.meta.url);
const samlify = require("samlify");
const { SignedXml } = require("xml-crypto");

// samlify validates every message against the SAML XSDs through a plug-in; the test IdP only builds
// messages and parses AuthnRequests it was sent, so a validator that accepts is enough here (the SP
// under test, not this IdP, is what must be strict).
samlify.setSchemaValidator({ validate: async () => "skipped" });

const { Constants, SamlLib } = samlify;
const POST = Constants.namespace.binding.post;
const REDIRECT = Constants.namespace.binding.redirect;
const NAMEID_EMAIL = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";
const SIG = {
  "rsa-sha256": "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
  "rsa-sha512": "http://www.w3.org/2001/04/xmldsig-more#rsa-sha512",
  "rsa-sha1": "http://www.w3.org/2000/09/xmldsig#rsa-sha1",
  "ecdsa-sha256": "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256",
};
const DATA_ALG = {
  "aes128-cbc": "http://www.w3.org/2001/04/xmlenc#aes128-cbc",
  "aes256-cbc": "http://www.w3.org/2001/04/xmlenc#aes256-cbc",
  "aes128-gcm": "http://www.w3.org/2009/xmlenc11#aes128-gcm",
  "aes256-gcm": "http://www.w3.org/2009/xmlenc11#aes256-gcm",
};

const pem = (der, label) =>
  `-----BEGIN ${label}-----\n${Buffer.from(der)
    .toString("base64")
    .match(/.{1,64}/g)
    .join("\n")}\n-----END ${label}-----\n`;
const bareBase64 = (certPem) => certPem.replace(/-----[^-]+-----/g, "").replace(/\s+/g, "");
const escapeXml = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** A key pair and its self-signed certificate (pkijs over Node's WebCrypto). */
async function makeKey(kind, commonName) {
  const algorithm =
    kind === "ec"
      ? { name: "ECDSA", namedCurve: "P-256" }
      : { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" };
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ["sign", "verify"]);
  const engine = new pkijs.CryptoEngine({ name: "node", crypto: webcrypto });
  const cert = new pkijs.Certificate();
  cert.version = 2;
  cert.serialNumber = new asn1js.Integer({ value: Math.floor(Math.random() * 1e9) + 1 });
  const name = () =>
    new pkijs.RelativeDistinguishedNames({
      typesAndValues: [new pkijs.AttributeTypeAndValue({ type: "2.5.4.3", value: new asn1js.Utf8String({ value: commonName }) })],
    });
  cert.issuer = name();
  cert.subject = name();
  cert.notBefore.value = new Date(Date.now() - 86_400_000);
  cert.notAfter.value = new Date(Date.now() + 5 * 365 * 86_400_000);
  await cert.subjectPublicKeyInfo.importKey(keys.publicKey, engine);
  await cert.sign(keys.privateKey, "SHA-256", engine);
  const certPem = pem(cert.toSchema(true).toBER(false), "CERTIFICATE");
  const privateKeyPem = pem(await webcrypto.subtle.exportKey("pkcs8", keys.privateKey), "PRIVATE KEY");
  return { certPem, privateKeyPem };
}

/** xml-crypto has no ECDSA; the test IdP adds ECDSA-SHA256 (XML-DSig 1.1: r||s, IEEE P1363). */
class EcdsaSha256 {
  getSignature(signedInfo, privateKey) {
    return nodeSign("sha256", Buffer.from(signedInfo), { key: privateKey, dsaEncoding: "ieee-p1363" }).toString("base64");
  }
  verifySignature() {
    throw new Error("not used");
  }
  getAlgorithmName() {
    return SIG["ecdsa-sha256"];
  }
}

/** Signs `xpath`'s element of `xml` with xml-crypto and ECDSA (samlify signs RSA only). */
function signEcdsa(xml, xpath, issuerXpath, privateKeyPem, certPem) {
  const sig = new SignedXml({
    privateKey: privateKeyPem,
    publicCert: certPem,
    canonicalizationAlgorithm: "http://www.w3.org/2001/10/xml-exc-c14n#",
    signatureAlgorithm: SIG["ecdsa-sha256"],
  });
  sig.SignatureAlgorithms = { ...sig.SignatureAlgorithms, [SIG["ecdsa-sha256"]]: EcdsaSha256 };
  sig.addReference({
    xpath,
    transforms: ["http://www.w3.org/2000/09/xmldsig#enveloped-signature", "http://www.w3.org/2001/10/xml-exc-c14n#"],
    digestAlgorithm: "http://www.w3.org/2001/04/xmlenc#sha256",
  });
  sig.computeSignature(xml, { prefix: "ds", location: { reference: issuerXpath, action: "after" } });
  return sig.getSignedXml();
}

/**
 * XML Encryption of the assertion with RSA-OAEP over SHA-256 (xmlenc11#rsa-oaep + MGF1-SHA256), which
 * xml-encryption (samlify's) does not offer: Node's crypto, AES-GCM/CBC as XML Enc 1.1 lays them out
 * (CBC with random padding bytes, which a PKCS#7-only decrypter refuses).
 */
function encryptOaepSha256(xml, certPem, dataAlg) {
  const doc = new DOMParser().parseFromString(xml, "application/xml");
  const assertion = doc.getElementsByTagNameNS("urn:oasis:names:tc:SAML:2.0:assertion", "Assertion")[0];
  const plain = Buffer.from(new XMLSerializer().serializeToString(assertion), "utf8");
  const gcm = dataAlg.endsWith("gcm");
  const keyBytes = dataAlg.startsWith("aes128") ? 16 : 32;
  const key = randomBytes(keyBytes);
  const iv = randomBytes(gcm ? 12 : 16);
  const cipher = createCipheriv(`aes-${keyBytes * 8}-${gcm ? "gcm" : "cbc"}`, key, iv);
  // CBC padded as XML Encryption §5.2.1 allows (random bytes, the last one counting them), not PKCS#7.
  let input = plain;
  if (!gcm) {
    const pad = 16 - (plain.length % 16);
    input = Buffer.concat([plain, randomBytes(pad - 1), Buffer.from([pad])]);
    cipher.setAutoPadding(false);
  }
  const body = Buffer.concat([cipher.update(input), cipher.final()]);
  const data = Buffer.concat([iv, body, gcm ? cipher.getAuthTag() : Buffer.alloc(0)]);
  const encryptedKey = publicEncrypt(
    { key: new X509Certificate(certPem).publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" },
    key,
  );
  const fragment = `<saml:EncryptedAssertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"><xenc:EncryptedData xmlns:xenc="http://www.w3.org/2001/04/xmlenc#" Type="http://www.w3.org/2001/04/xmlenc#Element"><xenc:EncryptionMethod Algorithm="${DATA_ALG[dataAlg]}"/><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><xenc:EncryptedKey><xenc:EncryptionMethod Algorithm="http://www.w3.org/2009/xmlenc11#rsa-oaep"><ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/><xenc11:MGF xmlns:xenc11="http://www.w3.org/2009/xmlenc11#" Algorithm="http://www.w3.org/2009/xmlenc11#mgf1sha256"/></xenc:EncryptionMethod><xenc:CipherData><xenc:CipherValue>${encryptedKey.toString("base64")}</xenc:CipherValue></xenc:CipherData></xenc:EncryptedKey></ds:KeyInfo><xenc:CipherData><xenc:CipherValue>${data.toString("base64")}</xenc:CipherValue></xenc:CipherData></xenc:EncryptedData></saml:EncryptedAssertion>`;
  const replacement = new DOMParser().parseFromString(fragment, "application/xml").documentElement;
  assertion.parentNode.replaceChild(doc.importNode(replacement, true), assertion);
  return new XMLSerializer().serializeToString(doc);
}

function attributeStatement(attributes) {
  const entries = Object.entries(attributes ?? {});
  if (entries.length === 0) return "";
  const attrs = entries
    .map(([name, values]) => {
      const list = Array.isArray(values) ? values : [values];
      const vals = list.map((v) => `<saml:AttributeValue xsi:type="xs:string">${escapeXml(v)}</saml:AttributeValue>`).join("");
      return `<saml:Attribute Name="${escapeXml(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:unspecified">${vals}</saml:Attribute>`;
    })
    .join("");
  return `<saml:AttributeStatement>${attrs}</saml:AttributeStatement>`;
}

const authnStatement = (now, sessionIndex) =>
  `<saml:AuthnStatement AuthnInstant="${now}" SessionIndex="${sessionIndex}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`;

export async function startSamlIdp(port = 0) {
  const keys = {
    main: await makeKey("rsa", "Test SAML IdP"),
    other: await makeKey("rsa", "Someone else"),
    ec: await makeKey("ec", "Test SAML IdP (ECDSA)"),
  };
  /** SPs registered for the browser flows, by entityID: their samlify ServiceProvider. */
  const sps = new Map();
  let base = "";

  const idpFor = ({ key = "main", signatureAlgorithm = "rsa-sha256", encrypt, wantAuthnRequestsSigned = false } = {}) =>
    samlify.IdentityProvider({
      entityID: `${base}/idp`,
      privateKey: keys[key === "ec" ? "main" : key].privateKeyPem,
      signingCert: keys[key === "ec" ? "main" : key].certPem,
      requestSignatureAlgorithm: SIG[signatureAlgorithm],
      nameIDFormat: [NAMEID_EMAIL],
      wantAuthnRequestsSigned,
      singleSignOnService: [
        { Binding: REDIRECT, Location: `${base}/sso` },
        { Binding: POST, Location: `${base}/sso` },
      ],
      singleLogoutService: [{ Binding: REDIRECT, Location: `${base}/slo` }],
      isAssertionEncrypted: !!encrypt && encrypt.keyAlg !== "rsa-oaep-sha256",
      dataEncryptionAlgorithm: encrypt ? DATA_ALG[encrypt.dataAlg ?? "aes256-cbc"] : undefined,
      keyEncryptionAlgorithm: "http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p",
    });

  /**
   * A login response, with every value the caller gives (defaults: valid for 5 minutes from now):
   * {acsUrl, spEntityId, spCertificate (PEM, for encryption), nameId, nameIdFormat, attributes {name: values},
   *  inResponseTo (null: IdP-initiated), issuer, audience, destination, recipient, notBefore, notOnOrAfter,
   *  subjectNotOnOrAfter, status, assertionId, responseId, signAssertion (true), signResponse (false),
   *  key ("main" | "other" | "ec"), signatureAlgorithm, encrypt {dataAlg, keyAlg: "rsa-oaep-mgf1p" | "rsa-oaep-sha256"}}
   */
  async function buildResponse(o) {
    const signAssertion = o.signAssertion ?? true;
    const signResponse = o.signResponse ?? false;
    const now = new Date(o.issueInstant ?? Date.now());
    const later = new Date(now.getTime() + 5 * 60_000).toISOString();
    const sp = samlify.ServiceProvider({
      entityID: o.spEntityId,
      assertionConsumerService: [{ Binding: POST, Location: o.acsUrl }],
      wantAssertionsSigned: signAssertion,
      wantMessageSigned: signResponse,
      encryptCert: o.spCertificate,
    });
    const idp = idpFor(o);
    const responseId = o.responseId ?? `_${randomUUID()}`;
    const tvalue = {
      ID: responseId,
      AssertionID: o.assertionId ?? `_${randomUUID()}`,
      Destination: o.destination ?? o.acsUrl,
      Audience: o.audience ?? o.spEntityId,
      SubjectRecipient: o.recipient ?? o.acsUrl,
      Issuer: o.issuer ?? `${base}/idp`,
      IssueInstant: now.toISOString(),
      StatusCode: o.status ?? "urn:oasis:names:tc:SAML:2.0:status:Success",
      ConditionsNotBefore: o.notBefore ?? now.toISOString(),
      ConditionsNotOnOrAfter: o.notOnOrAfter ?? later,
      SubjectConfirmationDataNotOnOrAfter: o.subjectNotOnOrAfter ?? o.notOnOrAfter ?? later,
      NameIDFormat: o.nameIdFormat ?? NAMEID_EMAIL,
      NameID: o.nameId,
      InResponseTo: o.inResponseTo ?? null,
    };
    const ecdsa = o.key === "ec";
    const encryptOurselves = o.encrypt?.keyAlg === "rsa-oaep-sha256";
    const result = await idp.createLoginResponse(
      ecdsa || encryptOurselves
        ? samlify.ServiceProvider({
            entityID: o.spEntityId,
            assertionConsumerService: [{ Binding: POST, Location: o.acsUrl }],
            wantAssertionsSigned: false,
            wantMessageSigned: false,
          })
        : sp,
      null,
      "post",
      { email: o.nameId },
      {
        encryptThenSign: true,
        customTagReplacement: (template) => {
          const withStatements = template
            .replace("{AuthnStatement}", authnStatement(now.toISOString(), `_${randomUUID()}`))
            .replace("{AttributeStatement}", attributeStatement(o.attributes));
          return { id: responseId, context: SamlLib.replaceTagsByValue(withStatements, tvalue) };
        },
      },
    );
    let xml = Buffer.from(result.context, "base64").toString("utf8");
    if (ecdsa || encryptOurselves) {
      // samlify signed the message (its default for an SP that wants nothing): start again from its unsigned template output.
      xml = xml.replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/g, "");
      const assertionXpath = "/*[local-name(.)='Response']/*[local-name(.)='Assertion']";
      const keyPem = keys[ecdsa ? "ec" : "main"];
      if (signAssertion) {
        xml = ecdsa
          ? signEcdsa(xml, assertionXpath, `${assertionXpath}/*[local-name(.)='Issuer']`, keyPem.privateKeyPem, keyPem.certPem)
          : SamlLib.constructSAMLSignature({
              rawSamlMessage: xml,
              referenceTagXPath: assertionXpath,
              privateKey: keyPem.privateKeyPem,
              signatureAlgorithm: SIG[o.signatureAlgorithm ?? "rsa-sha256"],
              signingCert: bareBase64(keyPem.certPem),
              isBase64Output: false,
              signatureConfig: { prefix: "ds", location: { reference: `${assertionXpath}/*[local-name(.)='Issuer']`, action: "after" } },
            });
      }
      if (encryptOurselves) xml = encryptOaepSha256(xml, o.spCertificate, o.encrypt.dataAlg ?? "aes256-gcm");
      if (signResponse) {
        const responseXpath = "/*[local-name(.)='Response']";
        xml = ecdsa
          ? signEcdsa(xml, responseXpath, `${responseXpath}/*[local-name(.)='Issuer']`, keyPem.privateKeyPem, keyPem.certPem)
          : SamlLib.constructSAMLSignature({
              rawSamlMessage: xml,
              isMessageSigned: true,
              privateKey: keyPem.privateKeyPem,
              signatureAlgorithm: SIG[o.signatureAlgorithm ?? "rsa-sha256"],
              signingCert: bareBase64(keyPem.certPem),
              isBase64Output: false,
              signatureConfig: { prefix: "ds", location: { reference: `${responseXpath}/*[local-name(.)='Issuer']`, action: "after" } },
            });
      }
    }
    if (!signAssertion && !signResponse) xml = xml.replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/g, "");
    return { samlResponse: Buffer.from(xml, "utf8").toString("base64"), xml, responseId, assertionId: tvalue.AssertionID };
  }

  const autoPost = (acsUrl, samlResponse, relayState) => `<!doctype html><html><head><title>Signing in…</title></head>
<body><form id="saml" method="post" action="${escapeXml(acsUrl)}"><input type="hidden" name="SAMLResponse" value="${escapeXml(samlResponse)}">${
    relayState ? `<input type="hidden" name="RelayState" value="${escapeXml(relayState)}">` : ""
  }<noscript><button type="submit">Continue</button></noscript></form><script>document.getElementById("saml").submit()</script></body></html>`;

  const loginForm = (hidden) => `<!doctype html><html lang="en"><head><title>Test IdP sign-in</title></head><body><main>
<h1>Test IdP</h1><form method="post" action="/login">
${Object.entries(hidden)
  .map(([k, v]) => `<input type="hidden" name="${k}" value="${escapeXml(v ?? "")}">`)
  .join("")}
<label>Email <input name="email" type="email" required></label>
<label>Name <input name="name"></label>
<button type="submit">Sign in to the IdP</button></form></main></body></html>`;

  /** The IdP's own session (a cookie on its origin), as a real IdP keeps one: a signed-in user skips the form. */
  const sessionOf = (req) => {
    const raw = /(?:^|;\s*)idp_session=([^;]+)/.exec(req.headers.cookie ?? "")?.[1];
    if (!raw) return null;
    try {
      return JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
    } catch {
      return null;
    }
  };
  /** The signed-in user's response to `entry`'s ACS, as the auto-posting page a real IdP answers. */
  async function respond(entry, spEntityId, user, requestId, relayState) {
    const acs = entry.sp.entityMeta.getAssertionConsumerService("post");
    const acsUrl = Array.isArray(acs) ? acs[0] : acs;
    const encryptCert = entry.sp.entityMeta.getX509Certificate("encryption");
    const built = await buildResponse({
      acsUrl,
      spEntityId,
      spCertificate: encryptCert ? `-----BEGIN CERTIFICATE-----\n${encryptCert}\n-----END CERTIFICATE-----` : undefined,
      nameId: user.email,
      attributes: { email: user.email, displayName: user.name || user.email.split("@")[0], groups: ["engineering"] },
      inResponseTo: requestId || null,
      signAssertion: true,
      signResponse: true,
    });
    return autoPost(acsUrl, built.samlResponse, relayState);
  }

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://idp.invalid");
    const send = (status, type, body) => {
      res.writeHead(status, { "content-type": type });
      res.end(body);
    };
    const json = (status, value) => send(status, "application/json", JSON.stringify(value));
    try {
      if (req.method === "GET" && url.pathname === "/keys") {
        return json(200, {
          certificates: Object.fromEntries(Object.entries(keys).map(([k, v]) => [k, v.certPem])),
          entityId: `${base}/idp`,
          ssoUrl: `${base}/sso`,
        });
      }
      if (req.method === "GET" && url.pathname === "/metadata") return send(200, "application/samlmetadata+xml", idpFor().getMetadata());
      if (req.method === "POST" && url.pathname === "/response") return json(200, await buildResponse(JSON.parse(await readBody(req))));
      if (req.method === "POST" && url.pathname === "/sps") {
        const { metadata } = JSON.parse(await readBody(req));
        const sp = samlify.ServiceProvider({ metadata });
        sps.set(sp.entityMeta.getEntityID(), { sp, metadata });
        return json(200, { entityId: sp.entityMeta.getEntityID() });
      }
      if (req.method === "GET" && url.pathname === "/sso") {
        const samlRequest = url.searchParams.get("SAMLRequest") ?? "";
        const requestXml = inflateRawSync(Buffer.from(samlRequest, "base64")).toString("utf8");
        const issuer = /<(?:\w+:)?Issuer[^>]*>([^<]+)</.exec(requestXml)?.[1] ?? "";
        const entry = sps.get(issuer);
        if (!entry) return send(400, "text/plain", `unknown SP ${issuer}`);
        // samlify checks the request (and its signature when the SP signs requests: the query's octet string).
        const octetString = (req.url ?? "")
          .split("?")[1]
          ?.split("&")
          .filter((p) => !p.startsWith("Signature="))
          .join("&");
        // An SP whose metadata says it signs its requests gets them checked (samlify verifies over the octet string).
        const idp = idpFor({ wantAuthnRequestsSigned: entry.sp.entityMeta.isAuthnRequestSigned() });
        let parsed;
        try {
          parsed = await idp.parseLoginRequest(entry.sp, "redirect", { query: Object.fromEntries(url.searchParams), octetString });
        } catch (err) {
          return send(400, "text/plain", `AuthnRequest refused: ${err?.message ?? err}`);
        }
        const relayState = url.searchParams.get("RelayState") ?? "";
        const session = sessionOf(req);
        if (session) return send(200, "text/html", await respond(entry, issuer, session, parsed.extract.request.id, relayState));
        return send(200, "text/html", loginForm({ sp: issuer, requestId: parsed.extract.request.id, relayState }));
      }
      if (req.method === "GET" && url.pathname === "/start") {
        const issuer = url.searchParams.get("sp") ?? "";
        const entry = sps.get(issuer);
        if (!entry) return send(400, "text/plain", `unknown SP ${issuer}`);
        const session = sessionOf(req);
        if (session) return send(200, "text/html", await respond(entry, issuer, session, "", null));
        return send(200, "text/html", loginForm({ sp: issuer, requestId: "", relayState: "" }));
      }
      if (req.method === "POST" && url.pathname === "/login") {
        const form = new URLSearchParams(await readBody(req));
        const entry = sps.get(form.get("sp") ?? "");
        if (!entry) return send(400, "text/plain", "unknown SP");
        const user = { email: form.get("email") ?? "", name: form.get("name") ?? "" };
        res.setHeader(
          "set-cookie",
          `idp_session=${Buffer.from(JSON.stringify(user)).toString("base64url")}; Path=/; HttpOnly; SameSite=Lax`,
        );
        return send(200, "text/html", await respond(entry, form.get("sp"), user, form.get("requestId"), form.get("relayState")));
      }
      return json(404, { error: "not found" });
    } catch (err) {
      return json(500, { error: String(err?.stack ?? err) });
    }
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  const actualPort = server.address().port;
  base = `http://127.0.0.1:${actualPort}`;
  return {
    port: actualPort,
    url: base,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

// `node test/saml-idp.mjs [port]`: run it alone (manual checks).
if (import.meta.url === `file://${process.argv[1]}`) {
  const idp = await startSamlIdp(Number(process.argv[2] ?? 0));
  console.log(`test SAML IdP on ${idp.url}`);
}
