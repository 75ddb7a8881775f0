/** The SDK's assistant calls (StackAdminApp) against the real worker and the local OpenAI-protocol server. */
import { describe, expect, inject, it } from "vitest";
import { KnownError, RateLimitedError, StackAdminApp } from "../../sdk/src";
import { call, createProjectWithKeys } from "../helpers/api";
import { workerFetch } from "../helpers/worker-fetch";

const fetchImpl = (input: string, init: RequestInit) => workerFetch(input, init);
const base = { baseUrl: "http://localhost", fetch: fetchImpl, redirectMethod: "none" as const, tokenStore: "memory" as const };

async function adminWithModel(model: string, limits: Record<string, string> = {}) {
  const p = await createProjectWithKeys({ rate_limits: limits });
  const admin = new StackAdminApp({
    ...base,
    projectId: p.projectId,
    superSecretAdminKey: p.adminKey.superSecretAdminKey,
    sleep: async () => {},
  });
  const project = await admin.getProject();
  await project.updateConfig(
    {
      "doorman.ai.provider": "openai-compatible",
      "doorman.ai.baseUrl": `http://127.0.0.1:${inject("openAiPort")}/v1`,
      "doorman.ai.model": model,
      "doorman.ai.apiKey": `sk-sdk-${crypto.randomUUID()}`,
    },
    "environment",
  );
  return { p, admin };
}

describe("SDK assistant", () => {
  it("askAssistant streams pieces through onDelta and keeps the thread", async () => {
    const { admin } = await adminWithModel("slow-10");
    const pieces: string[] = [];
    let last = "";
    const reply = await admin.askAssistant("sdk-thread", "Where do I add a trusted domain?", {
      onDelta: (piece, soFar) => {
        pieces.push(piece);
        last = soFar;
      },
    });
    expect(reply.text).toBe("You asked: Where do I add a trusted domain?");
    expect(pieces.length).toBeGreaterThan(3);
    expect(last).toBe(reply.text);
    expect(reply.usage?.completionTokens).toBeGreaterThan(0);
    expect(await admin.listChatMessages("sdk-thread")).toEqual([
      { role: "user", content: "Where do I add a trusted domain?" },
      { role: "assistant", content: [{ type: "text", text: reply.text }] },
    ]);
    await admin.replaceChatMessages("sdk-thread", []);
    expect(await admin.listChatMessages("sdk-thread")).toEqual([]);
    await admin.saveChatMessage("sdk-thread", { role: "user", content: "saved" });
    expect(await admin.listChatMessages("sdk-thread")).toHaveLength(1);
    expect((await admin.getProjectStats()).aiUsage.requests).toBe(1);
  });

  it("the reference's sendChatMessage answers content blocks", async () => {
    const { admin } = await adminWithModel("echo");
    expect(await admin.sendChatMessage("t", "email-theme", [{ role: "user", content: "Darker" }])).toEqual({
      content: [{ type: "text", text: "You asked: Darker" }],
    });
  });

  it("failures arrive as KnownError; the rate limit as RateLimitedError with its wait", async () => {
    const failing = await adminWithModel("error-503");
    const error = await failing.admin.askAssistant("t", "hi").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KnownError);
    expect((error as KnownError).code).toBe("AI_PROVIDER_ERROR");
    const unconfigured = await createProjectWithKeys();
    const bare = new StackAdminApp({
      ...base,
      projectId: unconfigured.projectId,
      superSecretAdminKey: unconfigured.adminKey.superSecretAdminKey,
    });
    await expect(bare.askAssistant("t", "hi")).rejects.toMatchObject({ code: "AI_PROVIDER_NOT_CONFIGURED" });
    const limited = await adminWithModel("echo", { AI_CHAT_PER_OWNER: "1/600" });
    await limited.admin.askAssistant("t", "one");
    const refused = await limited.admin.askAssistant("t", "two").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect((refused as RateLimitedError).retryAfterSeconds).toBeGreaterThan(0);
    expect((await call("/internal/ai-chat/t", limited.p.adminKey)).body.messages).toHaveLength(2);
  });

  it("a stopped question (abort) stores nothing", async () => {
    const { admin } = await adminWithModel("slow-200");
    const controller = new AbortController();
    const asking = admin.askAssistant("aborted", "never mind", { signal: controller.signal });
    controller.abort();
    await expect(asking).rejects.toBeTruthy();
    // Past the time the provider would have taken to finish (200 ms + 40 ms a piece): still nothing kept.
    await new Promise((r) => setTimeout(r, 800));
    expect(await admin.listChatMessages("aborted")).toEqual([]);
  });
});
