/**
 * The QuickJS sandbox that runs owners' TSX themes and templates (compiled to CommonJS by compile.ts).
 *
 * Warm, yet fresh for every render: loading the library bundle (generated/sandbox-lib.js: React,
 * @react-email/components, arktype, html-to-text) into a QuickJS context costs ~0.8 s of CPU, far too
 * much per email. So each isolate boots one QuickJS instance with the libraries loaded, copies its
 * whole WebAssembly memory once (the snapshot: ~20 MB of the ~28 MB, zero runs left out), and after
 * EVERY render writes the snapshot back: the next render starts from exactly the bytes the first one
 * did, so nothing a template does (patched prototypes, globals, library state) survives into another
 * render. The host keeps no QuickJS handle across renders.
 *
 * Limits (docs/emails.md):
 * - Memory: the WebAssembly memory is created with a MAXIMUM of 64 MB, so a render can never take
 *   more than that (~36 MB above the booted libraries): a failed grow is a failed malloc, which
 *   QuickJS reports as "out of memory". QuickJS's own setMemoryLimit is no total bound in this build
 *   (without malloc_usable_size it counts 8 bytes per live block plus the one request), so it is set
 *   only to refuse a single allocation above the render's share early. WebAssembly memory never
 *   shrinks: when a render grew it past the snapshot's size, the instance is dropped (GC frees that
 *   whole Memory) and the next render gets a fresh instance in a new Memory of the snapshot's size,
 *   with the snapshot written into it (~20 ms: no library load). The isolate's sandbox therefore holds
 *   ~28 MB of memory plus the ~20 MB snapshot between renders, and at most 64 MB + the snapshot during one.
 * - CPU: a budget of 5,000 interrupt-handler calls (QuickJS calls the handler every ~10,000 backward
 *   jumps and calls; a tight loop makes one every ~0.2 ms of CPU, so it stops after ~1 s; a Tailwind
 *   email makes ~130). workerd's clocks do not move during synchronous work in production, so the count is
 *   the bound there; a 3 s wall-clock deadline is checked as well, which only fires where the clock
 *   moves (local wrangler dev and the vitest pool, Node). The count is no CPU measure: work between two
 *   checks varies (allocating loop bodies ~7 ms, a long straight-line body or one native call more:
 *   a naive string search, a sweep over a huge sparse array, comparing big strings). The memory cap
 *   bounds what allocates; the rest is bounded by the renderer Worker's platform CPU limit (cpu_ms),
 *   see docs/emails.md.
 * - Stack: 256 KB of QuickJS stack (~1,400 nested JS calls).
 * If the WebAssembly instance itself fails (a trap), or a render never finished (the platform stopped
 * the request mid-render), the instance is dropped the same way and the next render gets a fresh one.
 */

import releaseSyncVariant from "@jitl/quickjs-wasmfile-release-sync";
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSContext, type QuickJSRuntime } from "quickjs-emscripten-core";
import wasmModule from "./generated/quickjs.wasm";
import librarySource from "./generated/sandbox-lib.js";

const PAGE_BYTES = 64 * 1024;
/** The QuickJS module's own minimum memory (its import declares 256 pages). */
const MODULE_MIN_PAGES = 256;

/** The WebAssembly memory's maximum: the libraries (~28 MB booted) plus every render's allocations. */
export const SANDBOX_MEMORY_MAX_BYTES = 64 * 1024 * 1024;

export type SandboxLimits = {
  /** QuickJS's own allocation limit (a single allocation above it fails at once; the total is bounded by SANDBOX_MEMORY_MAX_BYTES). */
  memoryBytes: number;
  /** Stack cap in bytes. */
  stackBytes: number;
  /** CPU budget per render: interrupt-handler calls before it is stopped (calibrated in docs/benchmarks.md). */
  interruptBudget: number;
  /** Secondary wall-clock deadline, effective only where the clock moves during synchronous work (not workerd in production). */
  wallClockMs: number;
};

/**
 * Calibrated in workerd (docs/benchmarks.md): a tight loop makes an interrupt check every ~0.18 ms of
 * CPU (up to ~0.5 ms of wall time on a busy machine), so 5,000 checks stop it after ~1 s; a
 * Tailwind-themed email makes ~130 checks (~2.5 ms each: Tailwind allocates a lot), a 100-row Tailwind
 * table ~2,500, <CodeBlock> (Prism loading) ~2,200. Code that allocates in every iteration runs ~7 ms
 * between two checks, and a long straight-line loop body more: those are bounded by the platform's
 * cpu_ms (and the wall clock, where it moves). The wall-clock deadline is generous: where it moves it
 * also counts time the isolate waited for a busy machine. 256 KB of QuickJS stack is ~1,400 nested JS
 * calls; at 512 KB workerd's own stack ran out first. 32 MB: QuickJS refuses a single allocation above
 * it at once.
 */
