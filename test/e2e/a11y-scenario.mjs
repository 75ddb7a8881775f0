/**
 * Accessibility and small screens, last in the browser e2e: every handler page and every page
 * of a project's console is checked with axe-core (@axe-core/playwright, WCAG 2 A/AA rules) at
 * 1100 px and at 375 px wide, and must have no serious or critical violation; at 375 px the page
 * must not scroll sideways. The assistant panel is checked open, over the Users page.
 */
import AxeBuilder from "@axe-core/playwright";
import { adminApi, signUpOwnerWithProject } from "./console-owner.mjs";
import { assert } from "./harness.mjs";

const SERIOUS = new Set(["serious", "critical"]);

/**
 * Checks the current page with axe at 1100 and 375 px wide; returns the serious or critical
 * violations, and sideways scrolling at the `overflowAt` widths, as text. `include` limits axe to
 * one part of the page (a panel). Shared by the assistant scenario.
 */
export async function checkPage(page, name, { include, overflowAt = [375] } = {}) {
  const problems = [];
  for (const width of [1100, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await page.waitForTimeout(50);
    // Sandboxed email frames (sandbox="": the owner's email HTML, scripts off) are left out: axe cannot run
    // inside them, and injecting it there crashes headless Chromium.
    let axe = new AxeBuilder({ page }).exclude("iframe[sandbox]").withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]);
    if (include) axe = axe.include(include);
    const result = await axe.analyze();
    for (const v of result.violations.filter((v) => SERIOUS.has(v.impact ?? "")))
      problems.push(
        `${name} @${width}px: ${v.id} (${v.impact}) ${v.help}: ${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 3)
          .join(" | ")}`,
      );
    if (overflowAt.includes(width)) {
      const { overflow, culprits } = await page.evaluate(() => {
        const width = document.documentElement.clientWidth;
        const out = (el) => el.getBoundingClientRect().right > width + 1;
        // The innermost elements that stick out, outside boxes that scroll on their own.
        const free = (el) => out(el) && !el.parentElement?.closest(".table-scroll");
        const culprits = [...document.querySelectorAll("body *")]
          .filter((el) => free(el) && ![...el.children].some(free))
          .slice(0, 4)
          .map((el) => `${el.tagName.toLowerCase()}.${String(el.className)} "${(el.textContent ?? "").slice(0, 30)}"`);
        return { overflow: document.documentElement.scrollWidth - width, culprits };
      });
      if (overflow > 1) problems.push(`${name} @${width}px: scrolls sideways by ${overflow}px (${culprits.join("; ")})`);
    }
  }
  await page.setViewportSize({ width: 1100, height: 800 });
  return problems;
}

export function defineA11ySteps(runner, { page, origin }) {
  const email = `a11y-owner-${Date.now().toString(36)}@example.com`;
  const seen = [];

  /** Checks the current page (checkPage) and counts it. */
  async function check(name) {
    seen.push(name);
    return checkPage(page, name);
  }

  async function visit(path, heading) {
    await page.goto(`${origin}${path}`);
    await page.getByRole("heading", { name: heading }).first().waitFor();
    return check(path);
  }

  runner.step("a11y: the signed-out handler pages pass axe at 1100 and 375 px", async () => {
    await page.goto(`${origin}/handler/sign-out`);
    await page.waitForURL((url) => url.pathname === "/handler/sign-in" || url.pathname === "/");
    const problems = [
      ...(await visit("/handler/sign-in", /sign in/i)),
      ...(await visit("/handler/sign-up", "Create your account")),
      ...(await visit("/handler/forgot-password", /reset|forgot/i)),
    ];
    assert.deepEqual(problems, []);
  });

  runner.step("a11y: every console page of a project passes axe at 1100 and 375 px", async () => {
    const created = await signUpOwnerWithProject(page, origin, { email, password: "a11y-owner-pass-1", projectName: "A11y Shop" });
    await page.goto(`${origin}/handler/account-settings`);
    await page.getByRole("heading", { name: "Account settings" }).waitFor();
    const problems = [...(await check("/handler/account-settings"))];
    await page.goto(`${origin}/projects`);
    await page.getByRole("list", { name: "Your projects" }).waitFor();
    problems.push(...(await check("/projects")));
    const base = `/projects/${created.projectId}`;

    // A user and a team to open the detail pages with (admin API, the key shown once above).
    const admin = adminApi(origin, created);
    const api = async (path, body) => {
      const res = await admin(path, { method: "POST", body });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body;
    };
    const user = await api("/users", { primary_email: `a11y-user-${Date.now().toString(36)}@example.com`, display_name: "A11y User" });
    const team = await api("/teams", { display_name: "A11y Team" });
    const draft = await admin("/internal/email-drafts", { method: "POST", body: { display_name: "A11y Draft" } });
    assert.equal(draft.status, 200, JSON.stringify(draft.body));

    const pages = [
      ["", "Overview · A11y Shop"],
      ["/users", /Users/],
      [`/users/${user.id}`, /A11y User|a11y-user/],
      ["/teams", /Teams/],
      [`/teams/${team.id}`, /A11y Team/],
      ["/sign-in-methods", /Sign-in methods/],
      ["/sign-up-rules", "Sign-up rules · A11y Shop"],
      ["/protection", "Protection · A11y Shop"],
      ["/domains", /Domains/],
      ["/permissions", "Permissions · A11y Shop"],
      ["/emails", "Emails · A11y Shop"],
      ["/emails/outbox", "Email outbox · A11y Shop"],
      ["/emails/templates", "Email templates · A11y Shop"],
      ["/emails/templates/e7d009ce-8d47-4528-b245-5bf119f2ffa3", "Email verification"],
      ["/emails/themes", "Email themes · A11y Shop"],
      ["/emails/themes/1df07ae6-abf3-4a40-83a5-a1a2cbe336ac", "Theme: Default Light"],
      ["/emails/drafts", "Email drafts · A11y Shop"],
      [`/emails/drafts/${draft.body.id}`, "Draft: A11y Draft"],
      ["/emails/compose", "Compose an email · A11y Shop"],
      ["/emails/inbox", "Dev inbox · A11y Shop"],
      // The purchase page is checked in payments-scenario.mjs (it needs a purchase code).
      ["/payments", "Payments · A11y Shop"],
      ["/keys", /Keys/],
      ["/events", /Events/],
      ["/webhooks", /Webhooks/],
      ["/settings", /Settings/],
      ["/no-such-page", "Page not found"],
    ];
    for (const [path, heading] of pages) problems.push(...(await visit(`${base}${path}`, heading)));

    // The assistant panel, open over a page, with a conversation's failure in it (no provider here).
    await page.goto(`${origin}${base}/users`);
    await page.getByRole("heading", { name: /Users/ }).first().waitFor();
    await page.getByRole("button", { name: "Assistant", exact: true }).click();
    const panel = page.getByRole("complementary", { name: "Assistant" });
    await panel.getByLabel("Ask the assistant").fill("How do I enable passkeys?");
    await panel.getByRole("button", { name: "Send" }).click();
    await panel.getByRole("alert").getByRole("link", { name: "Choose a model provider in Settings" }).waitFor();
    problems.push(...(await check(`${base}/users + assistant panel`)));
    assert.deepEqual(problems, []);
    assert.ok(seen.length >= 15, `checked ${seen.length} pages`);
  });
}
