// Doorman's password hash, run in Node for the benches: the same libargon2 WebAssembly module the
// worker imports (@phi-ag/argon2), with the parameters read from worker/crypto/password.ts, so a
// bench's "one hash" figure follows the code instead of a copy of its constants.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const require = createRequire(import.meta.url);

/** Doorman's Argon2id parameters, as worker/crypto/password.ts declares them. */
export function doormanHashParams(root) {
  const src = readFileSync(join(root, "worker", "crypto", "password.ts"), "utf8");
  const m = src.match(/const ARGON2 = \{ memoryKiB: ([\d_]+), passes: (\d+), parallelism: (\d+) \}/);
  const keyLen = Number(src.match(/const KEY_LEN = (\d+);/)?.[1]);
  if (!m || !Number.isFinite(keyLen)) throw new Error("Argon2id parameters not found in worker/crypto/password.ts");
  const [memoryKiB, passes, parallelism] = m.slice(1).map((v) => Number(v.replaceAll("_", "")));
  return { memoryKiB, passes, parallelism, keyLen };
}

export const describeDoormanHash = (p) =>
  `Argon2id m=${p.memoryKiB} KiB (${(p.memoryKiB / 1024).toFixed(0)} MiB), t=${p.passes}, p=${p.parallelism}, ${p.keyLen}-byte tag`;

/** A function hashing `password` (string) once with Doorman's parameters and a fixed salt. */
export function doormanHasher(params) {
  const wasmPath = require.resolve("@phi-ag/argon2/argon2.wasm");
  const { exports: w } = new WebAssembly.Instance(new WebAssembly.Module(readFileSync(wasmPath)), {});
  w._initialize();
  const salt = new Uint8Array(16).fill(1);
  return (password) => {
    const bytes = new TextEncoder().encode(password);
    const [pwd, s, out] = [w.malloc(bytes.length), w.malloc(salt.length), w.malloc(params.keyLen)];
    new Uint8Array(w.memory.buffer).set(bytes, pwd);
    new Uint8Array(w.memory.buffer).set(salt, s);
    const code = w.argon2_hash(
      params.passes,
      params.memoryKiB,
      params.parallelism,
      pwd,
      bytes.length,
      s,
      salt.length,
      out,
      params.keyLen,
      0,
      0,
      2,
      0x13,
    );
    for (const p of [pwd, s, out]) w.free(p);
    if (code !== 0) throw new Error(`argon2_hash failed (${code})`);
  };
}