export const DEFAULT_LIMITS: SandboxLimits = {
  memoryBytes: 32 * 1024 * 1024,
  stackBytes: 256 * 1024,
  interruptBudget: 5_000,
  wallClockMs: 3_000,
};

/** A compiled module to define in the sandbox: its file name shows in errors' stack traces. */
export type SandboxModule = { name: "theme" | "template"; file: string; code: string };

export type SandboxOutcome =
  | { ok: true; json: string }
  | { ok: false; kind: "error" | "interrupted" | "out-of-memory"; message: string; stack?: string };

/** The booted state to come back to: the memory's bytes, its size, and where the runtime and context live in it. */
type Image = {
  pages: number;
  /** The non-zero runs of the memory (zero runs of 64 KB or more are left out). */
  segments: { at: number; bytes: Uint8Array }[];
  snapshotBytes: number;
  runtimePointer: number;
  contextPointer: number;
};

type Meter = { calls: number; budget: number; deadline: number; stopped: "budget" | "clock" | null };

type Warm = {
  runtime: QuickJSRuntime;
  context: QuickJSContext;
  memory: WebAssembly.Memory;
  meter: Meter;
  /** Set while a render runs: still set at the next render means the platform stopped that one mid-way. */
  busy: boolean;
  /** False once dropped: a caller that awaited it before must take the next instance. */
  alive: boolean;
};

let image: Image | null = null;
let lastRun: SandboxRun | null = null;
let warm: Promise<Warm> | null = null;
/** The current instance once booted (for sandboxMemory, which must not boot). */
let current: Warm | null = null;

const pointerOf = (o: unknown, field: "rt" | "ctx"): number => (o as Record<string, { value: number }>)[field]!.value;

/** A QuickJS instance in a new bounded Memory of `pages`, with a runtime (and its interrupt handler) and a context. */
async function instantiate(pages: number): Promise<Warm> {
  const memory = new WebAssembly.Memory({ initial: pages, maximum: SANDBOX_MEMORY_MAX_BYTES / PAGE_BYTES });
  const engine = await newQuickJSWASMModuleFromVariant(newVariant(releaseSyncVariant, { wasmModule, wasmMemory: memory }));
  if (engine.getWasmMemory() !== memory) throw new Error("The email sandbox's QuickJS did not take the bounded memory.");
  const runtime = engine.newRuntime();
  const meter: Meter = { calls: 0, budget: Number.POSITIVE_INFINITY, deadline: Number.POSITIVE_INFINITY, stopped: null };
  runtime.setInterruptHandler(() => {
    // The count is the bound in production (workerd's clock stands still during synchronous work); the
    // clock only adds a deadline where it moves (local dev, Node).
    if (++meter.calls > meter.budget) meter.stopped = "budget";
    else if (Date.now() > meter.deadline) meter.stopped = "clock";
    return meter.stopped !== null;
  });
  const context = runtime.newContext();
  return { runtime, context, memory, meter, busy: false, alive: true };
}

function takeImage(w: Warm): Image {
  const bytes = new Uint8Array(w.memory.buffer);
  const words = new Uint32Array(w.memory.buffer); // a memory is whole 64 KB pages: whole words and blocks
  const segments: Image["segments"] = [];
  const BLOCK = 4096;
  const MIN_GAP = 64 * 1024;
  const blockIsZero = (at: number) => {
    for (let i = at / 4, end = (at + BLOCK) / 4; i < end; i++) if (words[i] !== 0) return false;
    return true;
  };
  let start = -1;
  let zeroRun = 0;
  for (let at = 0; at < bytes.length; at += BLOCK) {
    if (blockIsZero(at)) {
      zeroRun += BLOCK;
      continue;
    }
    if (start >= 0 && zeroRun >= MIN_GAP) {
      segments.push({ at: start, bytes: bytes.slice(start, at - zeroRun) });
      start = -1;
    }
    if (start < 0) start = at;
    zeroRun = 0;
  }
  if (start >= 0) segments.push({ at: start, bytes: bytes.slice(start, bytes.length - zeroRun) });
  return {
    pages: bytes.length / PAGE_BYTES,
    segments,
    snapshotBytes: segments.reduce((n, s) => n + s.bytes.length, 0),
    runtimePointer: pointerOf(w.runtime, "rt"),
    contextPointer: pointerOf(w.context, "ctx"),
  };
}

