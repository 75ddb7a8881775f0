/**
 * The console's Webhooks page in the browser e2e: an owner adds an endpoint pointing at a local
 * receiver (test/webhook-receiver.mjs, which verifies with the svix package; http://127.0.0.1 is
 * allowed in development), copies the secret shown once, sends a test event, and sees it in the
 * delivery log with its attempt and payload; a user created through the API arrives through the
 * webhook queue (miniflare's, under wrangler pages dev).
 */
import { startWebhookReceiver } from "../webhook-receiver.mjs";
import { adminApi, signUpOwnerWithProject } from "./console-owner.mjs";
import { assert } from "./harness.mjs";

export function defineConsoleWebhookSteps(runner, { page, origin }) {
  const stamp = Date.now().toString(36);
  let receiver = null;
  let project = null;

  runner.step("console webhooks: an endpoint is added and its signing secret shown once", async () => {
    receiver = await startWebhookReceiver();
    project = await signUpOwnerWithProject(page, origin, {
      email: `webhooks-owner-${stamp}@example.com`,
      password: "webhooks-owner-pass-1",
      projectName: `Hooks Shop ${stamp}`,
    });
    await page.goto(`${origin}/projects/${project.projectId}/webhooks`);
    await page.getByRole("heading", { name: `Webhooks · Hooks Shop ${stamp}` }).waitFor();
    await page.getByText("No endpoint yet.").waitFor();
    // An empty URL is refused with the field marked.
    await page.getByRole("button", { name: "Add endpoint" }).click();
    assert.equal(await page.getByLabel("Endpoint URL").getAttribute("aria-invalid"), "true");
    const url = `http://127.0.0.1:${receiver.port}/hooks/e2e-${stamp}`;
    await page.getByLabel("Endpoint URL").fill(url);
    await page.getByLabel("Description (optional)").fill("e2e receiver");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const secret = (await page.getByTestId("new-webhook-secret").textContent())?.trim() ?? "";
    assert.match(secret, /^whsec_/);
    const configured = await fetch(`http://127.0.0.1:${receiver.port}/control/e2e-${stamp}`, {
      method: "PUT",
      body: JSON.stringify({ secret }),
    });
    assert.equal(configured.status, 200);
    await page.getByRole("button", { name: "I have saved the secret" }).click();
    await page.locator("code.webhook-url", { hasText: url }).waitFor();
    assert.equal(await page.getByTestId("new-webhook-secret").count(), 0);
  });

  runner.step("console webhooks: a test event reaches the receiver and shows in the delivery log with its payload", async () => {
    const url = `http://127.0.0.1:${receiver.port}/hooks/e2e-${stamp}`;
    await page.getByRole("button", { name: `Send test event to ${url}` }).click();
    await page
      .getByRole("status")
      .filter({ hasText: `Test event delivered to ${url}.` })
      .waitFor();
    const received = await (await fetch(`http://127.0.0.1:${receiver.port}/control/e2e-${stamp}`)).json();
    assert.equal(received.length, 1);
    assert.equal(received[0].verified, true, received[0].error);
    assert.equal(JSON.parse(received[0].body).type, "stack.test");

    const delivery = page.locator(".webhook-delivery").first();
    await delivery.locator("summary").getByText("stack.test", { exact: true }).waitFor();
    await delivery.locator("summary").getByText("succeeded", { exact: true }).waitFor();
    await delivery.locator("summary").click();
    const payload = JSON.parse((await delivery.getByTestId("webhook-payload").textContent()) ?? "{}");
    assert.equal(payload.type, "stack.test");
    assert.equal(payload.data.endpointUrl, url);
    await delivery.getByRole("cell", { name: "200", exact: true }).waitFor();

    // A real event goes through the queue and its consumer.
    const created = await adminApi(origin, project)("/users", { method: "POST", body: { display_name: "Queued" } });
    assert.equal(created.status, 201);
    const deadline = Date.now() + 15_000;
    let bodies = [];
    while (Date.now() < deadline && !bodies.some((b) => b.type === "user.created")) {
      await new Promise((r) => setTimeout(r, 200));
      const list = await (await fetch(`http://127.0.0.1:${receiver.port}/control/e2e-${stamp}`)).json();
      bodies = list.filter((r) => r.verified).map((r) => JSON.parse(r.body));
    }
    const userCreated = bodies.find((b) => b.type === "user.created");
    assert.equal(userCreated?.data.id, created.body.id, "user.created came through the queue");

    // Disable: the reason shows, and the test button is off.
    await page.getByRole("button", { name: `Disable ${url}` }).click();
    await page.getByTestId("disabled-reason").filter({ hasText: "Disabled by an owner." }).waitFor();
    assert.equal(await page.getByRole("button", { name: `Send test event to ${url}` }).isDisabled(), true);
    await receiver.stop();
  });
}
