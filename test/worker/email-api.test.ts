/** The email admin API (issue 14): themes, templates, drafts and the live preview, with the reference's shapes and errors. */
import { describe, expect, it } from "vitest";
import { call, createProjectWithKeys } from "../helpers/api";

const LIGHT = "1df07ae6-abf3-4a40-83a5-a1a2cbe336ac";
const DARK = "a0172b5d-cff0-463b-83bb-85124697373a";
const VERIFICATION = "e7d009ce-8d47-4528-b245-5bf119f2ffa3";
const BUILT_IN_TEMPLATES = [
  VERIFICATION,
  "a70fb3a4-56c1-4e42-af25-49d25603abd0",
  "822687fe-8d0a-4467-a0d1-416b6e639478",
  "e84de395-2076-4831-9c19-8e9a96a868e4",
  "066dd73c-36da-4fd0-b6d6-ebf87683f8bc",
  "4758b098-9952-4083-816a-360d0aea53ef",
  "dec2a601-c073-4367-b01c-2e616d2f9fa0",
  // Doorman's "sign-in locked" notice (issue 25): the account's password sign-in was locked by failures.
  "5f0c9a7e-3b1d-4e62-9a8f-2c7d41b6e0a3",
  // The reference's payment receipt and payment failed (Stripe's webhooks send them).
  "70372aee-0441-4d80-974c-2e858e40123a",
  "f64b1afe-27ec-4a28-a277-7178f3261f9a",
  // Doorman's new-device verification code (issue 29).
  "b3e1c2d4-6f7a-4b8c-9d0e-1f2a3b4c5d6e",
];

const THEME = `export function EmailTheme({ children, unsubscribeLink }) {
  return <html><body><header>Acme header</header>{children}{unsubscribeLink && <a href={unsubscribeLink}>Leave</a>}</body></html>;
}`;
const TEMPLATE = `import { Subject, NotificationCategory } from "@stackframe/emails";
export const variablesSchema = (v) => v;
export function EmailTemplate({ user, project, variables }) {
  return <><Subject value={"Hello from " + project.displayName} /><NotificationCategory value="Marketing" /><p>Dear {user.displayName}, {variables.note}</p></>;
}`;

