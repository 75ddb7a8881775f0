/** Worker entry: the Hono app as the fetch handler, the daily cron (event retention), and the Durable Object classes. */
import { app } from "./app";
import type { Env } from "./env";
import { makeDeps } from "./lib/context";
import { pruneExpiredEvents } from "./services/events";

export { SessionDO } from "./durable/session-do";

export default {
  fetch: app.fetch,
  async scheduled(_controller, env, ctx) {
    const deps = makeDeps(env, { origin: "https://scheduled.invalid" });
    ctx.waitUntil(pruneExpiredEvents(deps).then((n) => console.log(`event retention: ${n} expired events deleted`)));
  },
} satisfies ExportedHandler<Env>;
