// The in-workerd part of `npm run bench:email` (run by test/bench/email-render.mjs, not by npm test).
// workerd's clocks move only across I/O, so every measured render is followed by a zero timer and
// the figures are wall time per render including that (~0.1 ms) hop. Prints one JSON line.
import { expect, it } from "vitest";
import { clearEmailRenderCache, renderEmailSources } from "../../worker/email-render/render";
import { dropWarmSandbox, warmSandboxSnapshotBytes } from "../../worker/email-render/sandbox";

const COLD = Number(globalThis.process?.env?.BENCH_EMAIL_COLD || 3);
const WARM = Number(globalThis.process?.env?.BENCH_EMAIL_WARM || 30);

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
  out.snapshotBytes = await warmSandboxSnapshotBytes();
  out.warmTailwindTheme = await perRender(WARM, async () => expect((await renderEmailSources(input(THEME))).ok).toBe(true));
  out.warmPlainTheme = await perRender(WARM, async () => expect((await renderEmailSources(input(PLAIN_THEME))).ok).toBe(true));
  out.warmNoTheme = await perRender(WARM, async () => expect((await renderEmailSources(input(null))).ok).toBe(true));
  const same = input(THEME);
  await renderEmailSources(same);
  out.cached = await perRender(WARM, async () => expect((await renderEmailSources(same)).ok).toBe(true));
  out.infiniteLoop = await perRender(3, async () => {
    clearEmailRenderCache();
    const r = await renderEmailSources({ ...input(null), templateSource: "export function EmailTemplate() { while (true) {} }" });
    expect(r.ok).toBe(false);
  });
  console.log(`EMAIL_BENCH ${JSON.stringify(out)}`);
});
