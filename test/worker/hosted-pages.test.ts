/**
 * Hosted pages per project (issue 28): the custom-domain admin routes (malformed and taken
 * hostnames, concurrent claims of one hostname), the public lookup by id and by Host with its
 * derived publishable key and return_to check, and trust of a project's own hosted page URLs
 * (never another project's).
 */
import { describe, expect, it } from "vitest";
import { call, createProjectWithKeys, uniqueEmail } from "../helpers/api";
import { workerFetch } from "../helpers/worker-fetch";

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;

let hostCounter = 0;
const uniqueHost = (tag = "auth") => `${tag}-${Date.now().toString(36)}-${++hostCounter}.example.test`;

const setDomain = (p: Project, hostname: string) =>
  call("/internal/hosted-pages/custom-domain", { ...p.admin, method: "PUT", body: { hostname } });

/** A password-reset email asked for with this callback URL: 200 when trusted, REDIRECT_URL_NOT_WHITELISTED otherwise. */
const resetWith = (p: Project, callbackUrl: string) =>
  call("/auth/password/send-reset-code", { ...p.client, body: { email: uniqueEmail("reset"), callback_url: callbackUrl } });

describe("custom domain routes", () => {
  it("maps, reads, replaces and removes a project's custom domain", async () => {
    const p = await createProjectWithKeys();
    const empty = await call("/internal/hosted-pages", p.admin);
    expect(empty.status, empty.text).toBe(200);
    expect(empty.body).toEqual({ hosted_url: `http://localhost/p/${p.projectId}/handler/sign-in`, custom_domain: null });

    const host = uniqueHost();
    const set = await setDomain(p, `  ${host.toUpperCase()}. `);
    expect(set.status, set.text).toBe(200);
    expect(set.body.custom_domain).toBe(host);
    // Setting the same hostname again is fine (idempotent), another one replaces it.
    expect((await setDomain(p, host)).status).toBe(200);
    const next = uniqueHost();
    expect((await setDomain(p, next)).body.custom_domain).toBe(next);
    expect((await call("/internal/hosted-pages", p.admin)).body.custom_domain).toBe(next);
    // The old hostname is free again.
    const other = await createProjectWithKeys();
    expect((await setDomain(other, host)).status).toBe(200);

    const removed = await call("/internal/hosted-pages/custom-domain", { ...p.admin, method: "DELETE" });
    expect(removed.status).toBe(200);
    expect(removed.body.custom_domain).toBeNull();
  });

  it("refuses malformed hostnames and Doorman's own host", async () => {
    const p = await createProjectWithKeys();
    for (const hostname of [
      "https://auth.example.com",
      "auth.example.com:8443",
      "auth.example.com/handler",
      "localhost",
      "app.localhost",
      "127.0.0.1",
      "example",
      "-bad.example.com",
      "a..example.com",
      "exa mple.com",
      "localhost", // the API's own host in tests
    ]) {
      const res = await setDomain(p, hostname);
      expect(res.status, hostname).toBe(400);
      expect(res.body.code, hostname).toBe("CUSTOM_DOMAIN_INVALID");
    }
  });

  it("refuses a hostname another project maps", async () => {
    const [a, b] = await Promise.all([createProjectWithKeys(), createProjectWithKeys()]);
    const host = uniqueHost();
    expect((await setDomain(a, host)).status).toBe(200);
    const taken = await setDomain(b, host);
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe("CUSTOM_DOMAIN_TAKEN");
    expect(taken.body.details).toEqual({ hostname: host });
    expect((await call("/internal/hosted-pages", b.admin)).body.custom_domain).toBeNull();
  });

  it("of concurrent claims of one hostname exactly one wins", async () => {
    const projects = await Promise.all([1, 2, 3, 4, 5].map(() => createProjectWithKeys()));
    const host = uniqueHost("race");
    const results = await Promise.all(projects.map((p) => setDomain(p, host)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409]);
    const winners = await Promise.all(projects.map((p) => call("/internal/hosted-pages", p.admin)));
    expect(winners.filter((w) => w.body.custom_domain === host)).toHaveLength(1);
    const lookup = await call(`/hosted-pages?host=${host}`);
    expect(lookup.body.project_id).toBe(projects[results.findIndex((r) => r.status === 200)]!.projectId);
  });

  it("needs admin access", async () => {
    const p = await createProjectWithKeys();
    const res = await call("/internal/hosted-pages/custom-domain", { ...p.client, method: "PUT", body: { hostname: uniqueHost() } });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});

describe("the public hosted-pages lookup", () => {
  it("finds a project by id and by Host, with its theme and a derived key that works where a key is required", async () => {
    const p = await createProjectWithKeys({ require_publishable_client_key: true });
    const host = uniqueHost();
    await setDomain(p, host);
    const byId = await call(`/hosted-pages?project_id=${p.projectId}`);
    expect(byId.status, byId.text).toBe(200);
    expect(byId.body).toMatchObject({ project_id: p.projectId, display_name: "Test project", logo_url: null, custom_domain: host });
    const byHost = await call(`/hosted-pages?host=${host.toUpperCase()}`);
    expect(byHost.body.project_id).toBe(p.projectId);
    expect(byHost.body.publishable_client_key).toBe(byId.body.publishable_client_key);

    const key: string = byId.body.publishable_client_key;
    expect(key).toMatch(/^pck_hosted_[0-9a-f]{64}$/);
    // Without a key the project refuses client calls; with the hosted key they work.
    const bare = await call("/projects/current", { projectId: p.projectId, accessType: "client" });
    expect(bare.body.code).toBe("PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT");
    const hosted = await call("/projects/current", { projectId: p.projectId, accessType: "client", publishableClientKey: key });
    expect(hosted.status, hosted.text).toBe(200);
    const signUp = await call("/auth/password/sign-up", {
      projectId: p.projectId,
      accessType: "client",
      publishableClientKey: key,
      body: { email: uniqueEmail("hosted"), password: "correct horse battery" },
    });
    expect(signUp.status, signUp.text).toBe(200);
    // The refresh grant takes it as the OAuth client secret too.
    const refreshed = await call("/auth/oauth/token", {
      rawBody: new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: signUp.body.refresh_token,
        client_id: p.projectId,
        client_secret: key,
      }).toString(),
      contentType: "application/x-www-form-urlencoded",
    });
    expect(refreshed.status, refreshed.text).toBe(200);

    // One project's hosted key is not another's.
    const other = await createProjectWithKeys({ require_publishable_client_key: true });
    const wrong = await call("/projects/current", { projectId: other.projectId, accessType: "client", publishableClientKey: key });
    expect(wrong.body.code).toBe("INVALID_PUBLISHABLE_CLIENT_KEY");
    const forged = await call("/projects/current", {
      projectId: p.projectId,
      accessType: "client",
      publishableClientKey: `pck_hosted_${"0".repeat(64)}`,
    });
    expect(forged.body.code).toBe("INVALID_PUBLISHABLE_CLIENT_KEY");
  });

  it("answers return_to only when it is trusted, and the first trusted domain as the default return", async () => {
    const p = await createProjectWithKeys({
      allow_localhost: false,
      domains: [
        { domain: "https://*.example.org", handler_path: "/handler" },
        { domain: "https://app.example.com", handler_path: "/auth" },
      ],
    });
    const ask = (returnTo: string) => call(`/hosted-pages?project_id=${p.projectId}&return_to=${encodeURIComponent(returnTo)}`);
    const trusted = await ask("https://app.example.com/dashboard?x=1");
    expect(trusted.body.return_to).toBe("https://app.example.com/dashboard?x=1");
    expect(trusted.body.default_return_url).toBe("https://app.example.com");
    expect(trusted.body.trusted_origins).toEqual(["https://app.example.com"]);
    for (const bad of [
      "https://evil.example.net/",
      "javascript:alert(1)",
      "https://app.example.com@evil.example.net/",
      "//evil.example.net",
    ]) {
      expect((await ask(bad)).body.return_to, bad).toBeNull();
    }
  });

  it("is a 404 for an unknown project or host, and a schema error without exactly one of them", async () => {
    expect((await call("/hosted-pages?project_id=00000000-0000-0000-0000-00000000dead")).status).toBe(404);
    expect((await call(`/hosted-pages?host=${uniqueHost("nobody")}`)).body.code).toBe("PROJECT_NOT_FOUND");
    expect((await call("/hosted-pages")).body.code).toBe("SCHEMA_ERROR");
    expect((await call("/hosted-pages?project_id=a&host=b.example.com")).body.code).toBe("SCHEMA_ERROR");
  });
});

