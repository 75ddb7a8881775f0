/**
 * The console's assistant panel in the browser e2e: before a provider is set, a question shows the
 * not-configured error with a link to Settings and stays in the box; the owner picks an
 * OpenAI-compatible provider on the Settings page, pointed at a local OpenAI-protocol server
 * (test/openai-sink.mjs, which echoes "You asked: …" word by word); a reply then grows in the panel
 * before it is complete, renders as markdown (raw HTML stays text, links open without the opener,
 * code blocks have a Copy button), Stop gives the question back, the thread survives a reload, and
 * New chat empties it.
 */
import { startOpenAiSink } from "../openai-sink.mjs";
import { checkPage } from "./a11y-scenario.mjs";
import { adminApi, signUpOwnerWithProject } from "./console-owner.mjs";
import { assert, expectFocused } from "./harness.mjs";

const QUESTION = "How do I enable passkeys?";
const FORMATTED = 'Format check <b>raw</b> and [the docs](https://example.com/docs):\n\n```js\nconsole.log("hi");\n```';

export function defineAssistantSteps(runner, { page, context, origin }) {
  const stamp = Date.now().toString(36);
  let sink = null;
  let project = null;
  const panel = () => page.getByRole("complementary", { name: "Assistant" });
  const toggle = () => page.getByRole("button", { name: "Assistant", exact: true });
  const box = () => panel().getByLabel("Ask the assistant");
  const log = () => panel().getByRole("log");
  /** The stored replies (the one streaming is not among them). */
  const replies = () => log().locator('.assistant-message-assistant:not([data-testid="assistant-streaming"])');

  async function openPanel() {
    assert.equal(await toggle().getAttribute("aria-expanded"), "false");
    await toggle().click();
    assert.equal(await toggle().getAttribute("aria-expanded"), "true");
    assert.equal(await toggle().getAttribute("aria-controls"), await panel().getAttribute("id"));
    await box().waitFor();
    await expectFocused(box(), "opening the panel puts the cursor in the question box");
  }

  runner.step("assistant: with no provider, a question shows the not-configured error and a Settings link", async () => {
    sink = await startOpenAiSink();
    project = await signUpOwnerWithProject(page, origin, {
      email: `assistant-owner-${stamp}@example.com`,
      password: "assistant-owner-pass-1",
      projectName: `Assistant Shop ${stamp}`,
    });
    await page.goto(`${origin}/projects/${project.projectId}/users`);
    await page.getByRole("heading", { name: `Users · Assistant Shop ${stamp}` }).waitFor();
    assert.equal(await panel().count(), 0, "the panel is closed at first");
    await openPanel();
    await log().getByText("Ask how to set up sign-in").waitFor();
    await box().fill(QUESTION);
    await box().press("Enter");
    const alert = panel().getByRole("alert");
    await alert.getByText("The assistant has no model provider.").waitFor();
    // Nothing was stored: the question is back in the box, and the log holds no exchange.
    assert.equal(await box().inputValue(), QUESTION);
    assert.equal(await log().locator(".assistant-message").count(), 0);
    await expectFocused(box(), "the cursor stays in the box after Send");
    await alert.getByRole("link", { name: "Choose a model provider in Settings" }).click();
    await page.waitForURL((url) => url.pathname.endsWith("/settings") && url.hash === "#assistant");
    await page.locator("#assistant").getByRole("heading", { name: "Assistant" }).waitFor();
    // Escape closes the panel and gives focus back to the toggle.
    await box().press("Escape");
    await panel().waitFor({ state: "hidden" });
    await expectFocused(toggle(), "closing the panel returns focus to its toggle");
  });

  runner.step("assistant: the owner sets an OpenAI-compatible provider in Settings; the key is never read back", async () => {
    const section = page.locator("#assistant");
    await section.getByLabel("Model provider").selectOption("openai-compatible");
    await section.getByLabel("Base URL").fill("not a url");
    await section.getByRole("button", { name: "Save assistant settings" }).click();
    assert.equal(await section.getByLabel("Base URL").getAttribute("aria-invalid"), "true");
    await expectFocused(section.getByLabel("Base URL"), "the first field in error gets focus");
    await section.getByLabel("Base URL").fill(`http://127.0.0.1:${sink.port}/v1`);
    // slow-300: the first word waits 300 ms and the next ones come 40 ms apart, so the reply visibly grows.
    await section.getByLabel("Model", { exact: true }).fill("slow-300");
    await section.getByLabel("API key", { exact: true }).fill("e2e-key");
    await section.getByRole("button", { name: "Save assistant settings" }).click();
    await page.getByRole("status").filter({ hasText: "Assistant settings saved." }).waitFor();
    assert.equal(await section.getByLabel("API key", { exact: true }).inputValue(), "", "the key field is write-only");

    const config = await adminApi(origin, project)("/internal/config");
    assert.equal(config.status, 200, JSON.stringify(config.body));
    const ai = JSON.parse(config.body.config_string).doorman.ai;
    assert.equal(ai.provider, "openai-compatible");
    assert.equal(ai.baseUrl, `http://127.0.0.1:${sink.port}/v1`);
    assert.equal(ai.model, "slow-300");
    assert.equal(ai.apiKey, undefined, "the API key never comes back");
    assert.ok(!config.body.config_string.includes("e2e-key"));
  });

  runner.step("assistant: the reply grows while it streams, then the whole reply stays in the log", async () => {
    await page.goto(`${origin}/projects/${project.projectId}/users`);
    await page.getByRole("heading", { name: `Users · Assistant Shop ${stamp}` }).waitFor();
    await openPanel();
    await log().getByText("Ask how to set up sign-in").waitFor();
    await box().fill(QUESTION);
    await box().press("Enter");
    // A part of the reply, before the whole of it, with Stop offered and the log busy: checked on every frame while it streams.
    await page.waitForFunction(
      () => {
        const streaming = document.querySelector('[data-testid="assistant-streaming"]');
        const text = streaming?.querySelector(".assistant-markdown")?.textContent ?? "";
        const stop = [...document.querySelectorAll("#assistant-panel button")].some((b) => b.textContent === "Stop");
        const busy = document.querySelector('#assistant-panel [role="log"]')?.getAttribute("aria-busy") === "true";
        return text.length > 0 && !text.includes("passkeys?") && stop && busy;
      },
      null,
      { polling: "raf", timeout: 10_000 },
    );
    await expectFocused(box(), "the cursor stays in the box while the reply streams");
    await page.getByTestId("assistant-streaming").waitFor({ state: "detached" });
    assert.equal(await replies().count(), 1);
    assert.equal((await replies().last().locator(".assistant-markdown").textContent())?.trim(), `You asked: ${QUESTION}`);
    assert.equal(await log().locator(".assistant-message-user .assistant-plain").last().textContent(), QUESTION);
    assert.equal(await box().inputValue(), "");
    assert.equal(await log().getAttribute("aria-busy"), "false");
    await panel().getByRole("button", { name: "Send" }).waitFor();
    // The provider got the key the owner typed, and the question.
    const sent = await (await fetch(`http://127.0.0.1:${sink.port}/control/requests?key=e2e-key`)).json();
    assert.equal(sent.length, 1);
    assert.equal(sent[0].model, "slow-300");
    assert.ok(JSON.stringify(sent[0].messages).includes(QUESTION));
  });

  runner.step("assistant: a reply renders as markdown: raw HTML stays text, safe links, code blocks with Copy", async () => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
    await box().fill(FORMATTED);
    await panel().getByRole("button", { name: "Send" }).click();
    await replies().nth(1).waitFor();
    const reply = replies().nth(1);
    const code = reply.locator(".assistant-code pre");
    assert.equal((await code.textContent())?.trim(), 'console.log("hi");');
    assert.equal(await reply.locator("b").count(), 0, "raw HTML is not rendered");
    await reply.getByText("<b>raw</b>", { exact: false }).waitFor();
    const link = reply.getByRole("link", { name: "the docs" });
    assert.equal(await link.getAttribute("href"), "https://example.com/docs");
    assert.equal(await link.getAttribute("rel"), "noopener noreferrer");
    const copy = reply.getByRole("button", { name: "Copy code" });
    await copy.click();
    await reply.locator(".assistant-code-bar").getByText("Copied").waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), 'console.log("hi");');
  });

  runner.step("assistant: the open panel with replies passes axe at 1100 and 375 px, and does not scroll the page sideways", async () => {
    // A long line in a code block scrolls inside the block, not the page.
    await box().fill(`Wide:\n\n\`\`\`\n${"x".repeat(300)}\n\`\`\``);
    await box().press("Enter");
    await replies().nth(2).waitFor();
    const problems = await checkPage(page, "assistant panel", { include: "#assistant-panel", overflowAt: [1100, 375] });
    assert.deepEqual(problems, [], problems.join("\n"));
  });

  runner.step("assistant: Stop ends a reply and gives the question back; nothing of it is kept", async () => {
    await box().fill("A question to stop");
    await box().press("Enter");
    await panel().getByRole("button", { name: "Stop" }).click();
    await panel().getByRole("status").getByText("Stopped.").waitFor();
    assert.equal(await box().inputValue(), "A question to stop");
    assert.equal(await page.getByTestId("assistant-streaming").count(), 0);
    await expectFocused(box(), "focus comes back to the box when Stop goes away");
    await box().fill("");
  });

  runner.step("assistant: the thread survives a reload; New chat empties it", async () => {
    await page.reload();
    await page.getByRole("heading", { name: `Users · Assistant Shop ${stamp}` }).waitFor();
    await openPanel();
    await replies().first().waitFor();
    assert.equal(await replies().count(), 3, "the completed replies, not the stopped one");
    assert.equal((await replies().first().textContent())?.includes(`You asked: ${QUESTION}`), true);
    await replies().last().getByRole("button", { name: "Copy code" }).waitFor();
    assert.equal(await log().getByText("A question to stop").count(), 0);

    await panel().getByRole("button", { name: "New chat" }).click();
    assert.equal(await log().locator(".assistant-message").count(), 0);
    await log().getByText("Ask how to set up sign-in").waitFor();
    await page.reload();
    await page.getByRole("heading", { name: `Users · Assistant Shop ${stamp}` }).waitFor();
    await openPanel();
    await log().getByText("Ask how to set up sign-in").waitFor();
    assert.equal(await log().locator(".assistant-message").count(), 0, "the new, empty thread is the current one after a reload");
  });

  runner.step("assistant: Settings shows the tokens used in the last 30 days", async () => {
    await page.goto(`${origin}/projects/${project.projectId}/settings`);
    const usage = page.getByTestId("assistant-usage");
    await usage.waitFor();
    const text = (await usage.textContent()) ?? "";
    const requests = Number(text.match(/over (\d+) requests?/)?.[1] ?? 0);
    assert.ok(requests >= 3, `at least the three completed replies are counted: ${text}`);
    assert.match(text, /^[\d,]+ tokens/);
    await sink.stop();
  });
}
