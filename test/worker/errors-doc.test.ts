/// <reference types="vite/client" />
/**
 * docs/errors.md is generated from the known-error catalogue. This fails when the catalogue
 * changed and the doc was not regenerated (the fix is `npm run docs:errors`).
 */

import { placeholderMessage, renderErrorsDoc } from "@doorman/shared/errors-doc";
import { catalogue } from "@doorman/shared/known-errors";
import { describe, expect, it } from "vitest";
import md from "../../docs/errors.md?raw";

describe("docs/errors.md", () => {
  it("is up to date with sdk/src/shared/known-errors.ts", () => {
    const fresh = renderErrorsDoc();
    if (md !== fresh) {
      expect.fail("docs/errors.md is stale: run `npm run docs:errors` and commit the result.");
    }
  });

  it("lists every code of the catalogue with its status", () => {
    for (const [code, entry] of Object.entries(catalogue)) {
      const row = `| \`${code}\` | ${entry.status} |`;
      expect(md.includes(row), `${code} (${entry.status}) missing from docs/errors.md: run \`npm run docs:errors\``).toBe(true);
    }
  });

  it("renders every message with placeholders, never throwing", () => {
    for (const entry of Object.values(catalogue)) {
      expect(placeholderMessage(entry).length).toBeGreaterThan(0);
    }
  });
});
