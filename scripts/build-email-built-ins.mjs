#!/usr/bin/env node
// Precompiles the built-in emails (worker/services/email/defaults.ts: every built-in template in every
// built-in theme) so that sending one costs milliseconds instead of a sandbox render (~200 ms of CPU,
// most of it Tailwind). Each is rendered here, in Node, by the worker's own renderer
// (worker/email-render/render.ts: the same sucrase, QuickJS and library bundle), with a placeholder in
// place of every value (the project's and user's names, each variable); the output keeps the
// placeholders as slots:
//   worker/email-render/generated/built-in-emails.js   `export default { entries: [...] }` (gitignored)
// At run time built-in-fast.ts fills the slots with the HTML-escaped values (React escapes a text or an
// attribute the same way) and writes the plain text from that HTML with html-to-text, as the sandbox does.
// A placeholder cannot stand in a condition: the one value the built-in templates test
// (`user.displayName ? ", " + user.displayName : ""`) gets both branches (a "named" and an "anonymous"
// form); the unsubscribe link (a condition in the themes, never set for built-in emails) is not
// precompiled, nor is anything empty: those render in the sandbox. Run by scripts/build-email-sandbox.mjs
// (so by the postinstall and pre* hooks) after the library bundle; skipped when its inputs' hash (in the
// output's first line) has not changed.
//   node scripts/build-email-built-ins.mjs [--force]
import { createHash } from "node:crypto";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const renderDir = join(root, "worker", "email-render");
const generatedDir = join(renderDir, "generated");
const outFile = join(generatedDir, "built-in-emails.js");
const defaultsFile = join(root, "worker", "services", "email", "defaults.ts");
/** worker/email-render's modules that the build-time render runs (an edit to any of them renders anew). */
const RENDERER_FILES = ["render.ts", "sandbox.ts", "compile.ts", "output.ts", "cache.ts"];

/** One placeholder per slot: private-use characters React and html-to-text pass through untouched. */
const placeholder = (i) => `\uE000${i}\uE001`;
const PLACEHOLDERS = /\uE000(\d+)\uE001/;

function inputsHash() {
  const h = createHash("sha256");
  h.update(readFileSync(fileURLToPath(import.meta.url)));
  h.update(readFileSync(defaultsFile));
  // The renderer that runs here and the library bundle (its first line carries its own inputs' hash).
  for (const f of RENDERER_FILES) h.update(f).update(readFileSync(join(renderDir, f)));
  h.update(readFileSync(join(generatedDir, "sandbox-lib.js"), "utf8").split("\n", 1)[0]);
  const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8"));
  h.update(`sucrase@${lock.packages?.["node_modules/sucrase"]?.version}`);
  return h.digest("hex").slice(0, 16);
}

/** The worker's renderer and the built-in sources, bundled for Node (the .wasm import becomes a compiled module). */
async function loadRenderer() {
  const esbuild = await import("esbuild");
  const temp = join(generatedDir, `.built-ins-renderer-${process.pid}.mjs`);
  await esbuild.build({
    stdin: {
      contents: [
        'export { renderEmailSources } from "./worker/email-render/render.ts";',
        'export { DEFAULT_LIMITS } from "./worker/email-render/sandbox.ts";',
        'export { DEFAULT_EMAIL_TEMPLATES, DEFAULT_EMAIL_THEMES } from "./worker/services/email/defaults.ts";',
      ].join("\n"),
      resolveDir: root,
      loader: "ts",
    },
    bundle: true,
    platform: "node",
    format: "esm",
    packages: "external",
    outfile: temp,
    logLevel: "warning",
    plugins: [
      {
        name: "wasm-module",
        setup(build) {
          build.onLoad({ filter: /\.wasm$/ }, (args) => ({
            contents: `import { readFileSync } from "node:fs";\nexport default new WebAssembly.Module(readFileSync(${JSON.stringify(args.path)}));`,
            loader: "js",
          }));
        },
      },
    ],
  });
  try {
    return await import(pathToFileURL(temp).href);
  } finally {
    rmSync(temp, { force: true });
  }
}

