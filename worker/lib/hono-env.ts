/** The Hono environment type shared by every route and middleware. */
import type { Env } from "../env";
import type { RequestAuth } from "../services/request-auth";
import type { Deps } from "./context";

export type AppEnv = {
  Bindings: Env;
  Variables: { requestId: string; deps: Deps; auth: RequestAuth | null };
};
