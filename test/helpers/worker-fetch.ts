/**
 * Calls the worker's own fetch handler inside the test isolate, with the real D1, KV and
 * Durable Object bindings, and waits for its deferred work (ctx.waitUntil) before answering.
 *
 * Why not `SELF.fetch`: in @cloudflare/vitest-pool-workers 0.15.1 every SELF.fetch in a test
 * file costs more than the one before (a 404 went from 1 ms to 50 ms over 1,000 requests), so
 * bursts and long files slowed quadratically. The handler called here is the same export.
 */

import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../worker/index";

/** `withEnv`: another env for this call (a wrapped D1: test/helpers/d1-fault.ts). */
export async function workerFetch(input: string | URL | Request, init?: RequestInit, withEnv: object = env): Promise<Response> {
  const request = new Request(input, init);
  const ctx = createExecutionContext();
  const response = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, withEnv as never, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}
