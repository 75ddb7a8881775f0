/**
 * The start of every console scenario: a fresh owner signs up, creates a project on /projects
 * and keeps what is shown once (project id, admin key); `adminApi` then calls the project's
 * admin API with that key, for setup and for checking what the pages did.
 */
export async function signUpOwnerWithProject(page, origin, { email, password, projectName }) {
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
  const projectId = (await page.getByTestId("project-id").textContent()).trim();
  const adminKey = (await page.getByTestId("super-secret-admin-key").textContent()).trim();
  await page.getByRole("button", { name: "I have saved my keys" }).click();
  // New projects start with new-device verification on (issue 29); these scenarios sign their users in with a
  // password from scripts and fresh contexts that hold no device token, so their project turns it off
  // (device-scenario.mjs covers the check itself).
  const off = await adminApi(origin, { projectId, adminKey })("/internal/config/override/environment", {
    method: "PATCH",
    body: { config_override_string: JSON.stringify({ "doorman.protection.newDeviceVerification.enabled": false }) },
  });
  if (off.status !== 200) throw new Error(`turning new-device verification off failed: ${off.status} ${JSON.stringify(off.body)}`);
  return { projectId, adminKey };
}

/** `api(path, { method, body })` against the project's admin API: `{ status, body }`. */
export function adminApi(origin, project) {
  return async (path, { method = "GET", body } = {}) => {
    const headers = {
      "content-type": "application/json",
      "x-stack-project-id": project.projectId,
      "x-stack-access-type": "admin",
      "x-stack-super-secret-admin-key": project.adminKey,
    };
    const res = await fetch(`${origin}/api/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: await res.json().catch(() => null) };
  };
}
