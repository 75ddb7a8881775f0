/**
 * CLI login for Node command-line tools (wire-protocol.md §5 "CLI auth", SPEC §4 "CLI login
 * polling"): start a login, show the person a confirmation link, poll until they confirm it in
 * the browser, and return the refresh token of the CLI's new session.
 */
import { type FetchLike, HttpClient, type Sleep } from "./interface/http";
import { CLI_POLL_DEFAULT_WAIT_MS } from "./shared/constants";
import { KnownError } from "./shared/known-errors";

export type PromptCliLoginOptions = {
  /** Origin of the web app that serves /handler/cli-auth-confirm. */
  appUrl: string;
  /** Origin of the Doorman API; defaults to `appUrl` (the web app forwards /api to it). */
  baseUrl?: string;
  projectId: string;
  publishableClientKey?: string;
  /** Lifetime of the login (server default 2 h, at most 24 h). */
  expiresInMillis?: number;
  /** The CLI's current anonymous session, so the browser can upgrade that user. */
  anonRefreshToken?: string;
  /** Pause between polls while waiting. Default 2000 ms. */
  waitTimeMillis?: number;
  /** Polls before giving up. Default unlimited (the login's own expiry ends it). */
  maxAttempts?: number;
  /** Shows the confirmation link; default prints it to the console. */
  promptLink?: (url: string) => void;
  fetch?: FetchLike;
  sleep?: Sleep;
};

type StartJson = { polling_code: string; login_code: string; expires_at: string };
type PollJson = { status?: string; refresh_token?: string };

/** The confirmation page's URL for a login code. */
export function cliConfirmUrl(appUrl: string, loginCode: string): string {
  return `${appUrl.replace(/\/+$/, "")}/handler/cli-auth-confirm?login_code=${encodeURIComponent(loginCode)}`;
}

/**
 * Signs a CLI in through the browser and resolves to the new session's refresh token. Throws a
 * KnownError: CLI_AUTH_EXPIRED_ERROR, CLI_AUTH_USED_ERROR, or CLI_AUTH_ERROR (timeout, or an
 * unexpected answer).
 *
 * @example
 * const refreshToken = await promptCliLogin({ appUrl: "https://auth.example.com", projectId, publishableClientKey });
 * // keep it (e.g. in ~/.config/my-cli.json) and use it as the x-stack-refresh-token of later requests
 */
export async function promptCliLogin(options: PromptCliLoginOptions): Promise<string> {
  // The HTTP layer returns bodies only; this wrapper remembers the status, since success must be a 201.
  let lastStatus = 0;
  const baseFetch: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const http = new HttpClient({
    baseUrl: options.baseUrl ?? options.appUrl,
    projectId: options.projectId,
    access: { type: "client", publishableClientKey: options.publishableClientKey },
    fetch: async (input, init) => {
      const res = await baseFetch(input, init);
      lastStatus = res.status;
      return res;
    },
    sleep: options.sleep,
  });
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));

  const body: Record<string, unknown> = {};
  if (options.expiresInMillis !== undefined) body.expires_in_millis = options.expiresInMillis;
  if (options.anonRefreshToken !== undefined) body.anon_refresh_token = options.anonRefreshToken;
  const started = await http.request<StartJson>("/auth/cli", { body });
  const url = cliConfirmUrl(options.appUrl, started.login_code);
  if (options.promptLink) options.promptLink(url);
  else console.log(`Please visit the following URL to authenticate:\n${url}`);

  const maxAttempts = options.maxAttempts ?? Number.POSITIVE_INFINITY;
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const result = await http.request<PollJson>("/auth/cli/poll", { body: { polling_code: started.polling_code } });
    if (lastStatus === 201 && result.status === "success" && typeof result.refresh_token === "string") return result.refresh_token;
    if (result.status === "waiting") {
      if (attempt < maxAttempts) await sleep(options.waitTimeMillis ?? CLI_POLL_DEFAULT_WAIT_MS);
      continue;
    }
    if (result.status === "expired")
      throw new KnownError("CLI_AUTH_EXPIRED_ERROR", undefined, "CLI authentication request expired. Please try again.");
    if (result.status === "used")
      throw new KnownError("CLI_AUTH_USED_ERROR", undefined, "This authentication token has already been used.");
    throw new KnownError(
      "CLI_AUTH_ERROR",
      undefined,
      `Unexpected status from CLI auth polling: ${String(result.status)} (HTTP ${lastStatus})`,
    );
  }
  throw new KnownError("CLI_AUTH_ERROR", undefined, "Timed out waiting for CLI authentication.");
}
