/// <reference types="@cloudflare/vitest-pool-workers/types" />
import type { EnvVars as AppEnv } from "../worker/env";

declare global {
  namespace Cloudflare {
    interface Env extends AppEnv {
      TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    }
  }
}
