#!/usr/bin/env node
// The folder rule of `npm run check`: imports between worker/'s folders point down the layer order
// (CONTRIBUTING.md, "Layers"). Reads madge's import graph of worker/ and fails, naming each offending
// import, when a file imports a folder of a higher layer. Imports within one layer are free.
//
//   node scripts/check-layers.mjs            check (exit 1 on an upward import)
//   node scripts/check-layers.mjs --graph    also print every folder-level arrow with its import count
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const madge = createRequire(import.meta.url)("madge");
// From the root: the wire contract's alias (`@doorman/shared/*`, tsconfig.base.json `paths` without a
// baseUrl) resolves against the current directory in madge's resolver, so it lands in sdk/src/shared/.
process.chdir(root);

/** The layers, bottom first. A folder may import its own layer and the layers below it, never above. */
const LAYERS = [
  ["lib", "sdk/shared"], // the ground: helpers and the SDK's wire contract (sdk/src/shared)
  ["config", "env", "internal-seed"], // internal-seed.ts: the internal project's seed ids and dev keys
  ["crypto", "db", "kv", "email-render"], // infrastructure
  ["services", "durable"], // domain operations (services/<feature>/ included)
  ["http", "middleware", "views"], // the HTTP pipeline: route declarations, middleware, wire views
  ["routes"],
  ["app", "index", "scheduled"], // worker/app.ts, worker/index.ts, worker/scheduled.ts
];
const layerOf = new Map(LAYERS.flatMap((names, i) => names.map((name) => [name, i])));

/** The folder a file belongs to: its top folder under worker/ (a top-level file is its own), or sdk/shared
 *  (the wire contract, imported as `@doorman/shared/…`: madge reports the resolved file under sdk/src/shared/). */
function folderOf(file) {
  if (file.startsWith("sdk/src/shared/")) return "sdk/shared";
  if (file.startsWith("sdk/")) return "sdk";
  if (!file.startsWith("worker/")) return file;
  const [top, ...rest] = file.slice("worker/".length).split("/");
  return rest.length === 0 ? top.replace(/\.tsx?$/, "") : top;
}

/** The feature folder for the --graph listing: services/<feature> when the file is in one. */
function groupOf(file) {
  const m = /^worker\/services\/([^/]+)\/.+/.exec(file);
  return m ? `services/${m[1]}` : folderOf(file);
}

const result = await madge("worker", { baseDir: root, fileExtensions: ["ts", "tsx"], tsConfig: resolve(root, "tsconfig.json") });
const graph = result.obj();

const upward = [];
const unplaced = new Set();
const arrows = new Map();
for (const [file, imports] of Object.entries(graph)) {
  for (const target of imports) {
    const from = folderOf(file);
    const to = folderOf(target);
    if (groupOf(file) !== groupOf(target)) {
      const key = `${groupOf(file)} -> ${groupOf(target)}`;
      arrows.set(key, (arrows.get(key) ?? 0) + 1);
    }
    if (from === to) continue;
    for (const f of [from, to]) if (!layerOf.has(f)) unplaced.add(f);
    if (layerOf.has(from) && layerOf.has(to) && layerOf.get(to) > layerOf.get(from)) upward.push({ from, to, file, target });
  }
}

if (process.argv.includes("--graph")) {
  console.log("folder-level arrows (imports):");
  for (const key of [...arrows.keys()].sort()) console.log(`  ${key} (${arrows.get(key)})`);
}

let ok = true;
// An alias madge could not resolve would drop its arrows from the graph and hide an upward import.
const unresolved = result.warnings().skipped.filter((dep) => dep.startsWith("@doorman/"));
if (unresolved.length) {
  ok = false;
  console.error(`Imports madge could not resolve (check the paths of tsconfig.base.json): ${unresolved.join(", ")}`);
}
if (unplaced.size) {
  ok = false;
  console.error(`Folders with no layer (add them to LAYERS in scripts/check-layers.mjs): ${[...unplaced].sort().join(", ")}`);
}
if (upward.length) {
  ok = false;
  console.error(`${upward.length} import(s) point up the layer order (${LAYERS.map((l) => l.join(", ")).join("  <  ")}):`);
  for (const u of upward.sort((a, b) => `${a.from}${a.to}${a.file}`.localeCompare(`${b.from}${b.to}${b.file}`)))
    console.error(`  ${u.from} -> ${u.to}: ${u.file} imports ${u.target}`);
  console.error("Move the shared piece down a layer, or pass it in from above (CONTRIBUTING.md, Layers).");
}
const files = Object.keys(graph).filter((f) => f.startsWith("worker/")).length;
if (ok) console.log(`layers ok: ${files} worker files, no import points up (${LAYERS.map((l) => l.join(", ")).join("  <  ")})`);
process.exit(ok ? 0 : 1);
