/** vitest globalSetup (Node side): the SMTP sink the worker sends to and the webhook receiver, their ports provided to tests. */
import type { TestProject } from "vitest/node";
import { startOidcDevServer } from "../scripts/oidc-dev-server.mjs";
import { startMailSink } from "./mail-sink";
import { startWebhookReceiver } from "./webhook-receiver.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    smtpPort: number;
    mailboxPort: number;
    webhookPort: number;
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
  return async () => {
    await receiver.stop();
    await sink.stop();
    await oidc.close();
  };
}
