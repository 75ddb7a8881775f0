/**
 * The console's email editor in the browser e2e (issue 14): an owner opens Emails → Templates and
 * the email verification template, edits its text in the CodeMirror editor and sees the sandboxed
 * preview change, breaks the syntax and sees the error inline with its line marked in the editor,
 * fixes it and saves; then Compose sends the template to a user with a verified email (the SMTP
 * sink receives it), the per-user result says "queued" (the outbox sends it), and the sent log lists it. Themes: a new
 * theme is edited with the preview, made active, then deleted after a confirmation; Drafts: a new
 * draft is sent to the user with its per-user result.
 */
import { adminApi, signUpOwnerWithProject } from "./console-owner.mjs";

import { assert } from "./harness.mjs";

const VERIFICATION_TEMPLATE_ID = "e7d009ce-8d47-4528-b245-5bf119f2ffa3";
/** The Marketing notification category's id (the reference's, worker/services/notification-preferences.ts). */
const MARKETING_CATEGORY_ID = "4f6f8873-3d04-46bd-8bef-18338b1a1b4c";

export function defineConsoleEmailEditorSteps(runner, { page, origin, mail }) {
  const stamp = Date.now().toString(36);
  const reader = { email: `letters-reader-${stamp}@example.com`, name: "Letter Reader" };
  let admin = null;
  let projectId = "";

  const editor = () => page.getByRole("textbox", { name: "Template source (TSX)" });
  const preview = () => page.locator("iframe.email-preview-frame");
  const previewHtml = () => preview().getAttribute("srcdoc");
  /** Waits until the preview's HTML passes the check (it re-renders about 400 ms after typing stops). */
  const previewShows = async (check, what) => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const html = (await preview().count()) ? await previewHtml() : "";
      if (html && check(html)) return html;
      if (Date.now() > deadline) throw new Error(`the preview never showed ${what}`);
      await page.waitForTimeout(150);
    }
  };

  runner.step("email editor: an owner with an SMTP server and a verified user opens Emails → Templates", async () => {
    const created = await signUpOwnerWithProject(page, origin, {
      email: `letters-owner-${stamp}@example.com`,
      password: "letters-owner-1",
      projectName: "Letters Shop",
    });
    projectId = created.projectId;
    admin = adminApi(origin, created);
    const server = await admin("/internal/projects/current", {
      method: "PATCH",
      body: {
        config: {
          email_config: {
            type: "standard",
            host: "127.0.0.1",
            port: mail.port,
            username: "",
            password: "",
            sender_name: "Letters Shop",
            sender_email: "letters@doorman.localhost",
          },
        },
      },
    });
    assert.equal(server.status, 200, JSON.stringify(server.body));
    const user = await admin("/users", {
      method: "POST",
      body: { primary_email: reader.email, primary_email_verified: true, display_name: reader.name },
    });
    assert.equal(user.status, 201, JSON.stringify(user.body));
    // Marketing is on by default (as the reference); this reader turned it off, so a Marketing draft skips them.
    const marketingOff = await admin(`/emails/notification-preference/${user.body.id}/${MARKETING_CATEGORY_ID}`, {
      method: "PATCH",
      body: { enabled: false },
    });
    assert.equal(marketingOff.status, 200, JSON.stringify(marketingOff.body));

    await page.goto(`${origin}/projects/${projectId}/emails`);
    await page.getByRole("heading", { name: "Emails · Letters Shop" }).waitFor();
    await page.getByRole("navigation", { name: "Emails" }).getByRole("link", { name: "Templates" }).click();
    await page.getByRole("heading", { name: "Email templates · Letters Shop" }).waitFor();
    await page.getByRole("link", { name: "Email verification" }).click();
    await page.getByRole("heading", { name: "Email verification" }).waitFor();
    await editor().waitFor();
    await previewShows((html) => html.includes("Please confirm that this email address belongs to you."), "the built-in text");
    await page.getByTestId("preview-subject").filter({ hasText: "Verify your email at" }).waitFor();
  });

  runner.step("email editor: typing in the editor changes the sandboxed preview", async () => {
    assert.equal(await preview().getAttribute("sandbox"), "", "the preview frame is sandboxed without permissions");
    await retype("belongs to you.", "is yours, friend.");
    await previewShows((html) => html.includes("is yours, friend.") && !html.includes("belongs to you."), "the edited text");
    await page.getByRole("status").filter({ hasText: "Unsaved changes." }).waitFor();
    await page.getByRole("radio", { name: "Mobile" }).check();
    assert.equal(await page.locator("iframe[title='Email preview, mobile width']").count(), 1);
    // Laid out at a phone's 375 px, then scaled down to fit the panel when it is narrower (never sideways scroll).
    assert.equal(await preview().evaluate((el) => el.offsetWidth), 375);
    const box = await page.locator(".email-preview-box").boundingBox();
    assert.ok((await preview().boundingBox()).width <= Math.ceil(box.width), "the mobile preview fits its panel");
    await page.getByRole("radio", { name: "Desktop" }).check();
  });

  runner.step("email editor: a syntax error is shown inline with its line, marked in the editor, and fixed", async () => {
    await editor().click();
    await page.keyboard.press("Control+Home");
    await page.keyboard.type("@@@ ");
    const problem = page.locator(".email-preview-problem .alert");
    await problem.filter({ hasText: "Line 1" }).waitFor();
    assert.match(await problem.textContent(), /Syntax error in template\.tsx at line 1/);
    // The line is marked in the editor (a lint diagnostic underlines it and puts a marker in the gutter).
    await page.locator(".cm-content .cm-line").first().locator(".cm-lintRange-error").waitFor();
    await page.locator(".cm-gutter-lint .cm-lint-marker-error").first().waitFor();
    for (let i = 0; i < 4; i++) await page.keyboard.press("Backspace");
    await problem.waitFor({ state: "detached" });
    assert.equal(await page.locator(".cm-lintRange-error").count(), 0);
    await previewShows((html) => html.includes("is yours, friend."), "the fixed template");
  });

  runner.step("email editor: Save stores the template", async () => {
    await page.getByRole("button", { name: "Save template" }).click();
    await page.locator(".toast").filter({ hasText: "Template saved." }).waitFor();
    await page.getByRole("status").filter({ hasText: "All changes saved." }).waitFor();
    const stored = await admin(`/internal/email-templates/${VERIFICATION_TEMPLATE_ID}`);
    assert.equal(stored.status, 200);
    assert.match(stored.body.tsx_source, /is yours, friend\./);
    assert.doesNotMatch(stored.body.tsx_source, /@@@/);
  });

  runner.step("email editor: Compose sends the template to a user; the result says queued and the log lists it", async () => {
    await page.getByRole("navigation", { name: "Emails" }).getByRole("link", { name: "Compose" }).click();
    await page.getByRole("heading", { name: "Compose an email · Letters Shop" }).waitFor();
    // Send with nothing chosen: the first problem gets focus.
    await page.getByRole("button", { name: "Send…" }).click();
    await page.getByText("Choose at least one user.").waitFor();
    assert.equal(await page.getByLabel("Find users").evaluate((el) => el === document.activeElement), true);

    await page.getByLabel("Find users").fill(reader.email);
    const label = `${reader.name} (${reader.email})`;
    await page.getByRole("button", { name: `Add ${label}` }).click();
    await page.getByRole("list", { name: "Chosen users" }).getByText(label).waitFor();
    await page.getByLabel("Template", { exact: true }).selectOption({ label: "Email verification" });
    assert.match(await page.getByLabel("Variables (JSON)").inputValue(), /emailVerificationLink/);
    const subject = `A test from Letters Shop ${stamp}`;
    await page.getByLabel("Subject (optional)").fill(subject);
    await page.getByRole("radio", { name: /^Transactional/ }).check();
    await previewShows((html) => html.includes("is yours, friend."), "the saved template in Compose");
    await page.getByTestId("preview-subject").filter({ hasText: subject }).waitFor();

    await page.getByRole("button", { name: "Send…" }).click();
    const dialog = page.getByRole("dialog", { name: "Send to 1 user?" });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Send to 1 user" }).click();
    const results = page.getByRole("region", { name: "Results" });
    // The send answers at once: the email is in the outbox, queued, and the mail follows.
    await results.getByRole("status").filter({ hasText: "0 sent, 1 queued, 0 skipped, 0 failed." }).waitFor();
    const row = results.getByRole("row").filter({ hasText: reader.email });
    assert.equal((await row.locator(".status").textContent()).trim(), "queued");

    const received = await mail.waitFor(reader.email, new RegExp(subject));
    assert.match(received.text, /is yours, friend\./);

    await page.getByRole("navigation", { name: "Emails" }).getByRole("link", { name: "Sent & server" }).click();
    await page.getByRole("heading", { name: "Emails · Letters Shop" }).waitFor();
    await page.getByRole("region", { name: "Email log" }).getByRole("link", { name: subject }).waitFor();
  });

  /**
   * Replaces `find` in the editor with `replace`, by keyboard: from the start of the document the
   * cursor moves right to the text (a character at a time, so wrapped lines do not matter),
   * Shift+Right selects it, and the replacement is typed over it.
   */
  const retype = async (find, replace) => {
    // The whole document, not the rendered lines: CodeMirror renders only the lines in view (cmTile is what
    // EditorView.findFromDOM reads).
    const text = await page.locator(".cm-content").evaluate((el) => el.cmTile.root.view.state.doc.toString());
    const at = text.indexOf(find);
    assert.ok(at >= 0, `the editor has ${JSON.stringify(find)}`);
    await page.locator(".cm-content").click();
    await page.keyboard.press("Control+Home");
    for (let i = 0; i < at; i++) await page.keyboard.press("ArrowRight");
    for (let i = 0; i < find.length; i++) await page.keyboard.press("Shift+ArrowRight");
    await page.keyboard.insertText(replace);
  };

  runner.step("email editor: a new theme is edited with its preview, made active, and deleted after confirming", async () => {
    await page.getByRole("navigation", { name: "Emails" }).getByRole("link", { name: "Themes" }).click();
    await page.getByRole("heading", { name: "Email themes · Letters Shop" }).waitFor();
    await page.getByLabel("Theme name").fill("Brand");
    await page.getByRole("button", { name: "Create theme" }).click();
    await page.getByRole("heading", { name: "Theme: Brand" }).waitFor();
    await page.getByRole("textbox", { name: "Theme source (TSX)" }).waitFor();
    await previewShows((html) => html.includes("is yours, friend."), "the sample template in the theme");
    await retype("{children}", "<p>Brand header</p>{children}");
    await previewShows((html) => html.includes("Brand header"), "the edited theme");
    await page.getByRole("button", { name: "Save theme" }).click();
    await page.locator(".toast").filter({ hasText: "Theme saved." }).waitFor();

    await page.getByRole("link", { name: "← Themes" }).click();
    await page.getByLabel("Theme for every email").selectOption({ label: "Brand" });
    await page.getByRole("button", { name: "Use this theme" }).click();
    await page.locator(".toast").filter({ hasText: "Brand is now the active theme." }).waitFor();
    await page.getByRole("row").filter({ hasText: "Brand" }).getByText("Active").waitFor();
    assert.equal(await page.getByRole("button", { name: "Delete theme Brand" }).count(), 0, "the active theme cannot be deleted");

    await page.getByLabel("Theme for every email").selectOption({ label: "Default Light" });
    await page.getByRole("button", { name: "Use this theme" }).click();
    await page.locator(".toast").filter({ hasText: "Default Light is now the active theme." }).waitFor();
    await page.getByRole("button", { name: "Delete theme Brand" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete Brand?" });
    await dialog.getByRole("button", { name: "Delete theme" }).click();
    await page.locator(".toast").filter({ hasText: "Theme Brand deleted." }).waitFor();
    await page.getByRole("link", { name: "Brand" }).waitFor({ state: "detached" });
  });

  runner.step("email editor: a draft is written and sent to a user, with the per-user result", async () => {
    await page.getByRole("navigation", { name: "Emails" }).getByRole("link", { name: "Drafts" }).click();
    await page.getByRole("heading", { name: "Email drafts · Letters Shop" }).waitFor();
    await page.getByLabel("Draft name").fill("Spring news");
    await page.getByRole("button", { name: "Create draft" }).click();
    await page.getByRole("heading", { name: "Draft: Spring news" }).waitFor();
    await page.getByRole("textbox", { name: "Draft source (TSX)" }).waitFor();
    await previewShows((html) => html.includes("Hi ") && html.includes("John Doe"), "the new draft");
    await retype("Hi {user.displayName}!", "Spring is here, {user.displayName}!");
    await previewShows((html) => html.includes("Spring is here, ") && html.includes("John Doe"), "the edited draft");

    await page.getByLabel("Find users").fill(reader.email);
    await page.getByRole("button", { name: `Add ${reader.name} (${reader.email})` }).click();
    const results = page.getByRole("region", { name: "Results" });
    const send = async () => {
      await page.getByRole("button", { name: "Send draft…" }).click();
      await page.getByRole("dialog", { name: "Send to 1 user?" }).getByRole("button", { name: "Send to 1 user" }).click();
    };
    // The draft is Marketing, which this reader turned off: they are skipped, with the reason.
    await send();
    await results.getByRole("status").filter({ hasText: "0 sent, 1 skipped, 0 failed." }).waitFor();
    await results.getByRole("row").filter({ hasText: reader.email }).getByText("skipped").waitFor();
    await results.getByText("Has not turned on this kind of email").waitFor();
    // As a transactional email it is sent (sending saves the edit first).
    await retype('value="Marketing"', 'value="Transactional"');
    await send();
    await results.getByRole("status").filter({ hasText: "0 sent, 1 queued, 0 skipped, 0 failed." }).waitFor();
    await page.getByRole("status").filter({ hasText: "All changes saved." }).waitFor();
    const received = await mail.waitFor(reader.email, /Hello Letter Reader!/);
    assert.match(received.text, /Spring is here, Letter Reader!/);
  });
}
