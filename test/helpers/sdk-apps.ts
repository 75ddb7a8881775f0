/** SDK apps for tests: a client app of the internal project over the real worker, with a memory token store. */

import { DEV_PUBLISHABLE_CLIENT_KEY } from "@doorman/shared/constants";
import { StackClientApp } from "../../sdk/src";
import { workerFetch } from "./worker-fetch";

export const internalMemoryApp = () =>
  new StackClientApp({
    baseUrl: "http://localhost",
    fetch: (input, init) => workerFetch(input, init),
    redirectMethod: "none",
    projectId: "internal",
    publishableClientKey: DEV_PUBLISHABLE_CLIENT_KEY,
    tokenStore: "memory",
  });

/** A handler page URL on the dev origin (a trusted callback of the internal project). */
export const handlerUrl = (page: string) => `http://localhost/handler/${page}`;
