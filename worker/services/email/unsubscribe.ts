/**
 * Unsubscribe links: every email of a category a user can turn off carries a link (and the
 * List-Unsubscribe headers) with a token naming the project, the user and the category, signed
 * with a key derived from the server secret. The link works signed out and only ever turns that
 * one category off for that one user.
 */
import { jwtVerify, SignJWT } from "jose";
import { tokenKeyFor } from "../../crypto/token-key";
import { findProjectById } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { NOTIFICATION_CATEGORIES, type NotificationCategory, setPreference } from "../notification-preferences";

const AUDIENCE = "doorman:unsubscribe";
export const UNSUBSCRIBE_PATH = "/api/v1/emails/unsubscribe-link";

/** A key of its own, derived from the server secret (crypto/token-key.ts). */
function tokenKey(secret: string): Promise<Uint8Array> {
  return tokenKeyFor("unsubscribe", secret);
}

export type UnsubscribeTarget = { projectId: string; userId: string; categoryId: string };

/**
 * The unsubscribe link of a user and category (and its token, which the email log redacts). No expiry: RFC 8058 expects the link to keep
 * working, and all it can do is turn one category off for one user.
 */
export async function unsubscribeLink(deps: Deps, apiUrl: string, target: UnsubscribeTarget): Promise<{ link: string; token: string }> {
  const token = await new SignJWT({ pid: target.projectId, cat: target.categoryId })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(target.userId)
    .setAudience(AUDIENCE)
    .setIssuedAt(Math.floor(deps.now() / 1000))
    .sign(await tokenKey(deps.tokenKeys.secret));
  // `code`, as the reference names it (`token` is still read, for links sent before).
  return { link: `${apiUrl}${UNSUBSCRIBE_PATH}?code=${encodeURIComponent(token)}`, token };
}

/** The target of a valid token (the previous server secret is accepted during a rotation), or null. */
export async function readUnsubscribeToken(
  deps: Deps,
  token: string,
): Promise<(UnsubscribeTarget & { category: NotificationCategory }) | null> {
  const secrets = [deps.tokenKeys.secret, deps.tokenKeys.previousSecret].filter((s): s is string => Boolean(s));
  for (const secret of secrets) {
    try {
      const { payload } = await jwtVerify(token, await tokenKey(secret), { algorithms: ["HS256"], audience: AUDIENCE });
      const category = NOTIFICATION_CATEGORIES.find((c) => c.id === payload.cat);
      if (typeof payload.sub !== "string" || typeof payload.pid !== "string" || !category?.canDisable) return null;
      return { projectId: payload.pid, userId: payload.sub, categoryId: category.id, category };
    } catch {
      // Not signed by this secret, or malformed: try the next secret.
    }
  }
  return null;
}

export type UnsubscribeOutcome = { ok: true; categoryName: string; projectName: string } | { ok: false; reason: "invalid_link" };

/** What a link would unsubscribe from (the confirmation page), without changing anything. */
export async function describeUnsubscribeLink(deps: Deps, token: string): Promise<UnsubscribeOutcome> {
  const target = await readUnsubscribeToken(deps, token);
  const project = target ? await findProjectById(deps.db, target.projectId) : null;
  if (!target || !project) return { ok: false, reason: "invalid_link" };
  return { ok: true, categoryName: target.category.name, projectName: project.displayName };
}

/** Turns the token's category off for its user. */
export async function unsubscribe(deps: Deps, token: string): Promise<UnsubscribeOutcome> {
  const described = await describeUnsubscribeLink(deps, token);
  const target = await readUnsubscribeToken(deps, token);
  if (!described.ok || !target) return { ok: false, reason: "invalid_link" };
  const result = await setPreference(deps, target.projectId, target.userId, target.categoryId, false);
  // The user was deleted since the email went out: nothing is left to unsubscribe.
  if (!result.ok) return { ok: false, reason: "invalid_link" };
  return described;
}