/** `export const variablesSchema = type({ a: "string", b: "string" })` → ["a", "b"]; null for any other schema. */
function stringVariables(source) {
  const m = source.match(/export const variablesSchema = type\((\{[^}]*\})\);/);
  if (!m) return null;
  const body = m[1].slice(1, -1).trim();
  if (body === "") return [];
  const names = [];
  for (const field of body.split(",")) {
    const f = field.trim().match(/^([A-Za-z_$][\w$]*)\s*:\s*"string"$/);
    if (!f) return null;
    names.push(f[1]);
  }
  return names;
}

/** "a\uE0000\uE001b" → ["a", 0, "b"]: literal text around slot numbers. */
function slotted(s, slotCount) {
  const parts = s.split(PLACEHOLDERS).map((p, i) => (i % 2 === 1 ? Number(p) : p));
  for (let i = 1; i < parts.length; i += 2) if (!(parts[i] < slotCount)) throw new Error(`unknown slot ${parts[i]}`);
  for (let i = 0; i < parts.length; i += 2)
    if (/[\uE000\uE001]/.test(parts[i])) throw new Error("a placeholder was changed on its way through the render");
  return parts;
}

export async function buildBuiltInEmails({ force = false } = {}) {
  const hash = inputsHash();
  const header = `// Generated by scripts/build-email-built-ins.mjs (inputs ${hash}); do not edit.\n`;
  if (!force && existsSync(outFile) && readFileSync(outFile, "utf8").startsWith(header)) return;

  const started = Date.now();
  const { renderEmailSources, DEFAULT_LIMITS, DEFAULT_EMAIL_TEMPLATES, DEFAULT_EMAIL_THEMES } = await loadRenderer();
  // Node's clock moves during a render: a busy build machine must not trip the sandbox's wall-clock guard.
  const limits = { ...DEFAULT_LIMITS, wallClockMs: 120_000 };
  const entries = [];
  const skipped = [];
  for (const [templateId, template] of Object.entries(DEFAULT_EMAIL_TEMPLATES)) {
    const variables = stringVariables(template.tsxSource);
    if (!variables) {
      skipped.push(`${template.displayName} (its variablesSchema is not a plain object of strings)`);
      continue;
    }
    const slots = ["user.displayName", "project.displayName", ...variables.map((v) => `variables.${v}`)];
    for (const [themeId, theme] of Object.entries(DEFAULT_EMAIL_THEMES)) {
      const forms = {};
      for (const form of ["named", "anonymous"]) {
        const result = await renderEmailSources(
          {
            themeSource: theme.tsxSource,
            templateSource: template.tsxSource,
            variables: Object.fromEntries(variables.map((v, i) => [v, placeholder(i + 2)])),
            user: { displayName: form === "named" ? placeholder(0) : null },
            project: { displayName: placeholder(1) },
          },
          limits,
        );
        if (!result.ok)
          throw new Error(`the built-in template ${template.displayName} does not render in ${theme.displayName}: ${result.error}`);
        forms[form] = {
          html: slotted(result.html, slots.length),
          subject: slotted(result.subject, slots.length),
          ...(result.notificationCategory !== undefined ? { notificationCategory: result.notificationCategory } : {}),
        };
      }
      entries.push({ templateId, themeId, templateSource: template.tsxSource, themeSource: theme.tsxSource, variables, slots, ...forms });
    }
  }
  writeFileSync(outFile, `${header}export default ${JSON.stringify({ entries })};\n`);
  console.log(
    `[email-sandbox] precompiled ${entries.length} built-in emails into ${outFile.slice(root.length + 1)} in ${Date.now() - started} ms` +
      (skipped.length ? `; not precompiled: ${skipped.join(", ")}` : ""),
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildBuiltInEmails({ force: process.argv.includes("--force") });
}
