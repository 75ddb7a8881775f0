/** vitest globalSetup (Node side): the SMTP sink the worker sends to and the webhook receiver, their ports provided to tests. */
import type { TestProject } from "vitest/node";
import { startEmailRenderer } from "../scripts/email-renderer-process.mjs";
import { startOidcDevServer } from "../scripts/oidc-dev-server.mjs";
import { startStripeDevServer } from "../scripts/stripe-dev-server.mjs";
import { startDocumentServer } from "./document-server.mjs";
import { startDohResponder } from "./doh-responder.mjs";
import { startHostileHttp } from "./hostile-http.mjs";
import { startMailSink } from "./mail-sink";
import { startOpenAiSink } from "./openai-sink.mjs";
import { startPwnedRangeFixture } from "./pwned-range-fixture.mjs";
import { startSamlIdp } from "./saml-idp.mjs";
import { startSmtpFaults } from "./smtp-fault-server.mjs";
import { startTurnstileFake } from "./turnstile-fake.mjs";
import { startWebhookReceiver } from "./webhook-receiver.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    smtpPort: number;
    mailboxPort: number;
    webhookPort: number;
    openAiPort: number;
    smtpFaultsPort: number;
    hostilePort: number;
    stripeApiUrl: string;
    pwnedPort: number;
    turnstileUrl: string;
    documentServerPort: number;
    dohUrl: string;
    samlIdpPort: number;
  }
}

export default async function setup(project: TestProject) {
  // The email renderer Worker in a workerd process of its own, bound to the API as EMAIL_RENDERER
  // (vitest.config.ts): it starts while the servers below do, and is awaited before the tests run.
  const rendererReady = startEmailRenderer({ port: Number(process.env.DOORMAN_TEST_RENDERER_PORT) });
  rendererReady.catch(() => {});
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
  // Hostile SMTP servers on demand (test/smtp-fault-server.mjs): the SMTP client's fault tests.
  const smtpFaults = await startSmtpFaults();
  project.provide("smtpFaultsPort", smtpFaults.controlPort);
  // An HTTP server that hangs, redirects, floods and drips (test/hostile-http.mjs): the outbound-call fault tests.
  const hostile = await startHostileHttp();
  project.provide("hostilePort", hostile.port);
  // The local Stripe fake npm start runs without a key (scripts/stripe-dev-server.mjs).
  const stripe = await startStripeDevServer();
  project.provide("stripeApiUrl", stripe.url);
  // The Pwned Passwords range API of the breached-password check (PWNED_PASSWORDS_URL, see vitest.config.ts).
  const pwned = await startPwnedRangeFixture(Number(process.env.DOORMAN_TEST_PWNED_PORT));
  project.provide("pwnedPort", pwned.port);
  // Turnstile's siteverify and widget script (test/turnstile-fake.mjs), on the port vitest.config.ts bound.
  const turnstile = await startTurnstileFake(Number(process.env.DOORMAN_TEST_TURNSTILE_PORT));
  project.provide("turnstileUrl", turnstile.url);
  // Documents a test publishes (test/document-server.mjs), good and hostile: the OpenID provider's client ID
  // metadata documents and private_key_jwt clients' jwks_uri.
  const documents = await startDocumentServer();
  project.provide("documentServerPort", documents.port);
  // The DNS-over-HTTPS responder SSO domains are verified through (DOH_RESOLVER_URL, see vitest.config.ts); tests publish TXT records on it.
  const doh = await startDohResponder(Number(process.env.DOORMAN_TEST_DOH_PORT));
  project.provide("dohUrl", doh.url);
  // The SAML identity provider of the SSO tests (test/saml-idp.mjs): samlify in IdP mode, in Node (workerd cannot run it).
  const samlIdp = await startSamlIdp();
  project.provide("samlIdpPort", samlIdp.port);
  const renderer = await rendererReady;
  return async () => {
    await samlIdp.stop();
    await doh.stop();
    await documents.stop();
    await pwned.stop();
    await turnstile.stop();
    await stripe.close();
    await renderer.stop();
    await hostile.stop();
    await smtpFaults.stop();
    await openAi.stop();
    await receiver.stop();
    await sink.stop();
    await oidc.close();
  };
}
