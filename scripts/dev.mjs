#!/usr/bin/env node
// `npm run dev`: the API worker alone under `wrangler dev` on http://127.0.0.1:8787 in development mode
// (web/vite.config.ts's dev server proxies /api there), with the email renderer Worker in a workerd
// process of its own (scripts/email-renderer-process.mjs): the API reaches it as EMAIL_RENDERER through a
// private wrangler dev registry, so a hostile template cannot stall the API's thread. Extra arguments go
// to the API's `wrangler dev` (e.g. `npm run dev -- --inspector-port 9230`). Ctrl+C stops both.
import { spawn } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { startEmailRenderer } from "./email-renderer-process.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const wrangler = join(root, "node_modules", ".bin", "wrangler");

const renderer = await startEmailRenderer();
console.log(`\x1b[36m[doorman]\x1b[0m email renderer (worker/email-render) in its own workerd process on ${renderer.url}`);
const api = spawn(wrangler, ["dev", "--ip", "127.0.0.1", "--port", "8787", "--var", "ENVIRONMENT:development", ...process.argv.slice(2)], {
  cwd: root,
  env: { ...process.env, ...renderer.registryEnv },
  stdio: "inherit",
});

let stopping = false;
function stop(signal) {
  if (stopping) return;
  stopping = true;
  api.kill(signal);
  void renderer.stop();
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => stop(signal));
api.on("exit", async (code, signal) => {
  stopping = true;
  await renderer.stop();
  process.exit(code ?? (signal ? 1 : 0));
});
