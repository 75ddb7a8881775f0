// The email sandbox's limits (worker/email-render): every render is bounded in memory (the WebAssembly
// memory itself), CPU, output and cache, a hostile template ends as a readable failure, the next render
// is fine and the sandbox's memory is back at its baseline; and the built-in emails' precompiled fast
// path gives the very email the sandbox renders. No timing assertions: figures are in `npm run bench:email`.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { renderBuiltInFast } from "../../worker/email-render/built-in-fast";
import { LruCache } from "../../worker/email-render/cache";
import { MAX_EMAIL_BYTES, parseSandboxAnswer, utf8Bytes } from "../../worker/email-render/output";
import {
  clearEmailRenderCache,
  type EmailRenderInput,
  type EmailRenderResult,
  emailRenderCacheStats,
  renderEmailSources,
} from "../../worker/email-render/render";
import { lastSandboxRun, SANDBOX_MEMORY_MAX_BYTES, sandboxMemory } from "../../worker/email-render/sandbox";
import {
  BUILT_IN_TEMPLATE_IDS,
  type BuiltInEmailKind,
  builtInTemplateSource,
  builtInTexts,
  builtInThemeSource,
  DARK_EMAIL_THEME_ID,
  DEFAULT_EMAIL_TEMPLATES,
  DEFAULT_EMAIL_THEME_ID,
  DEFAULT_EMAIL_THEMES,
} from "../../worker/services/email/defaults";
import { EMAIL_LOCALES, type EmailLocale } from "../../worker/services/email/locale";

const LIGHT = DEFAULT_EMAIL_THEMES[DEFAULT_EMAIL_THEME_ID]!.tsxSource;
const VERIFY = DEFAULT_EMAIL_TEMPLATES[BUILT_IN_TEMPLATE_IDS.email_verification]!.tsxSource;

const normal = (over: Partial<EmailRenderInput> = {}): EmailRenderInput => ({
  themeSource: LIGHT,
  templateSource: VERIFY,
  variables: { emailVerificationLink: "https://app.example/verify?code=limits" },
  user: { displayName: "Ada" },
  project: { displayName: "Acme" },
  ...over,
});

/** A bare template (no theme) whose component runs `statement` first. */
const hostile = (statement: string): EmailRenderInput =>
  normal({
    themeSource: null,
    templateSource: `export const variablesSchema = (v) => v;\nexport function EmailTemplate() {\n  ${statement};\n  return <p>unreachable</p>;\n}\n`,
  });

function failed(r: EmailRenderResult): string {
  if (r.ok) throw new Error("expected the render to fail");
  return r.error;
}

let baseline: { html: string; wasmBytes: number; snapshotBytes: number };

/** The next ordinary render gives the same email as before any failure, in the same memory as before it. */
async function expectNextRenderFineAndMemoryBack() {
  clearEmailRenderCache();
  const r = await renderEmailSources(normal());
  if (!r.ok) throw new Error(`the next render failed: ${r.error}`);
  expect(r.html).toBe(baseline.html);
  const memory = sandboxMemory();
  expect(memory.wasmBytes).toBe(baseline.wasmBytes);
  expect(memory.snapshotBytes).toBe(baseline.snapshotBytes);
}

beforeAll(async () => {
  const r = await renderEmailSources(normal());
  if (!r.ok) throw new Error(r.error);
  baseline = { html: r.html, ...sandboxMemory() };
});

beforeEach(() => clearEmailRenderCache());

