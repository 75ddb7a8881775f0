/**
 * The console's email Outbox in the browser e2e (issue 24): an owner sends an email to a user and
 * watches it become "sent" in Emails → Outbox, then opens it. With the project's SMTP pointed at a
 * hostile server (test/smtp-fault-server.mjs): a permanent refusal (550 to MAIL FROM) shows as
 * "failed" with the attempt's error, and Retry sends it once the server is fixed; a temporary one
 * (450) leaves the email queued for its retry, where it is paused and then cancelled after a
 * confirmation. The status filter and the page's axe and 375 px checks close the scenario.
 */
import { join } from "node:path";
import { startSmtpFaults } from "../smtp-fault-server.mjs";
import { checkPage } from "./a11y-scenario.mjs";
import { adminApi, signUpOwnerWithProject } from "./console-owner.mjs";
import { assert, expectFocused } from "./harness.mjs";

export function defineConsoleOutboxSteps(runner, { page, origin, mail, shots }) {
  const stamp = Date.now().toString(36);
  const reader = `outbox-reader-${stamp}@example.com`;
  const projectName = `Outbox Shop ${stamp}`;
  const shot = (name) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  let admin = null;
  let userId = "";
  let faults = null;

  /** Points the project's email at an SMTP server on loopback. */
  async function useSmtp(port) {
    const res = await admin("/internal/projects/current", {
      method: "PATCH",
      body: {
        config: {
          email_config: {
            type: "standard",
            host: "127.0.0.1",
            port,
            username: "",
            password: "",
            sender_name: "Outbox Shop",
            sender_email: "outbox@doorman.localhost",
          },
        },
      },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }

  async function send(subject) {
    const res = await admin("/emails/send-email", {
      method: "POST",
      body: { user_ids: [userId], html: `<p>${subject}: hello from the outbox.</p>`, subject },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }

  /** A hostile SMTP server answering `code` to MAIL FROM; answers its port. */
  async function faultServer(code, text) {
    faults ??= await startSmtpFaults();
    const res = await fetch(`http://127.0.0.1:${faults.controlPort}/servers`, {
      method: "POST",
      body: JSON.stringify({ replies: { mail: { code, text } } }),
    });
    return (await res.json()).port;
  }

  const table = () => page.getByRole("table", { name: "Outbox" });
  const rowOf = (subject) => table().getByRole("row").filter({ hasText: subject });
  const details = (subject) => page.getByRole("region", { name: subject });
  const badgeIn = async (locator) => ((await locator.locator(".outbox-status .status").first().textContent()) ?? "").trim();

  /** Refreshes the list until the email's row shows `badge` (the queue sends after the response) and `also` holds. */
  async function waitForRow(subject, badge, { also = async () => true, timeoutMs = 30_000 } = {}) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const row = rowOf(subject);
      if ((await row.count()) === 1 && (await badgeIn(row)) === badge && (await also(row))) return row;
      if (Date.now() > deadline) throw new Error(`the outbox never showed "${subject}" as ${badge}`);
      await page.getByRole("button", { name: "Refresh" }).click();
      await page.getByRole("button", { name: "Refresh" }).waitFor();
      await page.waitForTimeout(500);
    }
  }

  /** Waits until the open details show `badge` (they re-read an email on its way every few seconds). */
  async function waitForDetails(subject, badge, timeoutMs = 30_000) {
    const deadline = Date.now() + timeoutMs;
    while ((await badgeIn(details(subject))) !== badge) {
      if (Date.now() > deadline) throw new Error(`the details of "${subject}" never showed ${badge}`);
      await page.waitForTimeout(300);
    }
  }

  runner.step("console outbox: an email to a user shows as sent in Emails → Outbox and opens to its details", async () => {
    const project = await signUpOwnerWithProject(page, origin, {
      email: `outbox-owner-${stamp}@example.com`,
      password: "outbox-owner-pass-1",
      projectName,
    });
    admin = adminApi(origin, project);
    await useSmtp(mail.port);
    const user = await admin("/users", { method: "POST", body: { primary_email: reader, display_name: "Outbox Reader" } });
    assert.equal(user.status, 201, JSON.stringify(user.body));
    userId = user.body.id;
    const subject = `Outbox hello ${stamp}`;
    await send(subject);

    await page.goto(`${origin}/projects/${project.projectId}/emails`);
    await page.getByRole("navigation", { name: "Emails" }).getByRole("link", { name: "Outbox" }).click();
    await page.getByRole("heading", { name: `Email outbox · ${projectName}` }).waitFor();
    const row = await waitForRow(subject, "sent");
    await row.getByRole("link", { name: /user / }).waitFor();
    assert.equal((await row.getByRole("cell").nth(4).textContent()).trim(), "0");
    await mail.waitFor(reader, new RegExp(subject));

    await row.getByRole("button", { name: `${subject}: details` }).click();
    const open = details(subject);
    await expectFocused(open.getByRole("heading", { name: subject }));
    assert.equal(await row.getByRole("button", { name: `${subject}: details` }).getAttribute("aria-expanded"), "true");
    await open.getByRole("link", { name: reader }).waitFor();
    await open.getByText("Sent", { exact: true }).waitFor();
    await open.getByText("None.").waitFor();
    // A sent email has no actions.
    assert.equal(await open.getByRole("button", { name: "Pause" }).count(), 0);
    await shot("outbox-sent");
    await open.getByRole("button", { name: "Close details" }).click();
    await expectFocused(row.getByRole("button", { name: `${subject}: details` }));
  });

  runner.step("console outbox: a refused email (550) shows failed with its attempt's error; Retry sends it", async () => {
    await useSmtp(await faultServer(550, "5.7.1 Sender rejected by policy"));
    const subject = `Refused ${stamp}`;
    await send(subject);
    const row = await waitForRow(subject, "failed");
    await row.getByText("server-error").waitFor();
    assert.equal((await row.getByRole("cell").nth(4).textContent()).trim(), "1");
    await row.getByRole("button", { name: `${subject}: details` }).click();
    const open = details(subject);
    await open.getByText("Sending failed:").waitFor();
    const attempts = open.getByRole("table", { name: "Failed send attempts" });
    const attempt = attempts.getByRole("row").nth(1);
    assert.equal((await attempt.getByRole("cell").first().textContent()).trim(), "1");
    assert.ok(((await attempt.getByRole("cell").nth(2).textContent()) ?? "").trim().length > 0, "the attempt's error is shown");
    await shot("outbox-failed");

    // The server is fixed (the owner points the project back at the working one), then Retry.
    await useSmtp(mail.port);
    await open.getByRole("button", { name: "Retry" }).click();
    await page.locator(".toast").filter({ hasText: "Email queued again." }).waitFor();
    await waitForDetails(subject, "sent");
    await mail.waitFor(reader, new RegExp(subject));
  });

  runner.step("console outbox: an email waiting for its retry (450) is paused, then cancelled after a confirmation", async () => {
    await useSmtp(await faultServer(450, "4.7.1 Greylisted, try again later"));
    const subject = `Greylisted ${stamp}`;
    await send(subject);
    // Queued again after the first attempt, with the time of the next one.
    const row = await waitForRow(subject, "queued", { also: async (r) => (await r.getByText(/next /).count()) === 1 });
    await row.getByRole("button", { name: `${subject}: details` }).click();
    const open = details(subject);
    await open.getByText("Next retry").waitFor();
    await open.getByRole("table", { name: "Failed send attempts" }).getByRole("row").nth(1).waitFor();

    await open.getByRole("button", { name: "Pause" }).click();
    await page.locator(".toast").filter({ hasText: "Email paused." }).waitFor();
    await waitForDetails(subject, "paused");
    assert.equal(await badgeIn(rowOf(subject)), "paused");
    await open.getByRole("button", { name: "Unpause" }).waitFor();

    await open.getByRole("button", { name: "Cancel email" }).click();
    const dialog = page.getByRole("dialog", { name: "Cancel this email?" });
    await dialog.getByRole("button", { name: "Keep it" }).click();
    await dialog.waitFor({ state: "hidden" });
    assert.equal(await badgeIn(open), "paused");
    await open.getByRole("button", { name: "Cancel email" }).click();
    await dialog.getByRole("button", { name: "Cancel the email" }).click();
    await page.locator(".toast").filter({ hasText: "Email cancelled." }).waitFor();
    await waitForDetails(subject, "skipped");
    await open.getByText("cancelled by an owner").waitFor();
    assert.equal(await open.getByRole("button", { name: "Cancel email" }).count(), 0);
    await shot("outbox-cancelled");
  });

  runner.step("console outbox: the status filter, and the page passes axe at 1100 and 375 px", async () => {
    const show = page.getByLabel("Show", { exact: true });
    await show.selectOption({ label: "Skipped" });
    await rowOf(`Greylisted ${stamp}`).waitFor();
    await table().getByRole("row").nth(2).waitFor({ state: "detached" });
    await show.selectOption({ label: "Sent" });
    await rowOf(`Refused ${stamp}`).waitFor();
    await rowOf(`Outbox hello ${stamp}`).waitFor();
    assert.equal(await rowOf(`Greylisted ${stamp}`).count(), 0);
    await show.selectOption({ label: "Failed" });
    await page.getByText("No emails match.").waitFor();
    await show.selectOption({ label: "All emails" });
    await rowOf(`Greylisted ${stamp}`).waitFor();
    await rowOf(`Refused ${stamp}`).getByRole("button").click();
    await details(`Refused ${stamp}`).waitFor();
    await page.setViewportSize({ width: 375, height: 800 });
    await shot("outbox-375");
    const problems = await checkPage(page, "/emails/outbox with an email open");
    await faults?.stop();
    faults = null;
    assert.deepEqual(problems, []);
  });
}
