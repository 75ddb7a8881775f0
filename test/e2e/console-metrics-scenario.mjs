/**
 * The overview's metrics in the browser e2e: a fresh project shows every chart's empty state; after
 * two users are created through the admin API and one signs in, the sign-ups chart draws an svg, and
 * each other chart either draws one or shows its empty state, as the metrics API's own figures say
 * (locally there is no request.cf, so no activity has a country). The charts fit 375 px.
 */
import { adminApi, signUpOwnerWithProject } from "./console-owner.mjs";
import { assert } from "./harness.mjs";

const EMPTY = {
  "sign-ups": "No sign-ups in the last 30 days.",
  "daily-active-users": "No active users in the last 30 days.",
  "sign-in-methods": "No sign-ins in the last 30 days.",
  countries: "No located activity yet",
};

export function defineConsoleMetricsSteps(runner, { page, origin }) {
  const stamp = Date.now().toString(36);
  let project = null;
  const region = (name) => page.getByRole("region", { name });

  runner.step("console metrics: a fresh project's overview shows each chart's empty state", async () => {
    project = await signUpOwnerWithProject(page, origin, {
      email: `metrics-owner-${stamp}@example.com`,
      password: "metrics-owner-pass-1",
      projectName: `Metrics Shop ${stamp}`,
    });
    await page.goto(`${origin}/projects/${project.projectId}`);
    await page.getByRole("heading", { name: `Overview · Metrics Shop ${stamp}` }).waitFor();
    await region("Sign-ups per day").getByText(EMPTY["sign-ups"]).waitFor();
    await region("Daily active users").getByText(EMPTY["daily-active-users"]).waitFor();
    await region("Sign-ins by method").getByText(EMPTY["sign-in-methods"]).waitFor();
    await region("Users by country").getByText(EMPTY.countries).waitFor();
    assert.equal(await page.locator("[data-chart] svg").count(), 0);
  });

  runner.step("console metrics: users and a sign-in draw the charts (an svg in each region with data)", async () => {
    const api = adminApi(origin, project);
    const email = `metrics-user-${stamp}@example.com`;
    const password = "metrics-user-pass-1";
    const first = await api("/users", { method: "POST", body: { primary_email: email, primary_email_auth_enabled: true, password } });
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assert.equal((await api("/users", { method: "POST", body: { display_name: "Second" } })).status, 201);
    const signIn = await api("/auth/password/sign-in", { method: "POST", body: { email, password } });
    assert.equal(signIn.status, 200, JSON.stringify(signIn.body));
    const metrics = (await api("/internal/metrics")).body;
    assert.equal(metrics.total_users, 2);
    assert.equal(metrics.daily_users.at(-1).activity, 2);

    await page.reload();
    const signUps = region("Sign-ups per day");
    await signUps.locator("svg").first().waitFor();
    await signUps.getByText(/^2 sign-ups over 31 days/).waitFor();
    // The text alternative: the same figures as a (visually hidden) table.
    assert.equal(await signUps.getByRole("table").locator("tbody tr").count(), 31);
    const expectations = [
      ["Daily active users", "daily-active-users", metrics.daily_active_users.some((p) => p.activity > 0)],
      ["Sign-ins by method", "sign-in-methods", metrics.sign_ins_by_method.length > 0],
    ];
    for (const [name, id, hasData] of expectations) {
      if (hasData) await region(name).locator("svg").first().waitFor();
      else await region(name).getByText(EMPTY[id]).waitFor();
    }
    const countries = Object.keys(metrics.users_by_country);
    if (countries.length) await region("Users by country").getByRole("table").waitFor();
    else await region("Users by country").getByText(EMPTY.countries).waitFor();

    await page.setViewportSize({ width: 375, height: 800 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    await page.setViewportSize({ width: 1100, height: 800 });
    assert.ok(overflow <= 1, `the overview scrolls sideways by ${overflow}px at 375 px`);
  });
}
