// The email rendering sandbox (worker/email-render): TSX themes and templates written the way the
// reference writes them, rendered in QuickJS inside workerd, with its limits and its isolation.
import { beforeEach, describe, expect, it } from "vitest";
import { clearEmailRenderCache, type EmailRenderInput, type EmailRenderResult, renderEmailSources } from "../../worker/email-render/render";

// A light theme in the reference's style: Tailwind, react-email components, the project logo helper,
// an unsubscribe link when there is one, and preview props.
const LIGHT_THEME = `import { Html, Head, Tailwind, Body, Container, Section } from '@react-email/components';
import { ThemeProps, ProjectLogo } from "@stackframe/emails";

export function EmailTheme({ children, unsubscribeLink, projectLogos }: ThemeProps) {
  return (
    <Html>
      <Head />
      <Tailwind>
        <Body className="bg-[#fafbfb] font-sans text-base m-0 p-0">
          <Container className="bg-white p-[45px] rounded-lg mx-auto" style={{ maxWidth: '600px' }}>
            <ProjectLogo data={projectLogos} mode="light" />
            {children}
          </Container>
          {unsubscribeLink && (
            <Section className="p-4 text-center">
              <a href={unsubscribeLink} className="text-blue-600">Unsubscribe</a> from these emails
            </Section>
          )}
        </Body>
      </Tailwind>
    </Html>
  );
}

EmailTheme.PreviewProps = {
  unsubscribeLink: "https://example.com/preview-unsubscribe",
} satisfies Partial<ThemeProps>
`;

// A verification template in the reference's style: arktype variables, Subject and
// NotificationCategory markers, react-email components, PreviewVariables with \`satisfies\`.
const VERIFY_TEMPLATE = `import { type } from "arktype"
import { Button, Section, Hr } from "@react-email/components";
import { Subject, NotificationCategory, Props } from "@stackframe/emails";

export const variablesSchema = type({
  emailVerificationLink: "string"
})

export function EmailTemplate({ user, project, variables }: Props<typeof variablesSchema.infer>) {
  return (
    <>
      <Subject value={\`Verify your email at \${project.displayName}\`} />
      <NotificationCategory value="Transactional" />
      <Section className="bg-white">
        <h3 className="text-black font-bold text-[20px] text-center">Verify your email at {project.displayName}</h3>
        <p className="text-[#474849] text-[14px] text-center">
          Hi{user.displayName ? (", " + user.displayName) : ''}! Please click on the following button to verify your email.
        </p>
        <Button href={variables.emailVerificationLink} className="bg-[#f0f0f0] rounded-[4px] py-3 px-5">Verify my email</Button>
        <Hr />
      </Section>
    </>
  )
}

EmailTemplate.PreviewVariables = {
  emailVerificationLink: "<email verification link>"
} satisfies typeof variablesSchema.infer
`;

const base = (over: Partial<EmailRenderInput>): EmailRenderInput => ({
  themeSource: LIGHT_THEME,
  templateSource: VERIFY_TEMPLATE,
  variables: { emailVerificationLink: "https://app.example/verify?code=abc" },
  user: { displayName: "Ada Lovelace" },
  project: { displayName: "Acme" },
  ...over,
});

/** A bare template whose body runs `statement` first (for the failure cases). */
const templateRunning = (statement: string) =>
  `export const variablesSchema = (v) => v;\nexport function EmailTemplate() {\n  ${statement};\n  return <p>unreachable</p>;\n}\n`;

function ok(r: EmailRenderResult) {
  if (!r.ok) throw new Error(`render failed: ${r.error}`);
  return r;
}

/** After any failure, an ordinary render must still work (and show nothing of the failed one). */
async function expectNextRenderFine() {
  const r = ok(await renderEmailSources(base({ variables: { emailVerificationLink: `https://app.example/v/${crypto.randomUUID()}` } })));
  expect(r.subject).toBe("Verify your email at Acme");
  expect(r.html).toContain("Hi, Ada Lovelace!");
}

beforeEach(() => clearEmailRenderCache());

