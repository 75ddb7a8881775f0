/**
 * Security headers of the web app (issue 11): handler pages and the dashboard send a CSP with
 * frame-ancestors 'none', X-Frame-Options, nosniff and the referrer policy; API answers send
 * nosniff. Also: no step of the whole run hit a CSP violation (Remix's inline scripts carry the nonce).
 */
import { assert } from "./harness.mjs";

export function defineHeaderSteps(runner, { page, origin }) {
  // Registered when the scenario is defined, so it hears every step before this one.
  const violations = [];
  page.on("console", (msg) => {
    if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
  });

  runner.step("handler pages and the dashboard send the security headers", async () => {
    for (const path of ["/handler/sign-in", "/handler/cli-auth-confirm", "/projects"]) {
      const res = await page.request.get(`${origin}${path}`, { maxRedirects: 0 });
      const h = res.headers();
      const csp = h["content-security-policy"] ?? "";
      assert.match(csp, /frame-ancestors 'none'/, `${path}: CSP ${csp}`);
      assert.match(csp, /script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/, `${path}: CSP ${csp}`);
      assert.doesNotMatch(csp, /unsafe-eval|script-src[^;]*unsafe-inline/, `${path}: CSP ${csp}`);
      assert.equal(h["x-frame-options"], "DENY", path);
      assert.equal(h["x-content-type-options"], "nosniff", path);
      assert.equal(h["referrer-policy"], "strict-origin-when-cross-origin", path);
      // http://localhost in the e2e: HSTS is for https only.
      assert.equal(h["strict-transport-security"], undefined, path);
      // The inline scripts of the document carry this response's nonce.
      const nonce = /'nonce-([^']+)'/.exec(csp)[1];
      assert.ok((await res.text()).includes(`nonce="${nonce}"`), `${path}: inline scripts without the nonce`);
    }
    const api = await page.request.get(`${origin}/api/v1/projects/current`, {
      headers: {
        "x-stack-project-id": "internal",
        "x-stack-access-type": "client",
        "x-stack-publishable-client-key": "this-publishable-client-key-is-for-local-development-only",
      },
    });
    assert.equal(api.headers()["x-content-type-options"], "nosniff");
    assert.match(api.headers()["cache-control"] ?? "", /no-store/);
  });

  runner.step("no page of the run was refused by the Content-Security-Policy", async () => {
    assert.deepEqual(violations, []);
  });
}
