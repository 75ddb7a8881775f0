/**
 * The Argon2id wrapper computes standard Argon2id (v=19): known answers computed independently
 * with hash-wasm's Argon2id (a separate implementation), in the workerd runtime the API runs on.
 */
import { describe, expect, it } from "vitest";
import { argon2idRaw } from "../../worker/crypto/argon2id";

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const utf8 = (text: string) => new TextEncoder().encode(text);
const salt = utf8("somesaltsomesalt");

describe("argon2idRaw", () => {
  it("matches an independent implementation at Doorman's parameters (m=19456, t=2, p=1)", () => {
    const tag = argon2idRaw(utf8("password"), salt, { memoryKiB: 19_456, passes: 2, parallelism: 1 }, 32);
    expect(hex(tag)).toBe("2b5dc4054886ec957ef59c73b661c54dd6fb274590b278f657c6d96aac8fa6d1");
  });

  it("hashes all UTF-8 bytes of a non-ASCII password", () => {
    const tag = argon2idRaw(utf8("pässwörd"), salt, { memoryKiB: 64, passes: 2, parallelism: 1 }, 32);
    expect(hex(tag)).toBe("05030f5788f21cd051c2540c4f9549e3e9f54f61d7760506bb8a6bc57100d3ba");
  });

  it("gives the same answer again after other hashes (the instance's memory is reused cleanly)", () => {
    const params = { memoryKiB: 64, passes: 2, parallelism: 1 };
    const first = hex(argon2idRaw(utf8("pässwörd"), salt, params, 32));
    argon2idRaw(utf8("something else entirely"), utf8("another salt 123"), { memoryKiB: 19_456, passes: 2, parallelism: 1 }, 32);
    expect(hex(argon2idRaw(utf8("pässwörd"), salt, params, 32))).toBe(first);
  });
});
