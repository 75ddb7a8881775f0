/** vitest globalSetup (Node side): the SMTP sink the worker sends to and the webhook receiver, their ports provided to tests. */
import type { TestProject } from "vitest/node";
import { startOidcDevServer } from "../scripts/oidc-dev-server.mjs";
import { startMailSink } from "./mail-sink";
import { startOpenAiSink } from "./openai-sink.mjs";
import { startWebhookReceiver } from "./webhook-receiver.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    smtpPort: number;
    mailboxPort: number;
    webhookPort: number;
    openAiPort: number;
  }
}

export default async function setup(project: TestProject) {
  const sink = await startMailSink();
  project.provide("smtpPort", sink.smtpPort);
  project.provide("mailboxPort", sink.httpPort);
  // The OpenID provider behind every shared OAuth provider (OAUTH_MOCK_ISSUER, see vitest.config.ts).
  const oidc = await startOidcDevServer({ port: Number(process.env.DOORMAN_TEST_OIDC_PORT) });
  // The webhook receiver (test/webhook-receiver.mjs): verifies with the svix package, records what came.
  const receiver = await startWebhookReceiver();
  project.provide("webhookPort", receiver.port);
  // The assistant's model provider (test/openai-sink.mjs): the OpenAI chat-completions protocol.
  const openAi = await startOpenAiSink();
  project.provide("openAiPort", openAi.port);
  return async () => {
    await openAi.stop();
    await receiver.stop();
    await sink.stop();
    await oidc.close();
  };
}