describe("rendering", () => {
  it("renders the reference-style default theme and template with variables: html, text, subject, category", async () => {
    const r = ok(await renderEmailSources(base({ unsubscribeLink: "https://app.example/unsubscribe?t=1" })));
    expect(r.html.startsWith('<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN"')).toBe(true);
    expect(r.html).toContain('href="https://app.example/verify?code=abc"');
    expect(r.html).toContain("Verify your email at Acme");
    expect(r.html).toContain("Hi, Ada Lovelace!");
    // Tailwind classes became inline styles.
    expect(r.html).toContain("background-color:rgb(250,251,251)");
    expect(r.html).not.toContain('class="bg-[#fafbfb]');
    expect(r.html).toContain('href="https://app.example/unsubscribe?t=1"');
    expect(r.subject).toBe("Verify your email at Acme");
    expect(r.notificationCategory).toBe("Transactional");
    expect(r.text).toContain("Hi, Ada Lovelace! Please click on the following button to verify your email.");
    expect(r.text).toContain("Verify my email https://app.example/verify?code=abc");
    expect(r.text).not.toContain("<");
  });

  it("renders a custom theme, and without an unsubscribe link the theme leaves it out", async () => {
    const theme = `export function EmailTheme({ children, unsubscribeLink }: { children: React.ReactNode, unsubscribeLink?: string }) {
  return <html><body><header>Custom header for Acme</header><main>{children}</main>{unsubscribeLink && <footer>unsubscribe</footer>}</body></html>;
}`;
    const r = ok(await renderEmailSources(base({ themeSource: theme })));
    expect(r.html).toContain("<header>Custom header for Acme</header>");
    expect(r.html).toContain("Hi, Ada Lovelace!");
    expect(r.html).not.toContain("<footer>");
    expect(r.text).toContain("Custom header for Acme");
  });

  it("renders with no theme (theme_id: false): the template alone in a bare document", async () => {
    const r = ok(await renderEmailSources(base({ themeSource: null, unsubscribeLink: "https://app.example/u" })));
    expect(r.html).toContain("<html");
    expect(r.html).toContain("<body");
    expect(r.html).toContain("Hi, Ada Lovelace!");
    expect(r.html).not.toContain("https://app.example/u");
    expect(r.html).not.toContain("background-color:rgb(250,251,251)");
  });

  it("a template without a Subject gives an empty subject and no category; HTML templates with a pass-through schema work", async () => {
    const template = `export const variablesSchema = v => v;
export function EmailTemplate({ variables }) {
  return <div dangerouslySetInnerHTML={{ __html: "<b>" + variables.word + "</b>" }} />;
}`;
    const r = ok(await renderEmailSources(base({ templateSource: template, variables: { word: "raw html" } })));
    expect(r.html).toContain("<b>raw html</b>");
    expect(r.subject).toBe("");
    expect(r.notificationCategory).toBeUndefined();
  });

  it("arktype validation failure is an error naming the variable", async () => {
    const r = await renderEmailSources(base({ variables: { emailVerificationLink: 42 } }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toContain("emailVerificationLink must be a string");
    await expectNextRenderFine();
  });

  it("preview mode fills missing variables from EmailTemplate.PreviewVariables and theme props from EmailTheme.PreviewProps", async () => {
    const r = ok(await renderEmailSources(base({ variables: {}, previewMode: true })));
    expect(r.html).toContain('href="&lt;email verification link&gt;"');
    expect(r.html).toContain('href="https://example.com/preview-unsubscribe"');
    // Given variables still win over the preview ones.
    const given = ok(await renderEmailSources(base({ previewMode: true })));
    expect(given.html).toContain('href="https://app.example/verify?code=abc"');
    // Without preview mode, missing variables are an error.
    expect((await renderEmailSources(base({ variables: {} }))).ok).toBe(false);
  });

  it("caches results by every input: same input is the same result, another variable renders anew", async () => {
    const first = ok(await renderEmailSources(base({})));
    const again = ok(await renderEmailSources(base({})));
    expect(again).toEqual(first);
    const other = ok(await renderEmailSources(base({ variables: { emailVerificationLink: "https://other.example/" } })));
    expect(other.html).toContain("https://other.example/");
    expect(other.html).not.toContain("code=abc");
  });
});

describe("failures are known errors in bounded time, and the next render is fine", () => {
  it("a syntax error gives the line", async () => {
    const template = `export const variablesSchema = v => v;\nexport function EmailTemplate() {\n  return <div>{oops</div>;\n}\n`;
    const r = await renderEmailSources(base({ templateSource: template }));
    expect(r).toMatchObject({ ok: false, line: 3 });
    if (!r.ok) expect(r.error).toMatch(/^Syntax error in template\.tsx at line 3: /);
    const badTheme = await renderEmailSources(base({ themeSource: "export function EmailTheme( {" }));
    expect(badTheme).toMatchObject({ ok: false, line: 1 });
    if (!badTheme.ok) expect(badTheme.error).toContain("theme.tsx");
    await expectNextRenderFine();
  });

  it("a thrown error gives its message and line", async () => {
    const r = await renderEmailSources(base({ templateSource: templateRunning('throw new Error("template exploded")') }));
    expect(r).toMatchObject({ ok: false, line: 3 });
    if (!r.ok) expect(r.error).toBe("template exploded (template.tsx line 3)");
    await expectNextRenderFine();
  });

  it("an infinite loop is stopped by the CPU budget", async () => {
    const started = Date.now();
    const r = await renderEmailSources(base({ templateSource: templateRunning("while (true) {}") }));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/CPU budget/);
    expect(Date.now() - started).toBeLessThan(10_000);
    await expectNextRenderFine();
  });

  it("an infinite loop at module level (outside any component) is stopped too", async () => {
    const r = await renderEmailSources(base({ themeSource: "for (;;) {}\nexport function EmailTheme({ children }) { return children; }" }));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/CPU budget/);
    await expectNextRenderFine();
  });

  it("a 1 GB allocation hits the memory limit", async () => {
    const started = Date.now();
    const r = await renderEmailSources(base({ templateSource: templateRunning("new Array(1e9).fill(0)") }));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/memory/);
    const str = await renderEmailSources(base({ templateSource: templateRunning('let s = "x"; for (;;) s += s') }));
    expect(str.ok).toBe(false);
    if (!str.ok) expect(str.error).toMatch(/memory|string too long/);
    expect(Date.now() - started).toBeLessThan(20_000);
    await expectNextRenderFine();
  });

  it("endless recursion is a stack overflow error", async () => {
    const r = await renderEmailSources(base({ templateSource: templateRunning("const f = (n) => f(n + 1) + 1; f(0)") }));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/stack overflow/i);
    await expectNextRenderFine();
  });

  it("a theme or template without its export is a clear error", async () => {
    const r = await renderEmailSources(base({ themeSource: "export const nothing = 1;" }));
    expect(r).toMatchObject({ ok: false, error: "The theme must export a function EmailTheme" });
    await expectNextRenderFine();
  });
});

