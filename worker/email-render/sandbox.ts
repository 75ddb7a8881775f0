/**
 * The QuickJS sandbox that runs owners' TSX themes and templates (compiled to CommonJS by compile.ts).
 *
 * Warm, yet fresh for every render: loading the library bundle (generated/sandbox-lib.js: React,
 * @react-email/components, arktype, html-to-text) into a QuickJS context costs ~0.4-0.6 s of CPU, far
 * too much per email. So each isolate keeps one QuickJS instance with the libraries loaded, copies
 * its whole WebAssembly memory once (the snapshot), and after EVERY render writes the snapshot back
 * (and zeroes any memory the render grew): the next render starts from exactly the bytes it had
 * before the first one, so nothing a template does (patched prototypes, globals, library state)
 * survives into another render. The host keeps no handle across renders. Restoring costs a memory
 * copy of a few MB (figures in docs/benchmarks.md).
 *
 * Limits: a heap cap (setMemoryLimit), a stack cap, and a CPU budget counted in interrupt-handler
 * calls: workerd's clocks do not move during synchronous work, so a time-based deadline would never
 * fire. If the WebAssembly instance itself fails (a trap, an abort), it is dropped and the next
 * render builds a new one.
 */

import releaseSyncVariant from "@jitl/quickjs-wasmfile-release-sync";
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSContext,
  type QuickJSRuntime,
  type QuickJSWASMModule,
} from "quickjs-emscripten-core";
import wasmModule from "./generated/quickjs.wasm";
import librarySource from "./generated/sandbox-lib.js";

export type SandboxLimits = {
  /** Heap cap in bytes for the libraries plus one render. */
  memoryBytes: number;
  /** Stack cap in bytes. */
  stackBytes: number;
  /** CPU budget per render: interrupt-handler calls before it is stopped (calibrated in docs/benchmarks.md). */
  interruptBudget: number;
};

/**
 * 48 MB of QuickJS heap in all: the libraries hold ~14 MB, so a render has ~34 MB. The isolate also
 * holds the snapshot (~26 MB) and the WebAssembly memory never shrinks, so this keeps the whole
 * sandbox near 90 MB of the isolate's 128 MB at worst. 32,000 interrupt checks are ~1 s of CPU in
 * workerd on the dev machine (~32 per ms); a Tailwind-themed email takes ~2,000. 256 KB of QuickJS
 * stack is ~1,400 nested JS calls; at 512 KB workerd's own stack ran out first (the host fallback
 * then rebuilds the instance, but QuickJS's own "stack overflow" error is the clearer answer).
 */
export const DEFAULT_LIMITS: SandboxLimits = {
  memoryBytes: 48 * 1024 * 1024,
  stackBytes: 256 * 1024,
  interruptBudget: 32_000,
};

/** A compiled module to define in the sandbox: its file name shows in errors' stack traces. */
export type SandboxModule = { name: "theme" | "template"; file: string; code: string };

export type SandboxOutcome =
  | { ok: true; json: string }
  | { ok: false; kind: "error" | "interrupted" | "out-of-memory"; message: string; stack?: string };

type Warm = {
  runtime: QuickJSRuntime;
  context: QuickJSContext;
  memory: WebAssembly.Memory;
  snapshot: Uint8Array;
  /** Interrupt-handler calls in the current render, and that render's budget. */
  meter: { calls: number; budget: number };
};

let warm: Promise<Warm> | null = null;

/** A new QuickJS instance with the libraries loaded, and its memory snapshot. */
async function boot(): Promise<Warm> {
  const engine: QuickJSWASMModule = await newQuickJSWASMModuleFromVariant(newVariant(releaseSyncVariant, { wasmModule }));
  const runtime = engine.newRuntime();
  const meter = { calls: 0, budget: Number.POSITIVE_INFINITY };
  runtime.setInterruptHandler(() => ++meter.calls > meter.budget);
  const context = runtime.newContext();
  const lib = context.evalCode(librarySource, "doorman-email-lib.js");
  if (lib.error) {
    const err = context.dump(lib.error);
    throw new Error(`The email sandbox's libraries failed to load: ${JSON.stringify(err)}`);
  }
  lib.value.dispose();
  const warmUp = context.evalCode("__doorman.warmUp()", "doorman-warm-up.js");
  if (warmUp.error) throw new Error(`The email sandbox's warm-up render failed: ${JSON.stringify(context.dump(warmUp.error))}`);
  warmUp.value.dispose();
  const memory = engine.getWasmMemory();
  // Up to the last non-zero byte: past it the memory is zeros, which restore() writes anyway.
  const bytes = new Uint8Array(memory.buffer);
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end--;
  return { runtime, context, memory, snapshot: bytes.slice(0, end), meter };
}

