/**
 * The browser side of CLI login (POST /auth/cli/complete): what the cli-auth-confirm page needs
 * to check a login code, take over the CLI's anonymous session, and confirm the login.
 */
import { HttpError } from "../interface/http";
import { err, ok, type Result } from "../interface/result";
import { KnownError } from "../shared/known-errors";
import type { AppCore } from "./app-core";
import type { CliSessionStateJson, TokensJson } from "./wire-types";

export type CliSessionState = CliSessionStateJson["cli_session_state"];

/**
 * Runs a /auth/cli/complete call; its plain-400 failures (unknown, expired or used login code)
 * become CLI_AUTH_ERROR values carrying the server's message, other known errors stay as they are.
 */
async function completeCall<T>(work: () => Promise<T>): Promise<Result<T>> {
  try {
    return ok(await work());
  } catch (error) {
    if (error instanceof KnownError) return err(error);
    if (error instanceof HttpError && error.status === 400) return err(new KnownError("CLI_AUTH_ERROR", undefined, error.body));
    throw error;
  }
}

/** Whether the CLI behind `loginCode` holds an anonymous session the browser could take over. */
export function checkCliLogin(app: AppCore, loginCode: string): Promise<Result<CliSessionState>> {
  return completeCall(async () => {
    const res = await app._http.request<CliSessionStateJson>("/auth/cli/complete", {
      body: { login_code: loginCode, mode: "check" },
    });
    return res.cli_session_state;
  });
}

/** Signs this browser in as the CLI's anonymous user (one-shot), e.g. before upgrading it by sign-up. */
export async function claimCliAnonymousSession(app: AppCore, loginCode: string): Promise<Result<undefined>> {
  const result = await completeCall(() =>
    app._http.request<TokensJson>("/auth/cli/complete", { body: { login_code: loginCode, mode: "claim-anon-session" } }),
  );
  if (result.status === "error") return result;
  app._session.setTokens({ accessToken: result.data.access_token, refreshToken: result.data.refresh_token });
  await app._refreshUser();
  return ok(undefined);
}

/** Confirms the CLI login as the signed-in user; the CLI's next poll receives a new session of theirs. */
export function confirmCliLogin(app: AppCore, loginCode: string): Promise<Result<undefined>> {
  return completeCall(async () => {
    await app._userRequest("/auth/cli/complete", { body: { login_code: loginCode, mode: "complete" } });
    return undefined;
  });
}
