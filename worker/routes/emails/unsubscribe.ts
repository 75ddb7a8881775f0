/**
 * /emails/unsubscribe-link: where the unsubscribe link of an email lands, signed out. GET shows a
 * page asking to confirm (a link scanner's GET changes nothing); POST turns the category off and
 * confirms, and is also RFC 8058's one-click target (List-Unsubscribe-Post), so mail clients
 * unsubscribe without opening the page.
 */
import { z } from "zod";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { describeUnsubscribeLink, type UnsubscribeOutcome, unsubscribe } from "../../services/email/unsubscribe";

const query = z.object({ token: z.string().max(2048).optional(), code: z.string().max(2048).optional() });
const html = { status: 200, description: "An HTML page", schema: z.string(), contentType: "text/html" } as const;
const invalid = { status: 400, description: "The link is not valid (an HTML page)", schema: z.string(), contentType: "text/html" } as const;

const escapeHtml = (v: string) =>
  v.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);

function page(title: string, body: string, status = 200): Response {
  const doc = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{margin:0;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#f5f6fa;color:#1f2937}
main{max-width:28rem;margin:12vh auto;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 1px 3px #0002}
h1{font-size:1.35rem;margin:0 0 1rem}p{line-height:1.5}button{font:inherit;font-weight:600;padding:.7rem 1.2rem;border:0;border-radius:8px;background:#4338ca;color:#fff;cursor:pointer}
button:focus-visible{outline:3px solid #a5b4fc;outline-offset:2px}</style></head>
<body><main>${body}</main></body></html>`;
  // Why: the page shows names an owner chose; no script runs and it cannot be framed.
  return new Response(doc, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
    },
  });
}

const invalidPage = () =>
  page(
    "Unsubscribe link not valid",
    "<h1>This unsubscribe link is not valid</h1><p>It may be incomplete. Open the link from the email again.</p>",
    400,
  );

function confirmPage(outcome: Extract<UnsubscribeOutcome, { ok: true }>, token: string): Response {
  const action = `?code=${encodeURIComponent(token)}`;
  return page(
    "Unsubscribe",
    `<h1>Unsubscribe from ${escapeHtml(outcome.categoryName)} emails?</h1>
<p>You will no longer get ${escapeHtml(outcome.categoryName.toLowerCase())} emails from ${escapeHtml(outcome.projectName)}. Emails about your account (sign-in codes, password resets) still arrive.</p>
<form method="post" action="${escapeHtml(action)}"><button type="submit">Unsubscribe</button></form>`,
  );
}

const donePage = (outcome: Extract<UnsubscribeOutcome, { ok: true }>) =>
  page(
    "Unsubscribed",
    `<h1 role="status">You are unsubscribed</h1><p>You will no longer get ${escapeHtml(outcome.categoryName.toLowerCase())} emails from ${escapeHtml(outcome.projectName)}. You can turn them back on in your account settings.</p>`,
  );

const show = defineRoute({
  method: "get",
  path: "/unsubscribe-link",
  summary: "The unsubscribe link's page (signed out): asks to confirm unsubscribing from the email's notification category",
  access: "public",
  query,
  response: [html, invalid],
});
const confirm = defineRoute({
  method: "post",
  path: "/unsubscribe-link",
  summary: "Unsubscribe (the page's button, and RFC 8058 one-click from mail clients): turns the category off and confirms",
  access: "public",
  query,
  bodyMediaTypes: ["application/x-www-form-urlencoded"],
  response: [html, invalid],
});

export const emailsUnsubscribeRoutes = routeGroup();
addRoute(emailsUnsubscribeRoutes, show, async (c, { query }) => {
  const token = query.token ?? query.code ?? "";
  const outcome = await describeUnsubscribeLink(c.get("deps"), token);
  return outcome.ok ? confirmPage(outcome, token) : invalidPage();
});
addRoute(emailsUnsubscribeRoutes, confirm, async (c, { query }) => {
  const outcome = await unsubscribe(c.get("deps"), query.token ?? query.code ?? "");
  return outcome.ok ? donePage(outcome) : invalidPage();
});
