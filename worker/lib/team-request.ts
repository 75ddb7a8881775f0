/** Request helpers shared by the team routes: who is acting, "me" ids, and uuid path params. */
import type { Context } from "hono";
import { z } from "zod";
import { KnownError } from "../../sdk/src/shared/known-errors";
import { requireUser } from "../middleware/require";
import type { RequestAuth } from "../services/request-auth";
import type { TeamActor } from "../services/teams";
import { formatIssues } from "./validate";

/** A client acts as its signed-in user (and needs one); server and admin keys act as the back end. */
export function teamActor(auth: RequestAuth): TeamActor {
  if (auth.type !== "client") return { kind: "backend" };
  return { kind: "client", userId: requireUser(auth).user.user.id };
}

/** "me" → the signed-in user's id; any other id as given (access to it is the service's call). */
export function meOr(auth: RequestAuth, value: string): string {
  return value === "me" ? requireUser(auth).user.user.id : value;
}

const uuid = z.uuid();

/** A path parameter that must be a uuid (else SCHEMA_ERROR, like any other bad input). */
export function uuidParam(c: Context, name: string): string {
  const value = c.req.param(name) ?? "";
  const parsed = uuid.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => ({ ...i, path: ["params", name] }) as z.core.$ZodIssue);
  throw new KnownError("SCHEMA_ERROR", { message: formatIssues(c.req.method, new URL(c.req.url).pathname, issues) });
}

/** A path user id: "me" or a uuid. */
export function userParam(c: Context, auth: RequestAuth, name = "userId"): string {
  return c.req.param(name) === "me" ? meOr(auth, "me") : uuidParam(c, name);
}