describe("memory: the WebAssembly memory is bounded, and given back after a render that grew it", () => {
  it("has a baseline well under the cap", () => {
    expect(baseline.wasmBytes).toBeGreaterThan(16 * 1024 * 1024);
    expect(baseline.wasmBytes).toBeLessThan(SANDBOX_MEMORY_MAX_BYTES / 2);
    expect(baseline.snapshotBytes).toBeGreaterThan(0);
    expect(baseline.snapshotBytes).toBeLessThanOrEqual(baseline.wasmBytes);
  });

  for (const [name, statement] of [
    ["a 1 GB ArrayBuffer", "new ArrayBuffer(1e9)"],
    ["a 1 GB array filled", "new Array(1e9).fill(0)"],
    ['"x".repeat(1e9)', '"x".repeat(1e9)'],
    ["an array growing forever", "const a = []; for (;;) a.push({ n: a.length, s: 'item ' + a.length })"],
    ["a string doubling forever", 'let s = "xy"; for (;;) s = s.concat(s).split("").join("")'],
    ["a string doubling with +=", 'let s = "x"; for (;;) s += s'],
    ["many 1 MB buffers kept", "const keep = []; for (;;) keep.push(new Uint8Array(1 << 20))"],
  ] as const) {
    it(`${name} ends as a memory failure; the next render is fine and the memory is back at its baseline`, async () => {
      const error = failed(await renderEmailSources(hostile(statement)));
      expect(error).toBe(`Rendering was stopped: it used more than the sandbox's ${SANDBOX_MEMORY_MAX_BYTES / 1048576} MB of memory.`);
      expect(lastSandboxRun()!.wasmBytes).toBeLessThanOrEqual(SANDBOX_MEMORY_MAX_BYTES);
      await expectNextRenderFineAndMemoryBack();
    });
  }

  it("a 100 MB output never exists: the memory cap stops it first", async () => {
    const error = failed(
      await renderEmailSources(
        normal({
          themeSource: null,
          templateSource: 'export const variablesSchema = (v) => v;\nexport function EmailTemplate() { return <p>{"x".repeat(1e8)}</p>; }',
        }),
      ),
    );
    expect(error).toMatch(/used more than the sandbox's 64 MB of memory/);
    expect(lastSandboxRun()!.wasmBytes).toBeLessThanOrEqual(SANDBOX_MEMORY_MAX_BYTES);
    await expectNextRenderFineAndMemoryBack();
  });
});

describe("CPU: runaway scripts are stopped", () => {
  for (const [name, statement] of [
    ["an endless loop", "for (;;) {}"],
    ["an endless loop of calls", "const f = () => 1; for (;;) f()"],
    ["catastrophic regular-expression backtracking", '/^(a+)+$/.test("a".repeat(40) + "b")'],
    ["an endless loop that catches everything", "for (;;) { try { null.x } catch {} }"],
  ] as const) {
    it(`${name} runs past the CPU budget; the next render is fine`, async () => {
      const error = failed(await renderEmailSources(hostile(statement)));
      expect(error).toMatch(/^Rendering was stopped: it ran past the sandbox's CPU budget/);
      expect(lastSandboxRun()!.stoppedBy).not.toBeNull();
      await expectNextRenderFineAndMemoryBack();
    });
  }

  it("deep recursion is QuickJS's stack overflow, not the host's", async () => {
    expect(failed(await renderEmailSources(hostile("const f = (n) => f(n + 1) + 1; f(0)")))).toMatch(/stack overflow/i);
    await expectNextRenderFineAndMemoryBack();
  });
});

describe("output: the sandbox's answer is checked like any input", () => {
  it("an email above 1 MB is a failure (the guest stops before writing its plain text)", async () => {
    const r = await renderEmailSources(
      normal({
        themeSource: null,
        templateSource:
          'export const variablesSchema = (v) => v;\nexport function EmailTemplate() { return <p>{"x".repeat(2 * 1024 * 1024)}</p>; }',
      }),
    );
    expect(failed(r)).toBe("Rendering was stopped: the rendered email is larger than 1 MB.");
    await expectNextRenderFineAndMemoryBack();
  });

  it("a guest that changes what the answer serialises to gives a failure, not an exception", async () => {
    const r = await renderEmailSources(
      normal({
        themeSource: null,
        templateSource: `Object.defineProperty(Object.prototype, "toJSON", { value: function () { return { html: 42 }; }, configurable: true });
export const variablesSchema = (v) => v;
export function EmailTemplate() { return <p>hi</p>; }`,
      }),
    );
    expect(failed(r)).toMatch(/^The email sandbox answered something that is not an email \(html: /);
    await expectNextRenderFineAndMemoryBack();
  });

  it("a subject above 998 characters is a failure", async () => {
    const r = await renderEmailSources(
      normal({
        themeSource: null,
        templateSource: `import { Subject } from "@stackframe/emails";
export const variablesSchema = (v) => v;
export function EmailTemplate() { return <><Subject value={"s".repeat(999)} /><p>hi</p></>; }`,
      }),
    );
    expect(failed(r)).toBe("The email's subject is longer than 998 characters (999).");
  });

  it("a guest's huge error message is clipped", async () => {
    const error = failed(await renderEmailSources(hostile('throw new Error("x".repeat(5e6))')));
    expect(error.length).toBeLessThan(1100);
    expect(error).toMatch(/^x+…/);
  });

  it("parseSandboxAnswer refuses what is not JSON, a wrong shape, and more than 1 MB", () => {
    expect(parseSandboxAnswer("not json")).toMatchObject({ ok: false, error: expect.stringMatching(/not JSON/) });
    expect(parseSandboxAnswer("null")).toMatchObject({ ok: false });
    expect(parseSandboxAnswer(JSON.stringify({ html: "<p/>" }))).toMatchObject({ ok: false, error: expect.stringMatching(/text/) });
    expect(parseSandboxAnswer(JSON.stringify({ html: "<p/>", text: "", notificationCategory: 3 }))).toMatchObject({ ok: false });
    expect(parseSandboxAnswer(JSON.stringify({ html: "é".repeat(MAX_EMAIL_BYTES / 2), text: "x" }))).toMatchObject({
      ok: false,
      error: "Rendering was stopped: the rendered email is larger than 1 MB.",
    });
    expect(parseSandboxAnswer(JSON.stringify({ html: "<p/>", text: "hi" }))).toEqual({ ok: true, html: "<p/>", text: "hi", subject: "" });
    expect(utf8Bytes("aé€😀")).toBe(new TextEncoder().encode("aé€😀").length);
  });
});

describe("cache: bounded by bytes", () => {
  it("keeps at most maxBytes, drops the oldest first, and never keeps an entry above maxEntryBytes", () => {
    const lru = new LruCache<string>({ maxEntries: 100, maxBytes: 1000, maxEntryBytes: 400 });
    expect(lru.set("big", "x", 401)).toBe(false);
    expect(lru.size).toBe(0);
    lru.set("a", "a", 400);
    lru.set("b", "b", 400);
    lru.get("a"); // a is now the most recent
    lru.set("c", "c", 400);
    expect(lru.get("b")).toBeUndefined();
    expect(lru.get("a")).toBe("a");
    expect(lru.bytes).toBe(800);
    lru.set("a", "a2", 100);
    expect(lru.bytes).toBe(500);
  });

  it("a render above 256 KB is not cached; an ordinary one is", async () => {
    const big = normal({
      themeSource: null,
      templateSource:
        'export const variablesSchema = (v) => v;\nexport function EmailTemplate() { return <p>{"x".repeat(300 * 1024)}</p>; }',
    });
    expect((await renderEmailSources(big)).ok).toBe(true);
    expect(emailRenderCacheStats().entries).toBe(0);
    expect((await renderEmailSources(normal())).ok).toBe(true);
    expect(emailRenderCacheStats().entries).toBe(1);
    expect(emailRenderCacheStats().bytes).toBeLessThan(64 * 1024);
  });
});

describe("the built-in emails' fast path", () => {
  // Values that exercise every escape, a long link (the plain text wraps at 80 columns), runs of
  // whitespace (collapsed in the text), non-ASCII, and text that looks like markup or a placeholder.
  const tricky = {
    link: `https://app.example/handler?code=${"c".repeat(90)}&next=%2F<b>"it's"</b>`,
    name: 'Zoë  <Ada> & "Bob" O\'Neil\u00a0\u2014 \uE000 1 \uE001',
    project: "Acme & Sons <Ltd> \"Q\" 'R'",
    text: "Tëam\n\twith  spaces & <tags>",
  };
  const variablesOf = (id: string): Record<string, string | number> => {
    switch (id) {
      case BUILT_IN_TEMPLATE_IDS.email_verification:
        return { emailVerificationLink: tricky.link };
      case BUILT_IN_TEMPLATE_IDS.password_reset:
        return { passwordResetLink: tricky.link };
      case BUILT_IN_TEMPLATE_IDS.magic_link:
        return { magicLink: tricky.link, otp: "3SL<WZ>" };
      case BUILT_IN_TEMPLATE_IDS.team_invitation:
        return { teamDisplayName: tricky.text, teamInvitationLink: tricky.link };
      case BUILT_IN_TEMPLATE_IDS.sign_in_invitation:
        return { signInInvitationLink: tricky.link, teamDisplayName: tricky.text };
      case BUILT_IN_TEMPLATE_IDS.new_sign_in:
        return { signInDevice: "Chrome <on> macOS", signInLocation: "Zürich, CH", signInTime: "2025-01-01 12:00 UTC", extra: "ignored" };
      case BUILT_IN_TEMPLATE_IDS.device_verification:
        return { otp: "3SL<WZ>" };
      case BUILT_IN_TEMPLATE_IDS.sign_in_locked:
        return { lockedUntil: '2025-01-01 13:00 UTC <soon> & "later"' };
      case BUILT_IN_TEMPLATE_IDS.payment_receipt:
        return { productName: "Pro <Plan>", quantity: 2, amount: "USD 5.00", receiptLink: "https://pay.example/r?a=1&b=2" };
      case BUILT_IN_TEMPLATE_IDS.payment_failed:
        return { productName: "Pro & more", amount: "USD 15.00", invoiceUrl: "https://pay.example/i", failureReason: "Card <declined>" };
      default:
        return {};
    }
  };

  for (const [kind, templateId] of Object.entries(BUILT_IN_TEMPLATE_IDS)) {
    it(`${kind}: byte-identical to the sandbox's render in both themes, with and without the user's name`, async () => {
      for (const [themeId, theme] of Object.entries(DEFAULT_EMAIL_THEMES)) {
        for (const displayName of [tricky.name, null, ""]) {
          const input: EmailRenderInput = {
            themeSource: theme.tsxSource,
            templateSource: DEFAULT_EMAIL_TEMPLATES[templateId]!.tsxSource,
            variables: variablesOf(templateId),
            user: { displayName },
            project: { displayName: tricky.project },
          };
          const fast = renderBuiltInFast(input);
          const sandbox = await renderEmailSources(input);
          expect(sandbox.ok, `${kind} in ${themeId}`).toBe(true);
          // The payment emails test their optional links in conditions, which a precompiled form cannot hold: the sandbox renders them.
          if (kind.startsWith("payment_")) expect(fast).toBeNull();
          else expect(fast, `${kind} in ${themeId}, name ${JSON.stringify(displayName)}`).toEqual(sandbox);
        }
      }
    });
  }

  // In another locale the fast path fills the English entry's text slots with the locale's texts: the
  // bytes the sandbox renders from that locale's sources (texts written into the TSX, <Html lang dir>).
  const precompiled = (Object.keys(BUILT_IN_TEMPLATE_IDS) as BuiltInEmailKind[]).filter((k) => !k.startsWith("payment_"));
  const inLocale = (kind: BuiltInEmailKind, locale: EmailLocale, themeId: string, displayName: string | null) => {
    const english: EmailRenderInput = {
      themeSource: DEFAULT_EMAIL_THEMES[themeId]!.tsxSource,
      templateSource: DEFAULT_EMAIL_TEMPLATES[BUILT_IN_TEMPLATE_IDS[kind]]!.tsxSource,
      variables: variablesOf(BUILT_IN_TEMPLATE_IDS[kind]),
      user: { displayName },
      project: { displayName: tricky.project },
    };
    const localized = {
      ...english,
      themeSource: builtInThemeSource(themeId, locale)!,
      templateSource: builtInTemplateSource(kind, locale),
    };
    return { fast: renderBuiltInFast(english, builtInTexts(kind, locale)), localized };
  };

  for (const locale of EMAIL_LOCALES.filter((l) => l !== "en")) {
    it(`${locale}: every precompiled kind is byte-identical to the sandbox's render of the ${locale} sources`, async () => {
      for (const kind of precompiled) {
        const { fast, localized } = inLocale(kind, locale, DEFAULT_EMAIL_THEME_ID, tricky.name);
        const sandbox = await renderEmailSources(localized);
        expect(sandbox.ok, `${kind} in ${locale}`).toBe(true);
        expect(fast, `${kind} in ${locale}`).toEqual(sandbox);
      }
    });
  }

  it("ar: right to left in both themes, with and without the user's name, the same bytes as the sandbox", async () => {
    for (const themeId of [DEFAULT_EMAIL_THEME_ID, DARK_EMAIL_THEME_ID])
      for (const displayName of [null, "ليلى"]) {
        const { fast, localized } = inLocale("magic_link", "ar", themeId, displayName);
        const sandbox = await renderEmailSources(localized);
        expect(fast).toEqual(sandbox);
        if (!fast?.ok) throw new Error("no fast render");
        expect(fast.html).toMatch(/<html dir="rtl" lang="ar">/);
        expect(fast.subject).toBe(`تسجيل الدخول إلى ${tricky.project}: رمزك هو 3SL<WZ>`);
        expect(fast.text).toContain(displayName ? "مرحبًا ليلى!" : "مرحبًا!");
      }
  });

  it("the payment emails (sandbox only) render in other locales", async () => {
    for (const locale of ["de", "ja", "ar"] as const)
      for (const kind of ["payment_receipt", "payment_failed"] as const) {
        const { fast, localized } = inLocale(kind, locale, DEFAULT_EMAIL_THEME_ID, null);
        expect(fast).toBeNull();
        const sandbox = await renderEmailSources(localized);
        expect(sandbox.ok, `${kind} in ${locale}: ${sandbox.ok ? "" : sandbox.error}`).toBe(true);
        if (sandbox.ok) expect(sandbox.subject).toContain(tricky.project);
      }
  });

  it("answers null (render in the sandbox) when the precompiled form might not be the email", () => {
    const input = normal();
    expect(renderBuiltInFast(input)).not.toBeNull();
    expect(renderBuiltInFast({ ...input, templateSource: `${VERIFY}\n// edited` })).toBeNull();
    expect(renderBuiltInFast({ ...input, themeSource: null })).toBeNull();
    expect(renderBuiltInFast({ ...input, previewMode: true })).toBeNull();
    expect(renderBuiltInFast({ ...input, unsubscribeLink: "https://app.example/unsubscribe" })).toBeNull();
    expect(renderBuiltInFast({ ...input, variables: {} })).toBeNull();
    expect(renderBuiltInFast({ ...input, variables: { emailVerificationLink: "" } })).toBeNull();
    expect(renderBuiltInFast({ ...input, variables: { emailVerificationLink: 42 } })).toBeNull();
    expect(renderBuiltInFast({ ...input, project: { displayName: "" } })).toBeNull();
    // A text naming a value the template does not have cannot be filled exactly.
    expect(renderBuiltInFast(input, { ...builtInTexts("email_verification", "de"), heading: "{nope}" })).toBeNull();
    expect(renderBuiltInFast(input, { ...builtInTexts("email_verification", "de"), heading: undefined as unknown as string })).toBeNull();
  });
});
