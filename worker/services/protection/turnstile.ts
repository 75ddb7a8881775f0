/**
 * Turnstile token verification (Cloudflare's siteverify), as the reference verifies: one bounded POST
 * per token, then its answer checked for success, the expected action and a hostname the project
 * trusts. The outcome is the reference's assessment: "ok", "invalid" (refused, missing, wrong action
 * or host) or "error" (siteverify could not be asked: timeout, network, a 5xx, an unreadable answer).
 * No Hono; the gate that decides what an assessment means for a flow is bot-challenge.ts.
 */
import { findProjectIdByHostname } from "../../db/queries/custom-domains";
import type { ProjectRow } from "../../db/queries/projects";
import { boundedFetch } from "../../lib/outbound-fetch";
import type { Deps } from "../deps";
import { hostedPagesOrigin } from "../hosted-pages/trust";
import { isTrustedHostname, readProjectConfig } from "../project-config/flat";

/** The reference's actions, plus Doorman's password sign-in (a project can require a token there). */
export const TURNSTILE_ACTIONS = [
  "sign_up_with_credential",
  "sign_in_with_credential",
  "send_magic_link_email",
  "oauth_authenticate",
] as const;
export type TurnstileAction = (typeof TURNSTILE_ACTIONS)[number];
export type TurnstileStatus = "ok" | "invalid" | "error";
/** Cloudflare's dummy secrets (always pass, always fail, token spent): developers.cloudflare.com/turnstile "Test your Turnstile implementation". */
const TEST_SECRET = /^[123]x0{31}AA$/;

/** What siteverify said about one token, or why it could not be asked. */
export type SiteverifyAnswer =
  | { kind: "answer"; success: boolean; action: string | null; hostname: string | null; errorCodes: string[] }
  | { kind: "outage"; message: string };

function parseAnswer(status: number, body: string): SiteverifyAnswer {
  if (status !== 200) return { kind: "outage", message: `siteverify answered HTTP ${status}` };
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { kind: "outage", message: "siteverify answered something other than JSON" };
  }
  if (typeof json !== "object" || json === null || typeof (json as { success?: unknown }).success !== "boolean")
    return { kind: "outage", message: "siteverify's answer has no success field" };
  const a = json as { success: boolean; action?: unknown; hostname?: unknown; "error-codes"?: unknown };
  return {
    kind: "answer",
    success: a.success,
    // Empty = not said (the dummy token's answer carries an empty action).
    action: typeof a.action === "string" && a.action !== "" ? a.action : null,
    hostname: typeof a.hostname === "string" && a.hostname !== "" ? a.hostname : null,
    errorCodes: Array.isArray(a["error-codes"]) ? a["error-codes"].filter((c): c is string => typeof c === "string") : [],
  };
}

/**
 * One siteverify call (POST form: secret, response, remoteip). No retry and no idempotency_key:
 * a retried token would be "timeout-or-duplicate" anyway, and a failure sends the client to the
 * visible challenge, which is better than a second wait.
 */
export async function siteverify(deps: Deps, secret: string, token: string, remoteIp: string | null): Promise<SiteverifyAnswer> {
  const form = new URLSearchParams({ secret, response: token });
  if (remoteIp) form.set("remoteip", remoteIp);
  const res = await boundedFetch(
    deps.config.turnstile.siteverifyUrl,
    { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form.toString() },
    deps.config.outbound.turnstile,
  );
  if (!res.ok) return { kind: "outage", message: `${res.kind}: ${res.message}` };
  return parseAnswer(res.status, res.body);
}

/** A hostname a token may come from: the project's trusted domains (localhost when allowed), its custom domain, or Doorman's hosted pages. */
export async function isAllowedTokenHostname(deps: Deps, project: ProjectRow, hostname: string): Promise<boolean> {
  const host = hostname.toLowerCase();
  if (isTrustedHostname(readProjectConfig(project.config), host)) return true;
  if (new URL(hostedPagesOrigin(deps)).hostname === host) return true;
  return (await findProjectIdByHostname(deps.db, host)) === project.id;
}

/** Verifies one token for `action`; an empty token is "invalid" without a call. */
export async function verifyTurnstileToken(
  deps: Deps,
  project: ProjectRow,
  input: { secret: string; token: string | undefined; action: TurnstileAction },
): Promise<TurnstileStatus> {
  const token = input.token?.trim() ?? "";
  if (!token) return "invalid";
  const answer = await siteverify(deps, input.secret, token, deps.audit.ip);
  if (answer.kind === "outage") {
    console.warn(`Turnstile siteverify unavailable (${answer.message})`);
    return "error";
  }
  if (!answer.success) return "invalid";
  // A token minted for another action (say, OAuth) must not unlock this one.
  if (answer.action !== null && answer.action !== input.action) return "invalid";
  // A token solved on someone else's page (a farm serving our site key) is not a visitor of this project.
  // Cloudflare's published test secrets answer a placeholder hostname whatever page asked: not checked there.
  const checkHost = answer.hostname !== null && !TEST_SECRET.test(input.secret);
  if (checkHost && answer.hostname !== null && !(await isAllowedTokenHostname(deps, project, answer.hostname))) return "invalid";
  return "ok";
}
