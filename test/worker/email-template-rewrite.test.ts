/**
 * POST /internal/rewrite-template-source: a template becomes a standalone draft (its preview
 * variables as constants, its schema gone), checked by rendering it; what cannot be rewritten or does
 * not render is TEMPLATE_SOURCE_REWRITE_ERROR.
 */
import { describe, expect, it } from "vitest";
import { call, createProjectWithKeys } from "../helpers/api";

const withSchema = `
import { type } from "arktype";
import { Subject, NotificationCategory } from "@stackframe/emails";
export const variablesSchema = type({ greeting: "string", count: "number" });
export function EmailTemplate({ variables, user }: any) {
  return <><Subject value={variables.greeting} /><NotificationCategory value="Transactional" /><div>{variables.greeting} {variables.count} {user.displayName}</div></>;
}
EmailTemplate.PreviewVariables = {
  greeting: "Hello; there!",
  count: 42,
} satisfies typeof variablesSchema.infer;
`;

describe("POST /internal/rewrite-template-source", () => {
  it("moves the preview variables into the template, drops the schema (whatever its name), and the draft renders with them", async () => {
    const p = await createProjectWithKeys();
    const res = await call("/internal/rewrite-template-source", { ...p.admin, body: { template_tsx_source: withSchema } });
    expect(res.status, res.text).toBe(200);
    const source: string = res.body.tsx_source;
    expect(source).toContain('const variables = {\n  greeting: "Hello; there!",\n  count: 42,\n};');
    expect(source).not.toContain("PreviewVariables");
    expect(source).not.toContain("variablesSchema");
    expect(source).toContain("export function EmailTemplate({ user }: any)");
    const rendered = await call("/emails/render-email", { ...p.admin, body: { template_tsx_source: source, theme_id: false } });
    expect(rendered.status, rendered.text).toBe(200);
    expect(rendered.body.subject).toBe("Hello; there!");
    expect(rendered.body.html).toContain("Hello; there! 42 John Doe");

    const renamed = withSchema
      .replaceAll("variablesSchema", "profileSchema")
      .replace("({ variables, user }: any)", "({ user, variables }: Props<typeof profileSchema.infer>)");
    const again = await call("/internal/rewrite-template-source", { ...p.admin, body: { template_tsx_source: renamed } });
    expect(again.status, again.text).toBe(200);
    expect(again.body.tsx_source).not.toContain("profileSchema");
    expect(again.body.tsx_source).toContain("export function EmailTemplate({ user })");
  });

  it("passes a template without variables through unchanged", async () => {
    const p = await createProjectWithKeys();
    const source = "export function EmailTemplate({ user }: any) {\n  return <div>Hello {user.displayName}</div>;\n}\n";
    const res = await call("/internal/rewrite-template-source", { ...p.admin, body: { template_tsx_source: source } });
    expect([res.status, res.body]).toEqual([200, { tsx_source: source }]);
  });

  it("refuses what it cannot rewrite or what does not render, and non-admins", async () => {
    const p = await createProjectWithKeys();
    const arrow = `import { type } from "arktype";\nexport const variablesSchema = type({ a: "string" });\nexport const EmailTemplate = (props: any) => <div>{props.variables.a}</div>;\n`;
    const notDestructured =
      "export function EmailTemplate(props: any) {\n  return <div>{props.variables.a}</div>;\n}\nEmailTemplate.PreviewVariables = { a: 1 };\n";
    const broken = "export function EmailTemplate({ variables }) {\n  return <div>{variables.a.b.c}</div>;\n}\n";
    for (const template_tsx_source of [arrow, notDestructured, broken]) {
      const res = await call("/internal/rewrite-template-source", { ...p.admin, body: { template_tsx_source } });
      expect([res.status, res.body.code], template_tsx_source).toEqual([400, "TEMPLATE_SOURCE_REWRITE_ERROR"]);
      expect(res.body.details.error).toEqual(expect.any(String));
    }
    const server = await call("/internal/rewrite-template-source", { ...p.server, body: { template_tsx_source: broken } });
    expect(server.status).toBe(401);
    const bad = await call("/internal/rewrite-template-source", { ...p.admin, body: {} });
    expect([bad.status, bad.body.code]).toEqual([400, "SCHEMA_ERROR"]);
  });
});
