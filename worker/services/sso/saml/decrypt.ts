/**
 * Decrypts a SAML EncryptedAssertion (XML Encryption 1.0/1.1) with the connection's SP private key, on
 * WebCrypto (issue 31). Key transport: RSA-OAEP (xmlenc#rsa-oaep-mgf1p, xmlenc11#rsa-oaep with the same
 * digest for OAEP and MGF1). Data: AES-128/256-CBC and AES-128/256-GCM. RSA PKCS#1 v1.5 key transport
 * and 3DES are refused (Bleichenbacher-style oracles; WebCrypto has neither anyway).
 */
import type { Element } from "@xmldom/xmldom";
import { decodeBase64Strict } from "./pem";
import { refuse, type SamlRefusal } from "./refusal";
import { attr, child, children, NS, textOf } from "./xml";

const ELEMENT_TYPE = "http://www.w3.org/2001/04/xmlenc#Element";
const DIGESTS: Record<string, string> = {
  // SHA-1 inside OAEP is a mask/label hash, not a collision-resistant commitment: RSA-OAEP with SHA-1 stays
  // secure (RFC 8017 §7.1), and it is what most IdPs send (mgf1p), so it is accepted here, unlike in signatures.
  "http://www.w3.org/2000/09/xmldsig#sha1": "SHA-1",
  "http://www.w3.org/2001/04/xmlenc#sha256": "SHA-256",
  "http://www.w3.org/2001/04/xmldsig-more#sha384": "SHA-384",
  "http://www.w3.org/2001/04/xmlenc#sha512": "SHA-512",
};
const MGFS: Record<string, string> = {
  "http://www.w3.org/2009/xmlenc11#mgf1sha1": "SHA-1",
  "http://www.w3.org/2009/xmlenc11#mgf1sha256": "SHA-256",
  "http://www.w3.org/2009/xmlenc11#mgf1sha384": "SHA-384",
  "http://www.w3.org/2009/xmlenc11#mgf1sha512": "SHA-512",
};
const CIPHERS: Record<string, { mode: "CBC" | "GCM"; keyBytes: number }> = {
  "http://www.w3.org/2001/04/xmlenc#aes128-cbc": { mode: "CBC", keyBytes: 16 },
  "http://www.w3.org/2001/04/xmlenc#aes256-cbc": { mode: "CBC", keyBytes: 32 },
  "http://www.w3.org/2009/xmlenc11#aes128-gcm": { mode: "GCM", keyBytes: 16 },
  "http://www.w3.org/2009/xmlenc11#aes256-gcm": { mode: "GCM", keyBytes: 32 },
};

/** The decrypted assertion's XML text, or why it could not be decrypted. */
export type Decrypted = { ok: true; xml: string } | SamlRefusal;

type KeyTransport = { hash: string; label: Uint8Array<ArrayBuffer> | null };

/** The OAEP parameters of an EncryptedKey's EncryptionMethod; a string when they are not ones WebCrypto can do. */
function keyTransportOf(method: Element | null): KeyTransport | string {
  const algorithm = method ? attr(method, "Algorithm") : null;
  const digestEl = method ? child(method, NS.ds, "DigestMethod") : null;
  const digestUri = digestEl ? attr(digestEl, "Algorithm") : null;
  const digest = digestUri === null ? "SHA-1" : DIGESTS[digestUri];
  if (!digest) return `OAEP digest not accepted: ${digestUri}`;
  const paramsEl = method ? child(method, NS.xenc, "OAEPparams") : null;
  const label = paramsEl ? decodeBase64Strict(textOf(paramsEl) ?? "") : null;
  if (paramsEl && !label) return "OAEPparams is not base64";
  if (algorithm === "http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p") {
    // mgf1p fixes MGF1 to SHA-1; WebCrypto uses one hash for both, so only SHA-1 digests fit.
    return digest === "SHA-1" ? { hash: "SHA-1", label } : "rsa-oaep-mgf1p with a digest other than SHA-1";
  }
  if (algorithm === "http://www.w3.org/2009/xmlenc11#rsa-oaep") {
    const mgfEl = method ? child(method, NS.xenc11, "MGF") : null;
    const mgfUri = mgfEl ? attr(mgfEl, "Algorithm") : null;
    const mgf = mgfUri === null ? "SHA-1" : MGFS[mgfUri];
    if (mgf !== digest) return "rsa-oaep with different OAEP and MGF1 digests";
    return { hash: digest, label };
  }
  return `key transport not accepted: ${algorithm ?? "none"}`;
}

async function unwrapKey(encryptedKey: Element, spPrivateKeyPkcs8: Uint8Array<ArrayBuffer>): Promise<Uint8Array | string> {
  const transport = keyTransportOf(child(encryptedKey, NS.xenc, "EncryptionMethod"));
  if (typeof transport === "string") return transport;
  const cipherValue = child(child(encryptedKey, NS.xenc, "CipherData") ?? encryptedKey, NS.xenc, "CipherValue");
  const wrapped = decodeBase64Strict(textOf(cipherValue) ?? "");
  if (!wrapped) return "EncryptedKey CipherValue is not base64";
  try {
    const key = await crypto.subtle.importKey("pkcs8", spPrivateKeyPkcs8, { name: "RSA-OAEP", hash: transport.hash }, false, ["decrypt"]);
    const params: SubtleCryptoEncryptAlgorithm = transport.label ? { name: "RSA-OAEP", label: transport.label } : { name: "RSA-OAEP" };
    return new Uint8Array(await crypto.subtle.decrypt(params, key, wrapped));
  } catch {
    return "the EncryptedKey does not open with the connection's SP key";
  }
}

