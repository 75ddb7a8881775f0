/**
 * A software WebAuthn authenticator for tests: a real P-256 key (WebCrypto), "none" attestation
 * in CBOR, authenticator data and clientDataJSON built byte for byte, DER-encoded ES256
 * signatures. It answers the server's options the way a browser + platform authenticator would.
 */
import { isoCBOR } from "@simplewebauthn/server/helpers";
import { base64url } from "jose";

export type CeremonyTarget = { origin: string; rpId?: string };

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const utf8 = (s: string) => new TextEncoder().encode(s);
const sha256 = async (data: Uint8Array<ArrayBuffer>) => new Uint8Array(await crypto.subtle.digest("SHA-256", data));
const uint32 = (n: number) => new Uint8Array([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);

/** ASN.1 DER of an ECDSA (r, s) pair, as authenticators send it (WebCrypto gives raw r||s). */
function derSignature(raw: Uint8Array): Uint8Array<ArrayBuffer> {
  const integer = (bytes: Uint8Array) => {
    let i = 0;
    while (i < bytes.length - 1 && bytes[i] === 0) i++;
    const trimmed = bytes.slice(i);
    const body = trimmed[0]! & 0x80 ? concat(new Uint8Array([0]), trimmed) : trimmed;
    return concat(new Uint8Array([0x02, body.length]), body);
  };
  const seq = concat(integer(raw.slice(0, 32)), integer(raw.slice(32)));
  return concat(new Uint8Array([0x30, seq.length]), seq);
}

function clientData(type: "webauthn.create" | "webauthn.get", challenge: string, origin: string): Uint8Array<ArrayBuffer> {
  return utf8(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
}

export class SoftAuthenticator {
  /** The signature counter; each assertion increments it first (set it to simulate a clone). */
  counter = 0;

  private constructor(
    readonly credentialId: Uint8Array<ArrayBuffer>,
    private readonly keys: CryptoKeyPair,
    private readonly cosePublicKey: Uint8Array,
  ) {}

  static async create(): Promise<SoftAuthenticator> {
    const keys = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
    const jwk = (await crypto.subtle.exportKey("jwk", keys.publicKey)) as JsonWebKey;
    // COSE_Key: kty EC2 (2), alg ES256 (-7), crv P-256 (1), x, y.
    const cose = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, base64url.decode(jwk.x!)],
      [-3, base64url.decode(jwk.y!)],
    ]);
    return new SoftAuthenticator(crypto.getRandomValues(new Uint8Array(16)), keys, isoCBOR.encode(cose));
  }

  get id(): string {
    return base64url.encode(this.credentialId);
  }

  /** The browser's JSON answer to `navigator.credentials.create(options_json)` on `target`. */
  async register(options: { challenge: string }, target: CeremonyTarget) {
    const rpId = target.rpId ?? new URL(target.origin).hostname;
    const authData = concat(
      await sha256(utf8(rpId)),
      new Uint8Array([FLAG_UP | FLAG_UV | FLAG_AT]),
      uint32(this.counter),
      new Uint8Array(16), // AAGUID: none
      new Uint8Array([this.credentialId.length >> 8, this.credentialId.length & 255]),
      this.credentialId,
      this.cosePublicKey,
    );
    const attestation = new Map<string, string | Uint8Array | Map<string, number>>([
      ["fmt", "none"],
      ["attStmt", new Map<string, number>()],
      ["authData", authData],
    ]);
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: base64url.encode(clientData("webauthn.create", options.challenge, target.origin)),
        attestationObject: base64url.encode(isoCBOR.encode(attestation)),
        transports: ["internal"],
      },
      authenticatorAttachment: "platform",
      clientExtensionResults: { credProps: { rk: true } },
    };
  }

  /** The browser's JSON answer to `navigator.credentials.get(options_json)` on `target`. */
  async authenticate(
    options: { challenge: string },
    target: CeremonyTarget & { userHandle?: string; tamper?: boolean; withoutUserVerification?: boolean },
  ) {
    this.counter += 1;
    const rpId = target.rpId ?? new URL(target.origin).hostname;
    // UV: the device checked a PIN or biometric; without it the assertion proves possession only.
    const flags = target.withoutUserVerification ? FLAG_UP : FLAG_UP | FLAG_UV;
    const authData = concat(await sha256(utf8(rpId)), new Uint8Array([flags]), uint32(this.counter));
    const clientDataJSON = clientData("webauthn.get", options.challenge, target.origin);
    const raw = new Uint8Array(
      await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, this.keys.privateKey, concat(authData, await sha256(clientDataJSON))),
    );
    if (target.tamper) raw[10] = raw[10]! ^ 0x01;
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: base64url.encode(clientDataJSON),
        authenticatorData: base64url.encode(authData),
        signature: base64url.encode(derSignature(raw)),
        ...(target.userHandle ? { userHandle: target.userHandle } : {}),
      },
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
    };
  }
}
