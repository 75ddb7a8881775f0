/**
 * The interactive API reference: /api/v1/docs renders the OpenAPI document in Chromium (the
 * reference's script is served by the web app itself, so this works offline).
 */
import { join } from "node:path";
import { assert } from "./harness.mjs";

export function defineApiDocsSteps(runner, { page, origin, shots }) {
  runner.step("the API reference at /api/v1/docs renders the OpenAPI document", async () => {
    const failed = [];
    const onFailed = (req) => failed.push(req.url());
    page.on("requestfailed", onFailed);
    try {
      await page.goto(`${origin}/api/v1/docs`);
      // The page's title and an operation summary come from openapi.json, drawn by the reference's script.
      await page.getByText("Doorman API").first().waitFor({ timeout: 20_000 });
      // The first group is open; the others open from the sidebar (they render lazily).
      await page.getByText("Sign up as an anonymous user").first().waitFor({ timeout: 20_000 });
      await page.getByText("users", { exact: true }).first().click();
      await page.getByText("The signed-in user").first().waitFor({ timeout: 20_000 });
      assert.deepEqual(
        failed.filter((u) => u.startsWith(origin)),
        [],
      );
      await page.screenshot({ path: join(shots, "api-docs.png") });
    } finally {
      page.off("requestfailed", onFailed);
    }
  });
}
