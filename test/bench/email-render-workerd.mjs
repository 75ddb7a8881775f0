// The in-workerd part of `npm run bench:email` (run by test/bench/email-render.mjs, not by npm test).
// Wall time per render: every measured render is followed by a zero timer and the figures include
// that (~0.1 ms) hop (in production workerd's clock moves only across I/O; in the vitest pool it also
// moves during synchronous work, which the calibration below relies on). Prints one JSON line.
import { expect, it } from "vitest";
import { renderBuiltInFast } from "../../worker/email-render/built-in-fast";
import { clearEmailRenderCache, renderEmailSources } from "../../worker/email-render/render";
import {
  DEFAULT_LIMITS,
  dropWarmInstance,
  dropWarmSandbox,
  lastSandboxRun,
  sandboxMemory,
  warmSandboxSnapshotBytes,
} from "../../worker/email-render/sandbox";
import {
  BUILT_IN_TEMPLATE_IDS,
  DEFAULT_EMAIL_TEMPLATES,
  DEFAULT_EMAIL_THEME_ID,
  DEFAULT_EMAIL_THEMES,
} from "../../worker/services/email/defaults";

const COLD = Number(globalThis.process?.env?.BENCH_EMAIL_COLD || 3);
const WARM = Number(globalThis.process?.env?.BENCH_EMAIL_WARM || 30);
const FAST = Number(globalThis.process?.env?.BENCH_EMAIL_FAST || 500);

const THEME = `import { Html, Head, Tailwind, Body, Container, Section } from '@react-email/components';
export function EmailTheme({ children, unsubscribeLink }) {
  return <Html><Head /><Tailwind><Body className="bg-[#fafbfb] font-sans text-base m-0 p-0">
    <Container className="bg-white p-[45px] rounded-lg mx-auto">{children}</Container>
    {unsubscribeLink && <Section className="p-4 text-center"><a href={unsubscribeLink} className="text-blue-600">Unsubscribe</a></Section>}
  </Body></Tailwind></Html>;
}`;
const PLAIN_THEME = `export function EmailTheme({ children }) { return <html><body>{children}</body></html>; }`;
const TEMPLATE = `import { type } from "arktype";
import { Button, Section, Hr } from "@react-email/components";
import { Subject, NotificationCategory } from "@stackframe/emails";
export const variablesSchema = type({ link: "string" });
export function EmailTemplate({ user, project, variables }) {
  return <><Subject value={"Verify your email at " + project.displayName} /><NotificationCategory value="Transactional" />
    <Section><h3 className="text-black font-bold text-[20px] text-center">Verify your email at {project.displayName}</h3>
    <p className="text-[#474849] text-[14px] text-center">Hi{user.displayName ? ", " + user.displayName : ""}! Please click the button.</p>
    <Button href={variables.link} className="bg-[#f0f0f0] rounded-[4px] py-3 px-5">Verify my email</Button><Hr /></Section></>;
}`;
const bare = (statement) =>
  `export const variablesSchema = (v) => v;\nexport function EmailTemplate() {\n  ${statement};\n  return <p>x</p>;\n}\n`;

const hop = () => new Promise((r) => setTimeout(r, 0));
let n = 0;
const input = (themeSource) => ({
  themeSource,
  templateSource: TEMPLATE,
  variables: { link: `https://app.example/verify/${++n}` },
  user: { displayName: "Ada" },
  project: { displayName: "Acme" },
  unsubscribeLink: "https://app.example/unsubscribe",
});
/** The built-in verification email in the default theme, as worker/services/email/built-in.ts renders it. */
const verification = () => ({
  themeSource: DEFAULT_EMAIL_THEMES[DEFAULT_EMAIL_THEME_ID].tsxSource,
  templateSource: DEFAULT_EMAIL_TEMPLATES[BUILT_IN_TEMPLATE_IDS.email_verification].tsxSource,
  variables: { emailVerificationLink: `https://app.example/handler/email-verification?code=${++n}` },
  user: { displayName: "Ada" },
  project: { displayName: "Acme" },
});

async function perRender(count, fn) {
  const times = [];
  for (let i = 0; i < count; i++) {
    await hop();
    const started = Date.now();
    await fn();
    await hop();
    times.push(Date.now() - started);
  }
  times.sort((a, b) => a - b);
  return { n: count, median: times[Math.floor(count / 2)], min: times[0], max: times[count - 1] };
}

/** Microseconds per call of a synchronous function, over `count` calls in one go (the vitest pool's clock moves meanwhile). */
async function perCallUs(count, fn) {
  await hop();
  const started = Date.now();
  for (let i = 0; i < count; i++) fn();
  const ms = Date.now() - started;
  await hop();
  return Math.round((ms * 1000) / count);
}

