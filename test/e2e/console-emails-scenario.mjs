/**
 * The console's overview and Emails page in the browser e2e: a fresh owner creates a project,
 * sees the counts and the setup checklist, points the project's email at the SMTP sink and sends
 * a test email, sends a sign-in invitation (an untrusted link is refused with a pointer to
 * Domains), and opens the logged invitation; an unknown console page is a styled 404.
 */
import { signUpOwnerWithProject } from "./console-owner.mjs";
import { assert, expectFocused } from "./harness.mjs";

export function defineConsoleEmailSteps(runner, { page, origin, mail }) {
  const input = (label) => page.getByLabel(label, { exact: true });
  const email = `console-owner-${Date.now().toString(36)}@example.com`;
  const invitee = `invitee-${Date.now().toString(36)}@example.com`;
  let projectUrl = "";

  runner.step("console: a new project opens on its overview with counts and the setup checklist", async () => {
    await signUpOwnerWithProject(page, origin, { email, password: "console-owner-1", projectName: "Console Shop" });
    await page.goto(`${origin}/projects`);
    await page.getByRole("list", { name: "Your projects" }).getByRole("link", { name: "Console Shop" }).click();
    await page.getByRole("heading", { name: "Overview · Console Shop" }).waitFor();
    projectUrl = page.url();
    const nav = page.getByRole("navigation", { name: "Project" });
    assert.equal(await nav.getByRole("link", { name: "Overview" }).getAttribute("aria-current"), "page");
    const glance = page.getByRole("region", { name: "At a glance" });
    await glance.getByText("Users").waitFor();
    assert.equal(await glance.locator(".stat-value").first().textContent(), "0");
    await page.getByRole("link", { name: "Add a trusted domain" }).waitFor();
    await page.getByText("(to do)").first().waitFor();
  });

  runner.step("console: the Emails page sends a test email through the owner's SMTP and saves it", async () => {
    await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Emails" }).click();
    await page.getByRole("heading", { name: "Emails · Console Shop" }).waitFor();
    await expectFocused(page.getByRole("heading", { name: "Emails · Console Shop" }));
    await page.getByLabel("My own SMTP server").check();
    await page.getByRole("button", { name: "Save email server" }).click();
    await page.getByText("Enter the SMTP host.").waitFor();
    await expectFocused(input("SMTP host"));
    await input("SMTP host").fill("127.0.0.1");
    await input("Port").fill(String(mail.port));
    await input("Password").fill("unused");
    await input("Sender name").fill("Console Shop");
    await input("Sender email").fill("shop@doorman.localhost");
    await input("Send a test email to").fill(invitee);
    await page.getByRole("button", { name: "Send test email" }).click();
    await page.getByRole("status").filter({ hasText: "Sent. Check the inbox" }).waitFor();
    await mail.waitFor(invitee, /Test email from Console Shop/);
    await page.getByRole("button", { name: "Save email server" }).click();
    await page.locator(".toast").filter({ hasText: "Email server saved." }).waitFor();
    await page.reload();
    await page.getByRole("heading", { name: "Emails · Console Shop" }).waitFor();
    assert.equal(await input("SMTP host").inputValue(), "127.0.0.1");
    assert.equal(await input("Password (leave empty to keep the stored one)").inputValue(), "");
  });

  runner.step("console: a sign-in invitation to an untrusted link is refused; to localhost it is sent and logged", async () => {
    await input("Invitee email").fill(invitee);
    await input("Link to").fill("https://not-trusted.example.net/welcome");
    await page.getByRole("button", { name: "Send invitation" }).click();
    await page.getByRole("alert").filter({ hasText: "Add the link's domain under Domains" }).waitFor();
    // Localhost is trusted while the project allows it (development).
    await input("Link to").fill("http://localhost:3000/welcome");
    await page.getByRole("button", { name: "Send invitation" }).click();
    await page
      .locator(".toast")
      .filter({ hasText: `Invitation sent to ${invitee}.` })
      .waitFor();
    const invitation = await mail.waitFor(invitee, /You have been invited to Console Shop/);
    assert.match(invitation.text, /http:\/\/localhost:3000\/welcome/);
    // The invitation went through the outbox after the answer: the log lists it once it was sent.
    await page.reload();
    const log = page.getByRole("region", { name: "Email log" });
    await log.getByRole("link", { name: "You have been invited to Console Shop" }).click();
    await page.getByRole("heading", { name: "You have been invited to Console Shop" }).waitFor();
    await page.getByText("http://localhost:3000/welcome").first().waitFor();
  });

  runner.step("console: an unknown console page is a styled 404 with a way back", async () => {
    const res = await page.goto(`${projectUrl}/no-such-page`);
    assert.equal(res?.status(), 404);
    await page.getByRole("heading", { name: "Page not found" }).waitFor();
    await page.getByRole("link", { name: "Go to the overview" }).click();
    await page.getByRole("heading", { name: "Overview · Console Shop" }).waitFor();
  });
}
