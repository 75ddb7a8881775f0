/** Worker entry: the Hono app as the fetch handler, and the Durable Object classes. */
import { app } from "./app";

export { SessionDO } from "./durable/session-do";

export default { fetch: app.fetch } satisfies ExportedHandler<import("./env").Env>;
