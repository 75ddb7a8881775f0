/** Account settings: the provider accounts linked to the user, with sign-in on/off and removal. */
import { useCallback, useEffect, useState } from "react";
import type { ReactOAuthProvider, ReactUser } from "../app-types";
import { useRefreshUser } from "../use-user";
import { errorCodeOf, messageOf } from "./code-messages";
import { FormAlert } from "./field";

/** "github" → "GitHub": display names of the providers Doorman supports. */
const NAMES: Record<string, string> = {
  github: "GitHub",
  gitlab: "GitLab",
  linkedin: "LinkedIn",
  x: "X",
};

export function providerDisplayName(type: string): string {
  return NAMES[type] ?? type.charAt(0).toUpperCase() + type.slice(1);
}

function failureMessage(error: unknown): string {
  if (errorCodeOf(error) === "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN")
    return "This account already signs in to another user, so sign-in cannot be turned on for it here.";
  return messageOf(error);
}

/**
 * @example
 * <ConnectedAccountsSection user={useUser({ or: "redirect" })} />
 */
export function ConnectedAccountsSection({ user }: { user: ReactUser }) {
  const refreshUser = useRefreshUser();
  const [providers, setProviders] = useState<ReactOAuthProvider[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const reload = useCallback(() => {
    user.listOAuthProviders().then(setProviders, (e: unknown) => setError(messageOf(e)));
  }, [user]);
  useEffect(reload, [reload]);

  const act = async (done: string, work: () => Promise<{ status: string; error?: unknown } | unknown>) => {
    setPending(true);
    setError(null);
    setStatus(null);
    try {
      const result = await work();
      const failed = result as { status?: string; error?: unknown } | undefined;
      if (failed?.status === "error") setError(failureMessage(failed.error));
      else setStatus(done);
      await refreshUser();
      reload();
    } catch (e) {
      setError(failureMessage(e));
    }
    setPending(false);
  };

  return (
    <section className="stack-section" aria-labelledby="stack-connected-accounts-heading">
      <h2 id="stack-connected-accounts-heading">Connected accounts</h2>
      <FormAlert message={error} />
      {providers && providers.length === 0 ? <p className="stack-hint">No accounts are connected.</p> : null}
      <ul className="stack-list" aria-label="Connected accounts">
        {(providers ?? []).map((p) => {
          const name = providerDisplayName(p.type);
          return (
            <li key={p.id} className="stack-list-item">
              <span>
                <strong>{name}</strong>
                {p.email ? <span className="stack-hint"> {p.email}</span> : null}{" "}
                {p.allowConnectedAccounts ? <span className="stack-badge">Connected</span> : null}
              </span>
              <span className="stack-actions">
                <label className="stack-checkbox">
                  <input
                    type="checkbox"
                    checked={p.allowSignIn}
                    disabled={pending}
                    onChange={(e) => {
                      const on = e.target.checked;
                      // Show the choice at once; the reload after the request shows what was saved.
                      setProviders((list) => (list ?? []).map((x) => (x.id === p.id ? { ...x, allowSignIn: on } : x)));
                      void act(`Sign-in with ${name} turned ${on ? "on" : "off"}.`, () => p.update({ allowSignIn: on }));
                    }}
                  />{" "}
                  Use {name} to sign in
                </label>
                <button
                  type="button"
                  className="stack-button stack-danger stack-small"
                  disabled={pending}
                  aria-label={`Remove ${name}${p.email ? ` (${p.email})` : ""}`}
                  onClick={() => act(`${name} removed.`, () => p.delete())}
                >
                  Remove
                </button>
              </span>
            </li>
          );
        })}
      </ul>
      <span role="status" aria-live="polite" className="stack-hint">
        {status ?? ""}
      </span>
    </section>
  );
}