/**
 * AES-CBC as XML Encryption pads it: the last byte counts the padding, the other padding bytes are
 * arbitrary (not PKCS#7, which WebCrypto insists on). So one block is appended that decrypts to a full
 * PKCS#7 block (E_K(0x10… XOR last ciphertext block), made with a one-block CBC encryption under a zero
 * IV); WebCrypto then strips only that, and the XML Encryption padding is removed here.
 */
async function decryptCbc(keyBytes: Uint8Array<ArrayBuffer>, data: Uint8Array<ArrayBuffer>): Promise<Uint8Array | null> {
  if (data.length < 32 || data.length % 16 !== 0) return null;
  const key = await crypto.subtle.importKey("raw", keyBytes, "AES-CBC", false, ["encrypt", "decrypt"]);
  const iv = data.slice(0, 16);
  const body = data.slice(16);
  const last = body.slice(body.length - 16);
  const block = new Uint8Array(16);
  for (let i = 0; i < 16; i++) block[i] = 0x10 ^ (last[i] ?? 0);
  const encrypted = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-CBC", iv: new Uint8Array(16) }, key, block));
  const extended = new Uint8Array(body.length + 16);
  extended.set(body);
  extended.set(encrypted.subarray(0, 16), body.length);
  const plain = new Uint8Array(await crypto.subtle.decrypt({ name: "AES-CBC", iv }, key, extended));
  const pad = plain[plain.length - 1] ?? 0;
  if (pad < 1 || pad > 16 || pad > plain.length) return null;
  return plain.subarray(0, plain.length - pad);
}

async function decryptGcm(keyBytes: Uint8Array<ArrayBuffer>, data: Uint8Array<ArrayBuffer>): Promise<Uint8Array | null> {
  if (data.length < 12 + 16) return null;
  const key = await crypto.subtle.importKey("raw", keyBytes, "AES-GCM", false, ["decrypt"]);
  // XML Encryption 1.1 §5.2.4: IV (96 bits) || ciphertext || tag (128 bits).
  return new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv: data.slice(0, 12), tagLength: 128 }, key, data.slice(12)));
}

/** The EncryptedKeys that may hold the data key: inside the EncryptedData's KeyInfo, or beside it (RetrievalMethod style). */
function encryptedKeysOf(encryptedAssertion: Element, encryptedData: Element): Element[] {
  const keyInfo = child(encryptedData, NS.ds, "KeyInfo");
  const inside = keyInfo ? children(keyInfo, NS.xenc, "EncryptedKey") : [];
  return [...inside, ...children(encryptedAssertion, NS.xenc, "EncryptedKey")].slice(0, 4);
}

export async function decryptAssertion(encryptedAssertion: Element, spPrivateKeyPkcs8: Uint8Array<ArrayBuffer>): Promise<Decrypted> {
  const data = children(encryptedAssertion, NS.xenc, "EncryptedData");
  if (data.length !== 1) return refuse("decryption_failed", "EncryptedAssertion without exactly one EncryptedData");
  const encryptedData = data[0] as Element;
  const type = attr(encryptedData, "Type");
  if (type !== null && type !== ELEMENT_TYPE) return refuse("decryption_failed", "EncryptedData is not an element");
  const methodEl = child(encryptedData, NS.xenc, "EncryptionMethod");
  const cipher = CIPHERS[(methodEl && attr(methodEl, "Algorithm")) ?? ""];
  if (!cipher) return refuse("decryption_failed", `data encryption not accepted: ${(methodEl && attr(methodEl, "Algorithm")) ?? "none"}`);
  const cipherValue = child(child(encryptedData, NS.xenc, "CipherData") ?? encryptedData, NS.xenc, "CipherValue");
  const ciphertext = decodeBase64Strict(textOf(cipherValue) ?? "");
  if (!ciphertext) return refuse("decryption_failed", "EncryptedData CipherValue is not base64");

  let lastWhy = "no EncryptedKey";
  for (const encryptedKey of encryptedKeysOf(encryptedAssertion, encryptedData)) {
    const key = await unwrapKey(encryptedKey, spPrivateKeyPkcs8);
    if (typeof key === "string") {
      lastWhy = key;
      continue;
    }
    if (key.length !== cipher.keyBytes) return refuse("decryption_failed", "the data key has the wrong length for its cipher");
    try {
      const keyBytes = new Uint8Array(key);
      const plain = cipher.mode === "CBC" ? await decryptCbc(keyBytes, ciphertext) : await decryptGcm(keyBytes, ciphertext);
      if (!plain) return refuse("decryption_failed", "the encrypted assertion does not decrypt");
      return { ok: true, xml: new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(plain) };
    } catch {
      return refuse("decryption_failed", "the encrypted assertion does not decrypt");
    }
  }
  return refuse("decryption_failed", lastWhy);
}