/** Writes the image into the memory: its runs, zeros everywhere else. */
function writeImage(memory: WebAssembly.Memory, img: Image): void {
  const bytes = new Uint8Array(memory.buffer);
  let at = 0;
  for (const s of img.segments) {
    if (s.at > at) bytes.fill(0, at, s.at);
    bytes.set(s.bytes, s.at);
    at = s.at + s.bytes.length;
  }
  if (bytes.length > at) bytes.fill(0, at);
}

/** A new QuickJS instance with the libraries loaded (and warmed up), and its image. */
async function boot(): Promise<Warm> {
  const w = await instantiate(MODULE_MIN_PAGES);
  const lib = w.context.evalCode(librarySource, "doorman-email-lib.js");
  if (lib.error) {
    const err = w.context.dump(lib.error);
    throw new Error(`The email sandbox's libraries failed to load: ${JSON.stringify(err)}`);
  }
  lib.value.dispose();
  const warmUp = w.context.evalCode("__doorman.warmUp()", "doorman-warm-up.js");
  if (warmUp.error) throw new Error(`The email sandbox's warm-up render failed: ${JSON.stringify(w.context.dump(warmUp.error))}`);
  warmUp.value.dispose();
  image = takeImage(w);
  return w;
}

/**
 * A fresh instance from the image, without loading the libraries again: a new module in a new Memory
 * of the image's size creates its runtime and context at the same addresses as the boot did (same
 * module, same allocation sequence), then the image's bytes replace the whole memory. Anything else
 * (another address) means the image does not fit this instance: boot from scratch.
 */
async function restoreFresh(img: Image): Promise<Warm> {
  const w = await instantiate(img.pages);
  if (pointerOf(w.runtime, "rt") !== img.runtimePointer || pointerOf(w.context, "ctx") !== img.contextPointer) {
    image = null;
    return boot();
  }
  writeImage(w.memory, img);
  return w;
}

function start(): Promise<Warm> {
  const next = (image ? restoreFresh(image) : boot()).then((w) => {
    current = w;
    return w;
  });
  next.catch(() => {
    if (warm === next) warm = null;
  });
  return next;
}

/** Forgets the instance: nothing references its Memory any more, and the next render starts another. */
function drop(w: Warm): void {
  w.alive = false;
  if (current === w) current = null;
  warm = null;
}

type GuestError = { name?: string; message?: string; stack?: string };

