/**
 * Runs the reference's backend suite (apps/e2e/tests/backend of a stack-auth checkout) against a
 * running Doorman. Started by run.ts, which links the checkout's tests folder into COMPAT_RUN_DIR,
 * so the suite resolves its packages (vitest, jose, @stackframe/stack-shared, …) from Doorman's
 * node_modules and test/compat/node_modules, and nothing of it is copied here.
 */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const runDir = process.env.COMPAT_RUN_DIR;
if (!runDir) throw new Error("run through `npm run compat:reference -- <checkout>`");
const here = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  root: runDir,
  // Keep the link's path, so bare imports resolve from here and not from the checkout.
  resolve: { preserveSymlinks: true },
  test: {
    include: JSON.parse(process.env.COMPAT_INCLUDE ?? '["tests/backend/**/*.test.ts"]'),
    exclude: JSON.parse(process.env.COMPAT_EXCLUDE ?? "[]"),
    setupFiles: [`${here}setup.ts`, "tests/setup.ts"],
    snapshotSerializers: ["tests/snapshot-serializer.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "threads",
    maxWorkers: Number(process.env.COMPAT_WORKERS ?? 4),
    watch: false,
  },
});