describe("isolation", () => {
  it("has no fetch, no timers, no process, no require of Node or host modules", async () => {
    const probe = `export const variablesSchema = v => v;
export function EmailTemplate() {
  const seen = {
    fetch: typeof fetch, setTimeout: typeof setTimeout, process: typeof globalThis.process,
    caches: typeof caches, crypto: typeof crypto, WebAssembly: typeof WebAssembly,
    XMLHttpRequest: typeof XMLHttpRequest, WebSocket: typeof WebSocket, importScripts: typeof importScripts,
    env: typeof env, Deno: typeof Deno, Bun: typeof Bun, navigator: typeof navigator,
  };
  const tries = {};
  for (const name of ["fs", "node:fs", "child_process", "cloudflare:sockets", "cloudflare:workers", "../../worker/index"]) {
    try { require(name); tries[name] = "loaded"; } catch (e) { tries[name] = "refused"; }
  }
  let fn = "refused";
  try { fn = (new Function("return typeof fetch"))() } catch { }
  return <pre>{JSON.stringify({ seen, tries, fn })}</pre>;
}`;
    const r = ok(await renderEmailSources(base({ themeSource: null, templateSource: probe })));
    const json = JSON.parse(r.html.match(/<pre>(.*)<\/pre>/)![1]!.replace(/&quot;/g, '"'));
    for (const [name, kind] of Object.entries(json.seen)) expect(`${name}: ${kind}`).toBe(`${name}: undefined`);
    for (const [name, result] of Object.entries(json.tries)) expect(`${name}: ${result}`).toBe(`${name}: refused`);
    // Code built at run time sees the same sandbox globals.
    expect(json.fn).toBe("undefined");
  });

  it("dynamic import() cannot load anything", async () => {
    const r = await renderEmailSources(
      base({
        themeSource: null,
        templateSource: templateRunning('import("cloudflare:sockets").then(() => { throw new Error("loaded") })'),
      }),
    );
    // The render itself goes on (the promise is never awaited by React); nothing got loaded.
    expect(r.ok).toBe(true);
    const awaited = await renderEmailSources(base({ themeSource: null, templateSource: templateRunning("throw typeof import") }));
    expect(awaited.ok).toBe(false);
  });

  it("nothing one render does reaches the next: patched prototypes, globals and library objects are gone", async () => {
    const poison = `import * as components from "@react-email/components";
const includes = Array.prototype.includes;
Array.prototype.includes = function (...args) { return includes.apply(this, args); };
Array.prototype.includes.poisoned = "POISONED";
Object.defineProperty(Object.prototype, "poisoned", { value: "POISONED", enumerable: false, configurable: true });
globalThis.leak = "POISONED";
components.Button = () => "POISONED BUTTON";
export const variablesSchema = v => v;
export function EmailTemplate() { return <p>{globalThis.leak} {[1].includes.poisoned} {({}).poisoned}</p>; }`;
    const poisoned = ok(await renderEmailSources(base({ themeSource: null, templateSource: poison })));
    expect(poisoned.html).toContain("<p>POISONED POISONED POISONED</p>");
    const check = `import { Button } from "@react-email/components";
export const variablesSchema = v => v;
export function EmailTemplate() {
  return <><p>{typeof globalThis.leak}|{typeof [1].includes.poisoned}|{typeof ({}).poisoned}</p><Button href="https://b.example">Press</Button></>;
}`;
    const r = ok(await renderEmailSources(base({ themeSource: null, templateSource: check })));
    expect(r.html).toContain("<p>undefined|undefined|undefined</p>");
    expect(r.html).toContain('href="https://b.example"');
    expect(r.html).not.toContain("POISONED");
    await expectNextRenderFine();
  });
});
