/**
 * The SDK-size bundles (issue 16): one entry shape per package, built the same way for Doorman's
 * SDK and for the published Stack Auth SDK, so that only the library differs. Used by run.mjs
 * (`npm run size`, all four) and guard.mjs (the `npm run check` step, Doorman's two only).
 *
 * - core: construct the client app and call `signInWithCredential({ email, password })`.
 * - react: `<StackProvider app={app}>` around a component that calls `useUser()` and `<SignIn />`.
 *
 * esbuild, minified, tree-shaken, ESM for the browser, `process.env.NODE_ENV` = "production";
 * react and react-dom external on both sides. Sizes are gzip level 9 of the one output file.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const benchDir = join(root, "test", "bench", "sdk-size");

/** The root's pinned esbuild (a devDependency), never the one the reference packages bring along. */
export const esbuild = createRequire(join(root, "package.json"))("esbuild");

const coreEntry = (appFrom) => `import { StackClientApp } from ${JSON.stringify(appFrom)};
export async function signIn(email, password) {
  const app = new StackClientApp({ projectId: "p", publishableClientKey: "k", tokenStore: "cookie" });
  return app.signInWithCredential({ email, password });
}
`;

const reactEntry = (appFrom, reactFrom) => `import { StackClientApp } from ${JSON.stringify(appFrom)};
import { SignIn, StackProvider, useUser } from ${JSON.stringify(reactFrom)};
const app = new StackClientApp({ projectId: "p", publishableClientKey: "k", tokenStore: "cookie" });
function Who() {
  const user = useUser();
  return <p>{user ? user.primaryEmail : "signed out"}</p>;
}
export function App() {
  return (
    <StackProvider app={app}>
      <Who />
      <SignIn />
    </StackProvider>
  );
}
`;

/** The four bundles: `side` is "doorman" or "reference"; `kind` is "core" or "react". */
export const BUNDLES = [
  { id: "doorman-core", side: "doorman", kind: "core", entry: coreEntry("./sdk/src/index.ts"), resolveDir: root },
  {
    id: "doorman-react",
    side: "doorman",
    kind: "react",
    entry: reactEntry("./sdk/src/index.ts", "./sdk/src/react/index.ts"),
    resolveDir: root,
  },
  { id: "stack-js", side: "reference", kind: "core", entry: coreEntry("@stackframe/js"), resolveDir: benchDir },
  {
    id: "stack-react",
    side: "reference",
    kind: "react",
    entry: reactEntry("@stackframe/react", "@stackframe/react"),
    resolveDir: benchDir,
  },
];

export const BUILD_OPTIONS = {
  bundle: true,
  minify: true,
  treeShaking: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  jsx: "automatic",
  external: ["react", "react-dom", "react/*", "react-dom/*"],
  define: { "process.env.NODE_ENV": '"production"' },
  legalComments: "none",
  logLevel: "error",
};

/** The package (or the repo folder, two levels deep) an input file of the bundle belongs to. */
function owner(input) {
  const pkg = input.match(/.*node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1];
  return pkg ?? input.split("/").slice(0, 3).join("/");
}

/**
 * Builds one bundle into `outDir` and measures it.
 * @returns {{ id: string, raw: number, gzip: number, files: [string, number][], owners: [string, number][] }}
 *   files / owners: minified bytes in the output per input file / per package, largest first.
 */
export async function buildBundle(bundle, outDir) {
  mkdirSync(outDir, { recursive: true });
  const outfile = join(outDir, `${bundle.id}.js`);
  const result = await esbuild.build({
    ...BUILD_OPTIONS,
    stdin: { contents: bundle.entry, resolveDir: bundle.resolveDir, sourcefile: `${bundle.id}.entry.jsx`, loader: "jsx" },
    absWorkingDir: root,
    outfile,
    metafile: true,
  });
  const code = readFileSync(outfile);
  const output = result.metafile.outputs[Object.keys(result.metafile.outputs).find((f) => f.endsWith(".js"))];
  const files = Object.entries(output.inputs)
    .map(([input, v]) => [input, v.bytesInOutput])
    .sort((a, b) => b[1] - a[1]);
  const byOwner = new Map();
  for (const [file, bytes] of files) byOwner.set(owner(file), (byOwner.get(owner(file)) ?? 0) + bytes);
  const owners = [...byOwner].sort((a, b) => b[1] - a[1]);
  return { id: bundle.id, outfile, raw: code.length, gzip: gzipSync(code, { level: 9 }).length, files, owners };
}