/** Puts the instance back to the snapshot: every byte, and zeroes where the render grew the memory. */
function restore(w: Warm): void {
  const bytes = new Uint8Array(w.memory.buffer);
  bytes.set(w.snapshot);
  if (bytes.length > w.snapshot.length) bytes.fill(0, w.snapshot.length);
}

type GuestError = { name?: string; message?: string; stack?: string };

function outcomeOf(context: QuickJSContext, handle: Parameters<QuickJSContext["dump"]>[0], meter: Warm["meter"]): SandboxOutcome {
  const dumped = context.dump(handle) as GuestError | string | null;
  const err: GuestError = typeof dumped === "object" && dumped !== null ? dumped : { message: String(dumped) };
  const message = err.message ?? String(dumped);
  if (meter.calls > meter.budget) return { ok: false, kind: "interrupted", message };
  if (/out of memory/i.test(message)) return { ok: false, kind: "out-of-memory", message };
  const name = err.name && err.name !== "Error" ? `${err.name}: ` : "";
  return { ok: false, kind: "error", message: `${name}${message}`, stack: err.stack };
}

/** Evaluates `code` as a global script; the result's string value, or the guest's failure. */
function evaluate(w: Warm, code: string, file: string): SandboxOutcome {
  const result = w.context.evalCode(code, file);
  if (result.error) return outcomeOf(w.context, result.error, w.meter);
  const value = w.context.typeof(result.value) === "string" ? w.context.getString(result.value) : "";
  return { ok: true, json: value };
}

function render(w: Warm, modules: SandboxModule[], inputJson: string, limits: SandboxLimits): SandboxOutcome {
  w.runtime.setMemoryLimit(limits.memoryBytes);
  w.runtime.setMaxStackSize(limits.stackBytes);
  w.meter.calls = 0;
  w.meter.budget = limits.interruptBudget;
  for (const m of modules) {
    // The wrapper opens on the code's first line, so the guest's line numbers stay its own.
    const defined = evaluate(w, `__doorman.define(${JSON.stringify(m.name)}, function (exports, require, module) {${m.code}\n});`, m.file);
    if (!defined.ok) return defined;
  }
  return evaluate(w, `__doorman.render(${JSON.stringify(inputJson)})`, "doorman-render.js");
}

/** Renders in the warm instance and restores it; never throws for anything the guest does. */
export async function runInSandbox(
  modules: SandboxModule[],
  inputJson: string,
  limits: SandboxLimits = DEFAULT_LIMITS,
): Promise<SandboxOutcome> {
  warm ??= boot();
  let w: Warm;
  try {
    w = await warm;
  } catch (error) {
    warm = null;
    return { ok: false, kind: "error", message: error instanceof Error ? error.message : String(error) };
  }
  // From here to the restore there is no await: no other request's render can interleave.
  try {
    return render(w, modules, inputJson, limits);
  } catch (error) {
    warm = null;
    return { ok: false, kind: "error", message: `The email sandbox failed: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    if (warm) {
      try {
        restore(w);
      } catch {
        warm = null;
      }
    }
  }
}

/** Drops the warm instance: the next render boots a new one (the bench's cold figures). */
export function dropWarmSandbox(): void {
  warm = null;
}

/** Size of the warm instance's snapshot in bytes (for the bench), booting it if needed. */
export async function warmSandboxSnapshotBytes(): Promise<number> {
  warm ??= boot();
  return (await warm).snapshot.length;
}