const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max)}…` : s);

function outcomeOf(w: Warm, handle: Parameters<QuickJSContext["dump"]>[0]): SandboxOutcome {
  let dumped: GuestError | string | null;
  try {
    dumped = w.context.dump(handle) as GuestError | string | null;
  } catch {
    dumped = { message: "out of memory" };
  }
  try {
    handle.dispose();
  } catch {
    // the memory is restored or dropped anyway
  }
  const err: GuestError = typeof dumped === "object" && dumped !== null ? dumped : { message: String(dumped) };
  // The guest chooses its error's text: keep what an owner reads (and the log stores) short.
  const message = clip(String(err.message ?? dumped), 1000);
  if (typeof err.stack === "string") err.stack = clip(err.stack, 4000);
  if (typeof err.name === "string") err.name = clip(err.name, 100);
  if (w.meter.stopped !== null) return { ok: false, kind: "interrupted", message };
  // "string too long" is QuickJS's cap on one string's length (2^30), reached by doubling a string.
  if (/out of memory|string too long/i.test(message)) return { ok: false, kind: "out-of-memory", message };
  // With the memory at its maximum QuickJS may not even allocate its error object, and throws null.
  const nearMax = w.memory.buffer.byteLength > SANDBOX_MEMORY_MAX_BYTES - 4 * 1024 * 1024;
  if (nearMax && (dumped === null || dumped === undefined)) return { ok: false, kind: "out-of-memory", message };
  const name = err.name && err.name !== "Error" ? `${err.name}: ` : "";
  return { ok: false, kind: "error", message: `${name}${message}`, stack: err.stack };
}

/** Evaluates `code` as a global script; the result's string value, or the guest's failure. */
function evaluate(w: Warm, code: string, file: string): SandboxOutcome {
  const result = w.context.evalCode(code, file);
  if (result.error) return outcomeOf(w, result.error);
  const value = w.context.typeof(result.value) === "string" ? w.context.getString(result.value) : "";
  result.value.dispose();
  return { ok: true, json: value };
}

function render(w: Warm, modules: SandboxModule[], inputJson: string, limits: SandboxLimits): SandboxOutcome {
  w.runtime.setMemoryLimit(limits.memoryBytes);
  w.runtime.setMaxStackSize(limits.stackBytes);
  w.meter.calls = 0;
  w.meter.stopped = null;
  w.meter.budget = limits.interruptBudget;
  w.meter.deadline = Date.now() + limits.wallClockMs;
  for (const m of modules) {
    // The wrapper opens on the code's first line, so the guest's line numbers stay its own.
    const defined = evaluate(w, `__doorman.define(${JSON.stringify(m.name)}, function (exports, require, module) {${m.code}\n});`, m.file);
    if (!defined.ok) return defined;
  }
  return evaluate(w, `__doorman.render(${JSON.stringify(inputJson)})`, "doorman-render.js");
}

/** The warm instance, booting or restoring one if needed (and replacing one a stopped render left behind). */
async function acquire(): Promise<Warm> {
  for (;;) {
    warm ??= start();
    const w = await warm;
    if (!w.alive) continue;
    if (w.busy) {
      drop(w);
      continue;
    }
    return w;
  }
}

/** Renders in the warm instance and restores it; never throws for anything the guest does. */
export async function runInSandbox(
  modules: SandboxModule[],
  inputJson: string,
  limits: SandboxLimits = DEFAULT_LIMITS,
): Promise<SandboxOutcome> {
  let w: Warm;
  try {
    w = await acquire();
  } catch (error) {
    return { ok: false, kind: "error", message: error instanceof Error ? error.message : String(error) };
  }
  // From here to the restore there is no await: no other request's render can interleave.
  w.busy = true;
  let outcome: SandboxOutcome;
  try {
    outcome = render(w, modules, inputJson, limits);
  } catch (error) {
    lastRun = { interruptCalls: w.meter.calls, stoppedBy: w.meter.stopped, wasmBytes: w.memory.buffer.byteLength };
    // The host side failed: a WebAssembly trap (an abort inside QuickJS, e.g. on a failed allocation) or a host stack overflow.
    drop(w);
    const message = error instanceof Error ? error.message : String(error);
    if (w.memory.buffer.byteLength > image!.pages * PAGE_BYTES) return { ok: false, kind: "out-of-memory", message };
    return { ok: false, kind: "error", message: `The email sandbox failed: ${message}` };
  }
  lastRun = { interruptCalls: w.meter.calls, stoppedBy: w.meter.stopped, wasmBytes: w.memory.buffer.byteLength };
  if (w.alive) {
    if (w.memory.buffer.byteLength === image!.pages * PAGE_BYTES) {
      try {
        writeImage(w.memory, image!);
        w.busy = false;
      } catch {
        drop(w);
      }
    } else drop(w); // it grew: only a new Memory gives the bytes back
  }
  return outcome;
}

/** What the last render used: interrupt checks, what stopped it if anything, and its WebAssembly memory at the end. */
export type SandboxRun = { interruptCalls: number; stoppedBy: "budget" | "clock" | null; wasmBytes: number };

/** The last render's figures (for the tests and the bench's calibration). */
export function lastSandboxRun(): SandboxRun | null {
  return lastRun;
}

/** Drops the warm instance AND its image: the next render boots from scratch (the bench's cold figures). */
export function dropWarmSandbox(): void {
  if (current) drop(current);
  warm = null;
  image = null;
}

/** Drops the warm instance but keeps the image: the next render restores a fresh instance (the bench's figure for that). */
export function dropWarmInstance(): void {
  if (current) drop(current);
  warm = null;
}

/** Size of the image's snapshot in bytes (for the bench), booting if needed. */
export async function warmSandboxSnapshotBytes(): Promise<number> {
  await acquire();
  return image!.snapshotBytes;
}

/**
 * What the sandbox holds now: the live instance's WebAssembly memory (0 between a dropped instance
 * and the next render) and the snapshot kept to restore it. For the tests and the bench.
 */
export function sandboxMemory(): { wasmBytes: number; snapshotBytes: number; maxWasmBytes: number } {
  return {
    wasmBytes: current?.alive ? current.memory.buffer.byteLength : 0,
    snapshotBytes: image?.snapshotBytes ?? 0,
    maxWasmBytes: SANDBOX_MEMORY_MAX_BYTES,
  };
}