describe("email themes", () => {
  it("lists the built-ins, creates, reads, updates and deletes a theme; the config shows it", async () => {
    const p = await createProjectWithKeys();
    const list = await call("/internal/email-themes", p.admin);
    expect(list.body.themes).toEqual([
      { id: LIGHT, display_name: "Default Light" },
      { id: DARK, display_name: "Default Dark" },
    ]);
    const created = await call("/internal/email-themes", { ...p.admin, body: { display_name: "Brand" } });
    expect(created.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const id: string = created.body.id;
    const got = await call(`/internal/email-themes/${id}`, p.admin);
    expect(got.body).toEqual({ id, display_name: "Brand", tsx_source: expect.stringContaining("export function EmailTheme") });

    const updated = await call(`/internal/email-themes/${id}`, {
      ...p.admin,
      method: "PATCH",
      body: { tsx_source: THEME, display_name: "Brand 2" },
    });
    expect(updated.body).toEqual({ display_name: "Brand 2" });
    expect((await call(`/internal/email-themes/${id}`, p.admin)).body.tsx_source).toBe(THEME);
    const config = JSON.parse((await call("/internal/config", p.admin)).body.config_string);
    expect(config.emails.themes[id]).toEqual({ displayName: "Brand 2", tsxSource: THEME });
    expect(Object.keys(config.emails.templates)).toEqual(expect.arrayContaining(BUILT_IN_TEMPLATES));

    const deleted = await call(`/internal/email-themes/${id}`, { ...p.admin, method: "DELETE" });
    expect(deleted.body).toEqual({ success: true });
    expect((await call(`/internal/email-themes/${id}`, p.admin)).status).toBe(404);
    expect((await call("/internal/email-themes", p.admin)).body.themes).toHaveLength(2);
  });

  it("refuses a theme that does not render, deleting a built-in or the active theme, and non-admins", async () => {
    const p = await createProjectWithKeys();
    const { id } = (await call("/internal/email-themes", { ...p.admin, body: { display_name: "Broken" } })).body;
    const broken = await call(`/internal/email-themes/${id}`, {
      ...p.admin,
      method: "PATCH",
      body: { tsx_source: "export function EmailTheme({ children }) {\n  return <div>{children}</div\n}" },
    });
    expect(broken.status).toBe(400);
    expect(broken.body.code).toBe("EMAIL_RENDERING_ERROR");
    expect(broken.body.details.error).toMatch(/line \d+|\(\d+:\d+\)/);
    expect((await call(`/internal/email-themes/${LIGHT}`, { ...p.admin, method: "DELETE" })).text).toBe(
      "Built-in email themes cannot be deleted.",
    );

    await call("/internal/config/override/environment", {
      ...p.admin,
      method: "PATCH",
      body: { config_override_string: JSON.stringify({ "emails.selectedThemeId": id }) },
    });
    const active = await call(`/internal/email-themes/${id}`, { ...p.admin, method: "DELETE" });
    expect(active.status).toBe(400);
    expect(active.text).toContain("currently active email theme");
    expect((await call("/internal/email-themes", p.server)).body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
    expect((await call("/internal/email-themes/not-a-uuid", p.admin)).body.code).toBe("SCHEMA_ERROR");
  });
});

describe("email templates", () => {
  it("lists the eleven built-ins; a template is created, saved (rendered), read, and deleted; a built-in's edit resets", async () => {
    const p = await createProjectWithKeys();
    const list = (await call("/internal/email-templates", p.admin)).body.templates;
    expect(list.map((t: { id: string }) => t.id)).toEqual(BUILT_IN_TEMPLATES);
    expect(list[0]).toEqual({
      id: VERIFICATION,
      display_name: "Email Verification",
      tsx_source: expect.stringContaining("emailVerificationLink"),
    });

    const { id } = (await call("/internal/email-templates", { ...p.admin, body: { display_name: "Newsletter" } })).body;
    const saved = await call(`/internal/email-templates/${id}`, {
      ...p.admin,
      method: "PATCH",
      body: { tsx_source: TEMPLATE, theme_id: false },
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.rendered_html).toContain("Dear John Doe,");
    expect((await call(`/internal/email-templates/${id}`, p.admin)).body).toEqual({
      id,
      display_name: "Newsletter",
      tsx_source: TEMPLATE,
      theme_id: false,
    });
    expect((await call(`/internal/email-templates/${id}`, { ...p.admin, method: "DELETE" })).body).toEqual({});
    expect((await call(`/internal/email-templates/${id}`, p.admin)).status).toBe(404);

    const edited = TEMPLATE.replace("Dear", "Howdy");
    await call(`/internal/email-templates/${VERIFICATION}`, { ...p.admin, method: "PATCH", body: { tsx_source: edited } });
    expect((await call(`/internal/email-templates/${VERIFICATION}`, p.admin)).body.tsx_source).toBe(edited);
    await call(`/internal/email-templates/${VERIFICATION}`, { ...p.admin, method: "DELETE" });
    const reset = (await call(`/internal/email-templates/${VERIFICATION}`, p.admin)).body;
    expect(reset.display_name).toBe("Email Verification");
    expect(reset.tsx_source).toContain("emailVerificationLink");
  });

  it("a template without a Subject, or with an unknown theme, is refused", async () => {
    const p = await createProjectWithKeys();
    const noSubject = await call(`/internal/email-templates/${VERIFICATION}`, {
      ...p.admin,
      method: "PATCH",
      body: { tsx_source: "export const variablesSchema = (v) => v;\nexport function EmailTemplate() { return <p>hi</p>; }" },
    });
    expect(noSubject.body).toMatchObject({
      code: "EMAIL_RENDERING_ERROR",
      details: { error: "Subject is required, import it from @stackframe/emails" },
    });
    const badTheme = await call(`/internal/email-templates/${VERIFICATION}`, {
      ...p.admin,
      method: "PATCH",
      body: { tsx_source: TEMPLATE, theme_id: "6f1a4f0e-3b5d-4c1e-9a7b-000000000000" },
    });
    expect(badTheme.status).toBe(404);
  });
});

describe("render-email", () => {
  it("renders a template by source or id in a theme by id, by source, or none", async () => {
    const p = await createProjectWithKeys();
    const bySource = await call("/emails/render-email", {
      ...p.admin,
      body: { template_tsx_source: TEMPLATE, theme_tsx_source: THEME, variables: { note: "welcome aboard" } },
    });
    expect(bySource.status, bySource.text).toBe(200);
    expect(bySource.body).toMatchObject({ subject: "Hello from Test project", notification_category: "Marketing" });
    expect(bySource.body.html).toContain("<header>Acme header</header>");
    expect(bySource.body.html).toContain("welcome aboard");
    expect(bySource.body.text).toContain("welcome aboard");

    const noTheme = await call("/emails/render-email", { ...p.admin, body: { template_tsx_source: TEMPLATE, theme_id: false } });
    expect(noTheme.body.html).not.toContain("Acme header");
    const builtIn = await call("/emails/render-email", { ...p.admin, body: { template_id: VERIFICATION, theme_id: DARK } });
    expect(builtIn.body.subject).toBe("Verify your email at Test project");
    expect(builtIn.body.notification_category).toBe("Transactional");
  });

  it("answers EMAIL_RENDERING_ERROR with the message and line, SCHEMA_ERROR for a bad body, 404 for unknown ids", async () => {
    const p = await createProjectWithKeys();
    const thrown = await call("/emails/render-email", {
      ...p.admin,
      body: {
        theme_id: false,
        template_tsx_source:
          'export const variablesSchema = (v) => v;\nexport function EmailTemplate() {\n  throw new Error("template exploded");\n}',
      },
    });
    expect(thrown.status).toBe(400);
    expect(thrown.body.code).toBe("EMAIL_RENDERING_ERROR");
    expect(thrown.body.details.error).toContain("template exploded");
    expect(thrown.body.error).toContain("template exploded");
    const syntax = await call("/emails/render-email", {
      ...p.admin,
      body: { template_tsx_source: "export function EmailTemplate( {", theme_id: false },
    });
    expect(syntax.body.code).toBe("EMAIL_RENDERING_ERROR");
    expect((await call("/emails/render-email", { ...p.admin, body: { theme_id: false } })).body.code).toBe("SCHEMA_ERROR");
    const unknown = "6f1a4f0e-3b5d-4c1e-9a7b-000000000000";
    expect((await call("/emails/render-email", { ...p.admin, body: { template_id: unknown } })).status).toBe(400);
    expect((await call("/emails/render-email", { ...p.admin, body: { template_id: VERIFICATION, theme_id: unknown } })).status).toBe(400);
    expect((await call("/emails/render-email", { ...p.server, body: { template_id: VERIFICATION } })).body.code).toBe(
      "INSUFFICIENT_ACCESS_TYPE",
    );
  });
});

describe("email drafts", () => {
  it("creates, lists, reads, updates and deletes drafts", async () => {
    const p = await createProjectWithKeys();
    const created = await call("/internal/email-drafts", { ...p.admin, body: { display_name: "Spring news" } });
    expect(created.body).toEqual({ id: expect.any(String) });
    const id: string = created.body.id;
    const got = await call(`/internal/email-drafts/${id}`, p.admin);
    expect(got.body).toEqual({
      id,
      display_name: "Spring news",
      tsx_source: expect.stringContaining('NotificationCategory value="Marketing"'),
      sent_at_millis: null,
      template_variables: {},
    });
    const patched = await call(`/internal/email-drafts/${id}`, {
      ...p.admin,
      method: "PATCH",
      body: { display_name: "Summer news", theme_id: false, tsx_source: TEMPLATE, template_variables: { note: "hi" } },
    });
    expect(patched.body).toEqual({ ok: "ok" });
    const list = await call("/internal/email-drafts", p.admin);
    expect(list.body.drafts).toEqual([
      { id, display_name: "Summer news", tsx_source: TEMPLATE, theme_id: false, sent_at_millis: null, template_variables: { note: "hi" } },
    ]);
    await call(`/internal/email-drafts/${id}`, { ...p.admin, method: "PATCH", body: { theme_id: DARK } });
    expect((await call(`/internal/email-drafts/${id}`, p.admin)).body.theme_id).toBe(DARK);
    expect((await call(`/internal/email-drafts/${id}`, { ...p.admin, method: "DELETE" })).body).toEqual({ ok: "ok" });
    expect((await call(`/internal/email-drafts/${id}`, p.admin)).status).toBe(404);
    expect((await call(`/internal/email-drafts/${id}`, { ...p.admin, method: "DELETE" })).status).toBe(404);
    // Another project's admin sees none of it.
    const other = await createProjectWithKeys();
    expect((await call("/internal/email-drafts", other.admin)).body.drafts).toEqual([]);
  });
});
