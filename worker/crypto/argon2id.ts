/**
 * Argon2id (RFC 9106) from libargon2, the reference C implementation, as the statically imported
 * WebAssembly module that @phi-ag/argon2 builds (SIMD). Workers refuse to compile WebAssembly from
 * bytes at run time; an imported `.wasm` is compiled at deploy time, so this runs in production.
 *
 * The package's own JS wrapper passes `password.length` (UTF-16 units) as the byte length, which
 * would silently truncate non-ASCII passwords. This thin wrapper calls libargon2's `argon2_hash`
 * with the real UTF-8 byte length and no encoded string (the PHC string is built by the caller).
 */
import argon2Wasm from "@phi-ag/argon2/argon2.wasm";

type Exports = {
  memory: WebAssembly.Memory;
  _initialize(): void;
  malloc(size: number): number;
  free(ptr: number): void;
  argon2_hash(
    tCost: number,
    mCost: number,
    parallelism: number,
    pwd: number,
    pwdLen: number,
    salt: number,
    saltLen: number,
    hash: number,
    hashLen: number,
    encoded: number,
    encodedLen: number,
    type: number,
    version: number,
  ): number;
};

const ARGON2_ID = 2;
const ARGON2_VERSION_13 = 0x13;

export type Argon2Params = { memoryKiB: number; passes: number; parallelism: number };

// One instance per isolate: its linear memory grows once to the working set (~19 MiB at OWASP's
// parameters) and is reused, so memory stays bounded; the hash queue keeps runs one at a time.
let wasm: Exports | undefined;
function instance(): Exports {
  if (!wasm) {
    wasm = new WebAssembly.Instance(argon2Wasm, {}).exports as unknown as Exports;
    wasm._initialize();
  }
  return wasm;
}

/** The raw Argon2id tag of `password` (UTF-8 bytes) under `salt`. Throws on a libargon2 error. */
export function argon2idRaw(password: Uint8Array, salt: Uint8Array, params: Argon2Params, tagLength: number): Uint8Array {
  const w = instance();
  const pwd = w.malloc(Math.max(password.length, 1));
  const saltPtr = w.malloc(salt.length);
  const out = w.malloc(tagLength);
  try {
    new Uint8Array(w.memory.buffer).set(password, pwd);
    new Uint8Array(w.memory.buffer).set(salt, saltPtr);
    const code = w.argon2_hash(
      params.passes,
      params.memoryKiB,
      params.parallelism,
      pwd,
      password.length,
      saltPtr,
      salt.length,
      out,
      tagLength,
      0,
      0,
      ARGON2_ID,
      ARGON2_VERSION_13,
    );
    if (code !== 0) throw new Error(`argon2_hash failed (${code})`);
    return new Uint8Array(w.memory.buffer).slice(out, out + tagLength);
  } finally {
    // The password's bytes do not outlive the call in the shared linear memory.
    new Uint8Array(w.memory.buffer).fill(0, pwd, pwd + password.length);
    w.free(pwd);
    w.free(saltPtr);
    w.free(out);
  }
}
