/**
 * Builds the SDK's entries for an app that installs it as a package (`npm pack ./sdk` runs this
 * as `prepack`): dist/index.js ("@doorman/sdk"), dist/react.js ("@doorman/sdk/react") and the resource
 * server's dist/resource-server*.js ("@doorman/sdk/resource-server", "…/hono", "…/express"), ES modules
 * with shared chunks, so the entries use one copy of the app classes and stores. Dependencies stay
 * imports (the package.json lists them); types are the sources (`exports[…].types`).
 * Inside this repository the console and tests alias @doorman/sdk to src/; only the MCP server example
 * (examples/mcp-server) imports the built resource-server entries, as an app that installed the package would.
 */
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = fileURLToPath(new URL(".", import.meta.url));
rmSync(`${here}dist`, { recursive: true, force: true });
await build({
  absWorkingDir: here,
  entryPoints: {
    index: "src/index.ts",
    react: "src/react/index.ts",
    "resource-server": "src/resource-server/index.ts",
    "resource-server-hono": "src/resource-server/hono.ts",
    "resource-server-express": "src/resource-server/express.ts",
  },
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "neutral",
  target: "es2022",
  jsx: "automatic",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});
console.log("[sdk] built dist/index.js, dist/react.js and dist/resource-server*.js");