describe("trust of hosted page URLs", () => {
  it("trusts a project's own hosted pages on the web origin and its custom domain, never another project's", async () => {
    const [a, b] = await Promise.all([
      createProjectWithKeys({ allow_localhost: false }),
      createProjectWithKeys({ allow_localhost: false }),
    ]);
    const hostA = uniqueHost("a");
    const hostB = uniqueHost("b");
    await Promise.all([setDomain(a, hostA), setDomain(b, hostB)]);

    const ownPages = [
      `http://localhost/p/${a.projectId}/handler/password-reset`,
      `http://localhost/p/${a.projectId}/handler/password-reset?after_auth_return_to=x`,
      `http://${hostA}/handler/password-reset`,
      `https://${hostA}/handler/password-reset`,
    ];
    for (const url of ownPages) expect((await resetWith(a, url)).status, url).toBe(200);

    const notOwn = [
      `http://localhost/p/${b.projectId}/handler/password-reset`,
      `http://localhost/p/${a.projectId}/handler/../../p/${b.projectId}/handler/password-reset`,
      `http://localhost/p/${a.projectId}/handler/%2e%2e/%2e%2e/${b.projectId}/handler/password-reset`,
      `http://localhost/p/${a.projectId}/handlerx/password-reset`,
      `http://localhost/projects`,
      `http://${hostB}/handler/password-reset`,
      `http://${hostA}/projects`,
      `http://user:pw@${hostA}/handler/password-reset`,
    ];
    for (const url of notOwn) {
      const res = await resetWith(a, url);
      expect(res.status, url).toBe(400);
      expect(res.body.code, url).toBe("REDIRECT_URL_NOT_WHITELISTED");
    }
  });

  it("a custom domain serves only its project, even when a request arrives through it", async () => {
    const p = await createProjectWithKeys({ allow_localhost: false });
    const host = uniqueHost("via");
    await setDomain(p, host);
    // Without API_URL, Doorman's origin is the request's own; through the custom domain that is the domain.
    const via = (projectHeaders: Record<string, string | undefined>, callbackUrl: string) =>
      workerFetch(`http://${host}/api/v1/auth/password/send-reset-code`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(projectHeaders as Record<string, string>) },
        body: JSON.stringify({ email: uniqueEmail("via"), callback_url: callbackUrl }),
      });
    const own = await via({ "x-stack-project-id": p.projectId, "x-stack-access-type": "client" }, `http://${host}/handler/password-reset`);
    expect(own.status).toBe(200);
    const other = await createProjectWithKeys({ allow_localhost: false });
    // The other project's "hosted pages on Doorman's origin" are not on this project's domain.
    const refused = await via(
      { "x-stack-project-id": other.projectId, "x-stack-access-type": "client" },
      `http://${host}/p/${other.projectId}/handler/password-reset`,
    );
    expect(refused.status).toBe(400);
  });

  it("stops trusting a custom domain once it is removed", async () => {
    const p = await createProjectWithKeys({ allow_localhost: false });
    const host = uniqueHost();
    await setDomain(p, host);
    expect((await resetWith(p, `https://${host}/handler/password-reset`)).status).toBe(200);
    await call("/internal/hosted-pages/custom-domain", { ...p.admin, method: "DELETE" });
    expect((await resetWith(p, `https://${host}/handler/password-reset`)).body.code).toBe("REDIRECT_URL_NOT_WHITELISTED");
  });
});
