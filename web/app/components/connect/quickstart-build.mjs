/**
 * Builds a quickstart's files as an app would (Node only, for quickstarts.test.ts): writes them to a
 * fresh folder under node_modules/.cache (so react, react-dom and vite's types resolve from the repo's
 * node_modules, as from an app's), bundles the entry with esbuild, and typechecks every file with tsc,
 * with `@doorman/sdk` and `@doorman/sdk/react` pointing at sdk/src, as an installed SDK would.
 * Plain .mjs with its own .d.mts: the console's tsconfig has no Node types.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import ts from "typescript";

const repo = fileURLToPath(new URL("../../../../", import.meta.url));
const sdk = join(repo, "sdk/src");

/**
 * @param {{ path: string; code: string }[]} files the quickstart's files (paths relative to the app)
 * @param {string} entry the file esbuild starts from, e.g. "src/main.tsx"
 */
export async function buildQuickstart(files, entry) {
  const cache = join(repo, "node_modules/.cache");
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, "doorman-quickstart-"));
  try {
    for (const file of files) {
      mkdirSync(dirname(join(dir, file.path)), { recursive: true });
      writeFileSync(join(dir, file.path), file.code);
    }
    const bundle = await build({
      absWorkingDir: dir,
      entryPoints: [join(dir, entry)],
      bundle: true,
      write: false,
      format: "esm",
      platform: "browser",
      jsx: "automatic",
      logLevel: "silent",
      // An installed SDK: the package name, and its React entry, resolve to the SDK's sources.
      alias: { "@doorman/sdk": sdk },
      define: { "import.meta.env": JSON.stringify({ VITE_DOORMAN_URL: "http://localhost:8788" }) },
    }).then(
      (result) => ({ errors: [], bytes: result.outputFiles.reduce((n, f) => n + f.contents.length, 0) }),
      (error) => ({
        errors: (error.errors ?? [error]).map((e) => `${e.location?.file ?? ""}:${e.location?.line ?? ""} ${e.text ?? e}`),
        bytes: 0,
      }),
    );
    return { bundleErrors: bundle.errors, bundleBytes: bundle.bytes, typeErrors: typecheck(dir, files) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** tsc over the files, strict, as a Vite React app's tsconfig (the SDK's own flags on top). */
function typecheck(dir, files) {
  const options = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
    jsx: ts.JsxEmit.ReactJSX,
    strict: true,
    noUncheckedIndexedAccess: true,
    isolatedModules: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
    baseUrl: dir,
    paths: { "@doorman/sdk": [join(sdk, "index.ts")], "@doorman/sdk/react": [join(sdk, "react/index.ts")] },
  };
  const roots = files.filter((f) => /\.tsx?$/.test(f.path)).map((f) => join(dir, f.path));
  const program = ts.createProgram(roots, options);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : null;
    const name = d.file ? d.file.fileName.replace(`${dir}/`, "") : "";
    return `${name}${where ? `:${where.line + 1}` : ""} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  });
}
