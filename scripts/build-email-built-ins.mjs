#!/usr/bin/env node
// Precompiles the built-in emails (worker/services/email/defaults.ts: every built-in template in every
// built-in theme) so that sending one costs milliseconds instead of a sandbox render (~200 ms of CPU,
// most of it Tailwind), in every locale. Each template is rendered here once per theme, in Node, by the
// worker's own renderer (worker/email-render/render.ts: the same sucrase, QuickJS and library bundle),
// in its "probe" form: a placeholder in place of every value (the project's and user's names, each
// variable) and of every text (the subject, heading, … and the theme's lang and dir, which the locales
// give: worker/services/email/messages/). The output keeps both as slots:
//   worker/email-render/generated/built-in-emails.js   `export default { entries: [...] }` (gitignored)
// At run time built-in-fast.ts fills the text slots with the reader's locale's texts (their values
// inside) and the value slots with the values, all HTML-escaped as React escapes a text or an attribute,
// and writes the plain text from that HTML with html-to-text, as the sandbox does: the bytes the sandbox
// renders from that locale's sources (tested for every kind). One render per template and theme serves
// all 13 locales, so the build takes as long as with English alone.
// A placeholder cannot stand in a condition: the one value the built-in templates test
// (`user.displayName ? … : …`) gets both branches (a "named" and an "anonymous" form); the unsubscribe
// link (a condition in the themes, never set for built-in emails) is not precompiled, nor is anything
// empty: those render in the sandbox. Run by scripts/build-email-sandbox.mjs (so by the postinstall and
// pre* hooks) after the library bundle; skipped when its inputs' hash (in the output's first line) has
// not changed.
//   node scripts/build-email-built-ins.mjs [--force]
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const renderDir = join(root, "worker", "email-render");
const generatedDir = join(renderDir, "generated");
const outFile = join(generatedDir, "built-in-emails.js");
const emailDir = join(root, "worker", "services", "email");
/** The built-in sources and what writes them: the catalogue's shape decides the probe's slots. */
const SOURCE_FILES = ["defaults.ts", "locale.ts", ...readdirSync(join(emailDir, "messages")).map((f) => `messages/${f}`)].sort();
/** worker/email-render's modules that the build-time render runs (an edit to any of them renders anew). */
const RENDERER_FILES = ["render.ts", "sandbox.ts", "compile.ts", "output.ts", "cache.ts", "message-format.ts"];

/** One placeholder per value slot: private-use characters React and html-to-text pass through untouched. */
const placeholder = (i) => `\uE000${i}\uE001`;
/** A value slot (its number) or a text slot (its key, messageSlot() of worker/email-render/message-format.ts). */
const SLOTS = /\uE000(\d+)\uE001|\uE002([A-Za-z][A-Za-z0-9]*)\uE003/g;

function inputsHash() {
  const h = createHash("sha256");
  h.update(readFileSync(fileURLToPath(import.meta.url)));
  for (const f of SOURCE_FILES) h.update(f).update(readFileSync(join(emailDir, f)));
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
        'export { BUILT_IN_TEMPLATE_IDS, DEFAULT_EMAIL_TEMPLATES, DEFAULT_EMAIL_THEMES, builtInTemplateSource, builtInTexts, builtInThemeSource } from "./worker/services/email/defaults.ts";',
        'export { DEFAULT_EMAIL_LOCALE } from "./worker/services/email/locale.ts";',
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

/**
 * "a\uE0000\uE001b\uE002heading\uE003c" → ["a", 0, "b", "heading", "c"]: literal text at even indexes; at odd
 * ones a value slot's number or a text slot's key (one of `texts`).
 */
function slotted(s, slotCount, texts) {
  const parts = [];
  let last = 0;
  for (const m of s.matchAll(SLOTS)) {
    parts.push(s.slice(last, m.index));
    if (m[1] !== undefined) {
      if (!(Number(m[1]) < slotCount)) throw new Error(`unknown slot ${m[1]}`);
      parts.push(Number(m[1]));
    } else {
      if (!Object.hasOwn(texts, m[2])) throw new Error(`unknown text slot ${m[2]}`);
      parts.push(m[2]);
    }
    last = m.index + m[0].length;
  }
  parts.push(s.slice(last));
  for (let i = 0; i < parts.length; i += 2)
    if (/[\uE000-\uE003]/.test(parts[i])) throw new Error("a placeholder was changed on its way through the render");
  return parts;
}

export async function buildBuiltInEmails({ force = false } = {}) {
  const hash = inputsHash();
  const header = `// Generated by scripts/build-email-built-ins.mjs (inputs ${hash}); do not edit.\n`;
  if (!force && existsSync(outFile) && readFileSync(outFile, "utf8").startsWith(header)) return;

  const started = Date.now();
  const m = await loadRenderer();
  // Node's clock moves during a render: a busy build machine must not trip the sandbox's wall-clock guard.
  const limits = { ...m.DEFAULT_LIMITS, wallClockMs: 120_000 };
  const entries = [];
  const skipped = [];
  for (const [kind, templateId] of Object.entries(m.BUILT_IN_TEMPLATE_IDS)) {
    const template = m.DEFAULT_EMAIL_TEMPLATES[templateId];
    const variables = stringVariables(template.tsxSource);
    if (!variables) {
      skipped.push(`${template.displayName} (its variablesSchema is not a plain object of strings)`);
      continue;
    }
    const slots = ["user.displayName", "project.displayName", ...variables.map((v) => `variables.${v}`)];
    // The English texts, which the English sources (the lookup key) are written with.
    const texts = m.builtInTexts(kind, m.DEFAULT_EMAIL_LOCALE);
    const probeTemplate = m.builtInTemplateSource(kind, "probe");
    for (const [themeId, theme] of Object.entries(m.DEFAULT_EMAIL_THEMES)) {
      const forms = {};
      for (const form of ["named", "anonymous"]) {
        const result = await m.renderEmailSources(
          {
            themeSource: m.builtInThemeSource(themeId, "probe"),
            templateSource: probeTemplate,
            variables: Object.fromEntries(variables.map((v, i) => [v, placeholder(i + 2)])),
            user: { displayName: form === "named" ? placeholder(0) : null },
            project: { displayName: placeholder(1) },
          },
          limits,
        );
        if (!result.ok)
          throw new Error(`the built-in template ${template.displayName} does not render in ${theme.displayName}: ${result.error}`);
        forms[form] = {
          html: slotted(result.html, slots.length, texts),
          subject: slotted(result.subject, slots.length, texts),
          ...(result.notificationCategory !== undefined ? { notificationCategory: result.notificationCategory } : {}),
        };
      }
      entries.push({
        templateId,
        themeId,
        templateSource: template.tsxSource,
        themeSource: theme.tsxSource,
        variables,
        slots,
        texts,
        ...forms,
      });
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
