/**
 * A minimal sequential test runner for the browser scenario: steps share one browser
 * and build on each other, so after the first failure the rest are reported as skipped.
 * Prints TAP-like lines and ends with exactly "N passed, N failed".
 */
import assert from "node:assert/strict";

export { assert };

export function createRunner() {
  const steps = [];
  // E2E_ONLY="polish:,a11y:" runs only the steps whose names start with one of these (a scenario that sets itself up).
  const only = (process.env.E2E_ONLY ?? "").split(",").filter(Boolean);
  return {
    step(name, fn) {
      if (only.length && !only.some((prefix) => name.startsWith(prefix))) return;
      steps.push({ name, fn });
    },
    async run(onFailure) {
      let passed = 0;
      let failed = 0;
      let broken = false;
      for (const [i, { name, fn }] of steps.entries()) {
        const n = i + 1;
        if (broken) {
          console.log(`ok ${n} - ${name} # SKIP (an earlier step failed)`);
          continue;
        }
        const started = Date.now();
        try {
          await fn();
          passed++;
          console.log(`ok ${n} - ${name} (${Date.now() - started} ms)`);
        } catch (error) {
          failed++;
          broken = true;
          console.log(`not ok ${n} - ${name}`);
          console.log(String(error?.stack ?? error).replace(/^/gm, "  # "));
          await onFailure?.(name).catch(() => {});
        }
      }
      return { passed, failed };
    },
  };
}

/**
 * Asserts that `locator` gets focus. Forms move focus to their first error one task after the
 * error renders, so this polls (up to 3 s) instead of reading `document.activeElement` once.
 */
export async function expectFocused(locator, message) {
  const handle = await locator.elementHandle();
  const focused = await locator
    .page()
    .waitForFunction((el) => el === document.activeElement, handle, { timeout: 3000 })
    .then(
      () => true,
      () => false,
    );
  assert.ok(focused, message ?? "the element has focus");
}