const mib = (b) => Math.round((b / 1048576) * 10) / 10;

it("email render bench", async () => {
  const out = {};
  out.cold = await perRender(COLD, async () => {
    dropWarmSandbox();
    clearEmailRenderCache();
    expect((await renderEmailSources(input(THEME))).ok).toBe(true);
  });
  out.boot = await perRender(COLD, async () => {
    dropWarmSandbox();
    await warmSandboxSnapshotBytes();
  });
  out.restoreFresh = await perRender(COLD * 3, async () => {
    dropWarmInstance();
    await warmSandboxSnapshotBytes();
  });
  out.snapshotBytes = await warmSandboxSnapshotBytes();
  out.warmTailwindTheme = await perRender(WARM, async () => expect((await renderEmailSources(input(THEME))).ok).toBe(true));
  out.tailwindChecks = lastSandboxRun().interruptCalls;
  out.warmPlainTheme = await perRender(WARM, async () => expect((await renderEmailSources(input(PLAIN_THEME))).ok).toBe(true));
  out.warmNoTheme = await perRender(WARM, async () => expect((await renderEmailSources(input(null))).ok).toBe(true));
  const same = input(THEME);
  await renderEmailSources(same);
  out.cached = await perRender(WARM, async () => expect((await renderEmailSources(same)).ok).toBe(true));

  // The built-in verification email: the sandbox's render against the precompiled fast path.
  out.verificationSandbox = await perRender(WARM, async () => expect((await renderEmailSources(verification())).ok).toBe(true));
  out.verificationChecks = lastSandboxRun().interruptCalls;
  await hop();
  const firstStarted = Date.now();
  expect(renderBuiltInFast(verification())?.ok).toBe(true);
  out.verificationFastFirstMs = Date.now() - firstStarted;
  out.fastCount = FAST;
  out.verificationFastUs = await perCallUs(FAST, () => renderBuiltInFast(verification()));

  // CPU budget calibration: ms per interrupt check of a tight loop and of an allocating one, each stopped by the budget.
  const calibrate = async (statement) => {
    clearEmailRenderCache();
    const limits = { ...DEFAULT_LIMITS, wallClockMs: 600_000 };
    const t = await perRender(1, async () =>
      expect((await renderEmailSources({ ...input(null), templateSource: bare(statement) }, limits)).ok).toBe(false),
    );
    const run = lastSandboxRun();
    return {
      ms: t.median,
      checks: run.interruptCalls,
      stoppedBy: run.stoppedBy,
      msPerCheck: Math.round((t.median / run.interruptCalls) * 1000) / 1000,
    };
  };
  out.budget = DEFAULT_LIMITS.interruptBudget;
  out.loopCalibration = await calibrate("for (;;) {}");
  out.allocatingLoopCalibration = await calibrate("let o; for (;;) o = { a: 1, b: [1, 2] }");
  out.infiniteLoop = await perRender(3, async () => {
    clearEmailRenderCache();
    const r = await renderEmailSources({ ...input(null), templateSource: bare("while (true) {}") });
    expect(r.ok).toBe(false);
  });

  // Memory: the sandbox before, at the end of each hostile render, and after the next ordinary one.
  clearEmailRenderCache();
  await renderEmailSources(input(THEME));
  out.memoryBaseline = {
    wasm: mib(sandboxMemory().wasmBytes),
    snapshot: mib(sandboxMemory().snapshotBytes),
    max: mib(sandboxMemory().maxWasmBytes),
  };
  out.hostile = [];
  for (const [name, statement] of [
    ["1 GB ArrayBuffer", "new ArrayBuffer(1e9)"],
    ['"x".repeat(1e9)', '"x".repeat(1e9)'],
    ["new Array(1e9).fill(0)", "new Array(1e9).fill(0)"],
    ["array growing forever", "const a = []; for (;;) a.push({ n: a.length })"],
    ["string doubling (concat)", 'let s = "xy"; for (;;) s = s.concat(s).split("").join("")'],
    ["1 MB buffers kept", "const keep = []; for (;;) keep.push(new Uint8Array(1 << 20))"],
  ]) {
    clearEmailRenderCache();
    const r = await renderEmailSources({ ...input(null), templateSource: bare(statement) });
    const during = lastSandboxRun().wasmBytes;
    clearEmailRenderCache();
    const next = await perRender(1, async () => expect((await renderEmailSources(input(THEME))).ok).toBe(true));
    out.hostile.push({
      name,
      error: r.ok ? "(rendered)" : r.error,
      endMiB: mib(during),
      afterMiB: mib(sandboxMemory().wasmBytes),
      nextRenderMs: next.median,
    });
  }
  console.log(`EMAIL_BENCH ${JSON.stringify(out)}`);
});
