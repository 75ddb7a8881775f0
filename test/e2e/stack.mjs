/**
 * Starts the whole local stack for the browser tests: builds the web app (unless
 * E2E_SKIP_BUILD=1), applies the D1 migrations into a fresh temp state folder, then runs
 * `wrangler pages dev` in web/ with the worker's config as a second config (Pages +
 * API worker on one origin), and the email renderer Worker in a workerd process of its own
 * (scripts/email-renderer-process.mjs; the API reaches it through a private dev registry). The worker
 * trusts a throwaway CA (local-ca.mjs), so it can fetch from the tests' local https servers.
 * stop() kills wrangler's whole process group and the renderer's.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startEmailRenderer } from "../../scripts/email-renderer-process.mjs";
import { startOidcDevServer } from "../../scripts/oidc-dev-server.mjs";
import { startDohResponder } from "../doh-responder.mjs";
import { startPwnedRangeFixture } from "../pwned-range-fixture.mjs";
import { startSamlIdp } from "../saml-idp.mjs";
import { startTurnstileFake } from "../turnstile-fake.mjs";
import { localCa } from "./local-ca.mjs";

const root = resolve(import.meta.dirname, "../..");
const wrangler = join(root, "node_modules", ".bin", "wrangler");
const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", CI: "true" };

/** `preferred` if it is free on 127.0.0.1, else any free port. */
function freePort(preferred = 0) {
  return new Promise((res) => {
    const srv = createServer();
    srv.once("error", () => res(preferred ? freePort(0) : Promise.reject(new Error("no free port"))));
    srv.listen(preferred, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => res(port));
    });
  });
}

export async function startStack() {
  if (process.env.E2E_SKIP_BUILD !== "1") {
    console.log("# building the web app (npm run build)");
    execFileSync(process.platform === "win32" ? "npm.cmd" : "npm", ["run", "build"], {
      cwd: root,
      env,
      stdio: ["ignore", "ignore", "inherit"],
    });
  }
  const state = mkdtempSync(join(tmpdir(), "doorman-e2e-state-"));
  execFileSync(wrangler, ["d1", "migrations", "apply", "DB", "--local", "--persist-to", state], { cwd: root, env, stdio: "pipe" });
  const port = await freePort(Number(process.env.E2E_PORT || 8799));
  const inspector = await freePort(9231);
  // Shared OAuth providers sign in against the bundled OpenID provider (OAUTH_MOCK_ISSUER), passed
  // through a generated copy of the worker config: `pages dev` reads the worker's vars only from it.
  // ENVIRONMENT = "development" too: the committed wrangler.toml is production (dev keys refused).
  // Every scenario signs up from the one loopback address, more than the per-address sign-up limit
  // allows in an hour (20); the limit itself is tested by the vitest bursts (rate-limit-burst.test.ts).
  const oidc = await startOidcDevServer();
  // The SSO scenario (sso-oidc-scenario.mjs) writes its connection to this D1 state and points it at this IdP.
  Object.assign(process.env, { DOORMAN_E2E_STATE: state, DOORMAN_E2E_OIDC_ISSUER: oidc.issuer });
  // The SAML scenario (sso-saml-scenario.mjs) signs in through this samlify IdP (test/saml-idp.mjs).
  const samlIdp = await startSamlIdp();
  process.env.DOORMAN_E2E_SAML_IDP = samlIdp.url;
  // Every new password goes through the breached-password check, against the local range API (issue 29).
  const pwned = await startPwnedRangeFixture();
  // Turnstile's siteverify and widget script, offline (test/turnstile-fake.mjs): the API verifies
  // against it, and the web app's CSP allows its origin (TURNSTILE_SCRIPT_URL, bound below).
  const turnstile = await startTurnstileFake();
  const turnstileScript = `${turnstile.url}/turnstile/v0/api.js?render=explicit`;
  // SSO domains are verified against a local DNS-over-HTTPS responder (test/doh-responder.mjs, DOH_RESOLVER_URL below);
  // the scenarios publish TXT records on it through its control API (DOORMAN_E2E_DOH_URL).
  const doh = await startDohResponder();
  process.env.DOORMAN_E2E_DOH_URL = doh.url;
  const base = readFileSync(join(root, "wrangler.toml"), "utf8");
  writeFileSync(
    join(root, "wrangler.e2e.toml"),
    base.replace(
      /^\[vars\]$/m,
      `[vars]\nENVIRONMENT = "development"\nAPI_DOCS_SCRIPT_URL = "/vendor/scalar-api-reference.js"\nOAUTH_MOCK_ISSUER = ${JSON.stringify(oidc.issuer)}\nRATE_LIMIT_SIGN_UP_PER_IP = "500/3600"\nTURNSTILE_SITEVERIFY_URL = ${JSON.stringify(`${turnstile.url}/turnstile/v0/siteverify`)}\nTURNSTILE_SCRIPT_URL = ${JSON.stringify(turnstileScript)}\nPWNED_PASSWORDS_URL = ${JSON.stringify(pwned.url)}\nDOH_RESOLVER_URL = ${JSON.stringify(doh.resolverUrl)}`,
    ),
  );
  const renderer = await startEmailRenderer();
  // The worker trusts the e2e's throwaway CA (local-ca.mjs), to fetch client ID metadata documents from local https servers.
  let ca = null;
  try {
    ca = localCa();
  } catch (error) {
    console.log(`# no throwaway CA (openssl: ${String(error.message).split("\n")[0]}): the worker cannot fetch from local https servers`);
  }
  const args = ["pages", "dev", "-c", "wrangler.toml", "-c", "../wrangler.e2e.toml", "--persist-to", state];
  args.push("--ip", "127.0.0.1", "--port", String(port), "--inspector-port", String(inspector));
  args.push("--binding", `TURNSTILE_SCRIPT_URL=${turnstileScript}`);
  const child = spawn(wrangler, args, {
    cwd: join(root, "web"),
    env: { ...env, ...renderer.registryEnv, ...(ca ? { NODE_EXTRA_CA_CERTS: ca.caFile } : {}) },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout.on("data", (d) => (log += d));
  child.stderr.on("data", (d) => (log += d));

  const stop = async () => {
    for (const signal of ["SIGTERM", "SIGKILL"]) {
      try {
        process.kill(-child.pid, signal);
      } catch {}
      await new Promise((r) => setTimeout(r, 400));
    }
    await renderer.stop();
    ca?.remove();
    rmSync(state, { recursive: true, force: true });
    rmSync(join(root, "wrangler.e2e.toml"), { force: true });
    await oidc.close();
    await samlIdp.stop();
    await pwned.stop();
    await turnstile.stop();
    await doh.stop();
  };

  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`wrangler pages dev exited early:\n${log}`);
    }
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/health`);
      if (res.ok) break;
    } catch {}
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`wrangler pages dev did not answer /api/v1/health within 90 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  // localhost, not 127.0.0.1: WebAuthn rejects IP origins as rpID (TOOLCHAIN §6).
  return { origin: `http://localhost:${port}`, oidcIssuer: oidc.issuer, dohUrl: doh.url, log: () => log, stop };
}
