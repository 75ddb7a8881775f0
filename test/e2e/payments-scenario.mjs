/**
 * Payments in the browser e2e (issue 15): a fresh owner creates a project, then on the console's
 * Payments page an item "credits" (held by users, default 0) and an offer "pack" (one-time
 * USD 5.00, 100 credits), with focused field errors first. The SDK (bundled on the fly, as in
 * cli-scenario.mjs) creates a user and a purchase URL for it; the purchase page shows the offer,
 * passes axe at 1100 and 375 px, refuses an empty form and a declined card with focus on the
 * field, then pays with the test card. The user then reads 100 credits through the client SDK,
 * and the console's Customers view shows them, the purchase, and a manual change.
 */

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import AxeBuilder from "@axe-core/playwright";
import { adminApi } from "./console-owner.mjs";
import { assert, expectFocused } from "./harness.mjs";

const root = resolve(import.meta.dirname, "../..");

/** The SDK (sdk/src/index.ts) compiled for Node. */
async function loadSdk() {
  const { build } = await import("esbuild");
  const out = await build({
    entryPoints: [join(root, "sdk/src/index.ts")],
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    write: false,
    logLevel: "silent",
  });
  const dir = mkdtempSync(join(tmpdir(), "doorman-payments-sdk-"));
  const file = join(dir, "sdk.mjs");
  writeFileSync(file, out.outputFiles[0].text);
  try {
    return await import(pathToFileURL(file).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Signs up a fresh owner and creates a project, keeping every key shown once. */
async function signUpOwnerWithKeys(page, origin, { email, password, projectName }) {
  const input = (label) => page.getByLabel(label, { exact: true });
  await page.goto(`${origin}/handler/sign-out`);
  await page.waitForURL((url) => url.pathname === "/handler/sign-in" || url.pathname === "/");
  await page.goto(`${origin}/handler/sign-up`);
  await input("Email").fill(email);
  await input("Password").fill(password);
  await input("Repeat password").fill(password);
  await page.getByRole("button", { name: "Sign up", exact: true }).click();
  await page.waitForURL((url) => url.pathname === "/handler/account-settings");
  await page.goto(`${origin}/projects`);
  await input("Project name").fill(projectName);
  await page.getByRole("button", { name: "Create project" }).click();
  const read = async (id) => (await page.getByTestId(id).textContent()).trim();
  const keys = {
    projectId: await read("project-id"),
    clientKey: await read("publishable-client-key"),
    serverKey: await read("secret-server-key"),
    adminKey: await read("super-secret-admin-key"),
  };
  await page.getByRole("button", { name: "I have saved my keys" }).click();
  return keys;
}

/** Serious axe violations and sideways scrolling of the current page at 1100 and 375 px. */
async function axeProblems(page, name) {
  const problems = [];
  for (const width of [1100, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await page.waitForTimeout(50);
    const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    for (const v of result.violations.filter((v) => v.impact === "serious" || v.impact === "critical"))
      problems.push(
        `${name} @${width}px: ${v.id} ${v.help}: ${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 3)
          .join(" | ")}`,
      );
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    if (overflow > 1) problems.push(`${name} @${width}px: scrolls sideways by ${overflow}px`);
  }
  await page.setViewportSize({ width: 1100, height: 800 });
  return problems;
}

export function definePaymentsSteps(runner, { page, origin, shots }) {
  const stamp = Date.now().toString(36);
  const projectName = `Pay Shop ${stamp}`;
  const input = (label) => page.getByLabel(label, { exact: true });
  const toast = (text) => page.locator(".toasts").getByText(text).first().waitFor();
  const shot = (name) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  const state = { keys: null, sdk: null, server: null, user: null, purchaseUrl: null };
  const customer = { email: `pay-customer-${stamp}@example.com`, name: "Pay Customer" };

  runner.step("payments: the owner creates the item credits on the Payments page (an empty id is a focused error)", async () => {
    state.keys = await signUpOwnerWithKeys(page, origin, {
      email: `pay-owner-${stamp}@example.com`,
      password: "pay-owner-pass-1",
      projectName,
    });
    await page.goto(`${origin}/projects/${state.keys.projectId}`);
    await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Payments" }).click();
    await page.getByRole("heading", { name: `Payments · ${projectName}` }).waitFor();
    assert.equal(await input("Test mode").isChecked(), true, "a new project is in test mode");
    await page.getByText("No item yet.").waitFor();

    await page.getByRole("button", { name: "New item" }).click();
    await page.getByRole("button", { name: "Create item" }).click();
    await expectFocused(input("Item id"), "the empty item id gets focus");
    assert.equal(await input("Item id").getAttribute("aria-invalid"), "true");
    await input("Item id").fill("credits");
    await input("Display name").fill("Credits");
    await input("Customer type").selectOption("user");
    await input("Default quantity").fill("0");
    await page.getByRole("button", { name: "Create item" }).click();
    await toast("Item credits created.");
    const row = page.getByRole("row").filter({ has: page.getByRole("cell", { name: "credits", exact: true }) });
    await row.getByRole("cell", { name: "Credits", exact: true }).waitFor();
    await row.getByRole("cell", { name: "Users", exact: true }).waitFor();
  });

  runner.step("payments: the owner creates the offer pack (one-time USD 5.00, includes 100 credits)", async () => {
    await page.getByRole("button", { name: "New offer" }).click();
    await input("Offer id").fill("pack");
    await input("Offer name").fill("Credit pack");
    // A missing amount is a focused field error; nothing is saved.
    await page.getByRole("button", { name: "Create offer" }).click();
    await expectFocused(input("Amount"), "the empty amount gets focus");
    await input("Amount").fill("5.00");
    await input("Currency").selectOption("USD");
    await input("Billing").selectOption("");
    await page.getByRole("button", { name: "Include an item" }).click();
    await input("Item").selectOption("credits");
    await input("Quantity").fill("100");
    await page.getByRole("button", { name: "Create offer" }).click();
    await toast("Offer pack created.");
    const row = page.getByRole("row").filter({ hasText: "Credit pack" });
    await row.getByText("$5.00 one-time").waitFor();
    await row.getByText("100 credits").waitFor();

    // The config holds exactly what the editor wrote.
    const config = await adminApi(origin, state.keys)("/internal/config");
    assert.equal(config.status, 200, JSON.stringify(config.body));
    const payments = JSON.parse(config.body.config_string).payments;
    assert.deepEqual(payments.items.credits, { displayName: "Credits", customerType: "user", default: { quantity: 0 } });
    assert.deepEqual(payments.products.pack, {
      displayName: "Credit pack",
      customerType: "user",
      serverOnly: false,
      stackable: false,
      prices: { default: { USD: "5.00" } },
      includedItems: { credits: { quantity: 100 } },
    });
    // Editing starts from the saved offer.
    await page.getByRole("button", { name: "Edit offer pack" }).click();
    assert.equal(await input("Offer name").inputValue(), "Credit pack");
    assert.equal(await input("Amount").inputValue(), "5.00");
    assert.equal(await input("Quantity").inputValue(), "100");
    await page.getByRole("button", { name: "Cancel" }).click();
    await shot("payments-01-console-offer");
  });

  runner.step("payments: the SDK creates a user and a purchase URL for the pack", async () => {
    state.sdk = await loadSdk();
    state.server = new state.sdk.StackServerApp({
      projectId: state.keys.projectId,
      publishableClientKey: state.keys.clientKey,
      secretServerKey: state.keys.serverKey,
      baseUrl: origin,
      tokenStore: null,
    });
    state.user = await state.server.createUser({ primaryEmail: customer.email, displayName: customer.name });
    const url = await state.server.createCheckoutUrl({ userId: state.user.id, offerId: "pack" });
    const parsed = new URL(url);
    assert.match(parsed.pathname, /^\/purchase\/[^/]+$/, url);
    state.purchaseUrl = `${origin}${parsed.pathname}${parsed.search}`;
    const before = await state.server.getItem({ userId: state.user.id, itemId: "credits" });
    assert.equal(before.quantity, 0);
  });

  runner.step("purchase page: an unknown code is a clear dead end", async () => {
    await page.goto(`${origin}/purchase/${state.keys.projectId}_not-a-real-code`);
    await page.getByRole("heading", { name: "This purchase link is not valid" }).waitFor();
  });

  runner.step("purchase page: shows the offer in test mode and passes axe at 1100 and 375 px", async () => {
    await page.goto(state.purchaseUrl);
    await page.getByRole("heading", { name: "Credit pack" }).waitFor();
    await page.getByText(projectName, { exact: true }).waitFor();
    await page.getByText("Test mode", { exact: true }).waitFor();
    await page.locator(".purchase-included").getByText("credits").waitFor();
    assert.match(await page.locator(".purchase-included li").first().textContent(), /100\s+credits/);
    assert.equal((await page.getByTestId("purchase-total").textContent()).trim(), "$5.00");
    await page.getByText("Use the test card 4242 4242 4242 4242.").waitFor();
    assert.deepEqual(await axeProblems(page, "/purchase/:code"), []);
    await shot("payments-02-purchase-page");
  });

  runner.step("purchase page: empty fields and a declined card are focused field errors", async () => {
    await page.getByRole("button", { name: "Pay $5.00" }).click();
    await expectFocused(input("Card number"), "the empty card number gets focus");
    assert.equal(await input("Card number").getAttribute("aria-invalid"), "true");
    assert.equal(await input("Expiry (MM/YY)").getAttribute("aria-invalid"), "true");
    assert.equal(await input("CVC").getAttribute("aria-invalid"), "true");
    await input("Card number").fill("4000 0000 0000 0002");
    await input("Expiry (MM/YY)").fill("12/34");
    await input("CVC").fill("123");
    await page.getByRole("button", { name: "Pay $5.00" }).click();
    await page.getByText("Your card was declined.", { exact: false }).waitFor();
    await expectFocused(input("Card number"), "the declined card number gets focus");
  });

  runner.step("purchase page: the test card pays, and the link cannot be used again", async () => {
    await input("Card number").fill("4242 4242 4242 4242");
    await page.getByRole("button", { name: "Pay $5.00" }).click();
    await page.getByRole("heading", { name: "Payment complete" }).waitFor();
    await expectFocused(page.getByRole("heading", { name: "Payment complete" }), "the success heading gets focus");
    await shot("payments-03-purchase-done");
    await page.reload();
    await page.getByRole("heading", { name: "This purchase link was already used" }).waitFor();
  });

  runner.step("payments: the user reads 100 credits through the client SDK", async () => {
    const tokens = await state.user.createSession();
    const client = new state.sdk.StackClientApp({
      projectId: state.keys.projectId,
      publishableClientKey: state.keys.clientKey,
      baseUrl: origin,
      tokenStore: { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken },
    });
    const me = await client.getUser();
    assert.equal(me?.id, state.user.id);
    const credits = await me.getItem("credits");
    assert.equal(credits.quantity, 100);
    assert.equal(credits.nonNegativeQuantity, 100);
  });

  runner.step("payments: the console's Customers view shows the credits and the purchase; a manual change applies", async () => {
    await page.goto(`${origin}/projects/${state.keys.projectId}/payments`);
    await page.getByRole("heading", { name: `Payments · ${projectName}` }).waitFor();
    await page.getByRole("radio", { name: "User" }).check();
    await input("Find a user").fill(customer.email);
    const label = `${customer.name} (${customer.email})`;
    await page.getByRole("button", { name: `Show ${label}` }).click();
    await page.getByRole("heading", { name: new RegExp(label.replace(/[().]/g, "\\$&")) }).waitFor();
    const quantity = page.getByTestId("quantity-credits");
    await quantity.filter({ hasText: /^100$/ }).waitFor();
    const purchases = page.getByRole("table", { name: `Purchases of ${label}` });
    await purchases.getByText("Credit pack").waitFor();
    await purchases.getByRole("cell", { name: "Test checkout" }).waitFor();

    // A failed change (0) is a focused field error; then -30 with a description.
    await page.getByRole("button", { name: "Apply change" }).click();
    await expectFocused(input("Change (+/-)"), "the empty change gets focus");
    await input("Change (+/-)").fill("-30");
    await input("Description (optional)").fill("e2e correction");
    await page.getByRole("button", { name: "Apply change" }).click();
    await toast(`Removed 30 credits from ${label}.`);
    await quantity.filter({ hasText: /^70$/ }).waitFor();
    const changes = page.getByRole("table", { name: `Quantity changes of ${label}` });
    await changes.getByRole("cell", { name: "e2e correction" }).waitFor();
    await changes.getByRole("cell", { name: "-30", exact: true }).waitFor();
    const after = await state.server.getItem({ userId: state.user.id, itemId: "credits" });
    assert.equal(after.quantity, 70);
    assert.deepEqual(await axeProblems(page, "/projects/:id/payments with a customer"), []);
    await shot("payments-04-console-customer");
  });
}
