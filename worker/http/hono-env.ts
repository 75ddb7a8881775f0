/** The Hono environment type shared by every route and middleware. */
import type { Env } from "../env";
import type { Deps } from "../services/deps";
import type { RequestAuth } from "../services/request-auth";

export type AppEnv = {
  Bindings: Env;
  Variables: { requestId: string; deps: Deps; auth: RequestAuth | null };
};
