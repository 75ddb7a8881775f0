/** Account settings: the provider accounts linked to the user, with sign-in on/off and removal. */
import { useCallback, useEffect, useState } from "react";
import type { ReactOAuthProvider, ReactUser } from "../app-types";
import { useTranslation } from "../i18n/context";
import type { Translate } from "../i18n/translator";
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

function failureMessage(error: unknown, t: Translate): string {
  if (errorCodeOf(error) === "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN") return t("connected.alreadyUsed");
  return messageOf(error, t("common.somethingWrong"));
}

/**
 * @example
 * <ConnectedAccountsSection user={useUser({ or: "redirect" })} />
 */
export function ConnectedAccountsSection({ user }: { user: ReactUser }) {
  const refreshUser = useRefreshUser();
  const { t } = useTranslation();
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
      if (failed?.status === "error") setError(failureMessage(failed.error, t));
      else setStatus(done);
      await refreshUser();
      reload();
    } catch (e) {
      setError(failureMessage(e, t));
    }
    setPending(false);
  };

  return (
    <section className="stack-section" aria-labelledby="stack-connected-accounts-heading">
      <h2 id="stack-connected-accounts-heading">{t("connected.heading")}</h2>
      <FormAlert message={error} />
      {providers && providers.length === 0 ? <p className="stack-hint">{t("connected.none")}</p> : null}
      <ul className="stack-list" aria-label={t("connected.heading")}>
        {(providers ?? []).map((p) => {
          const name = providerDisplayName(p.type);
          return (
            <li key={p.id} className="stack-list-item">
              <span>
                <strong>{name}</strong>
                {p.email ? <span className="stack-hint"> {p.email}</span> : null}{" "}
                {p.allowConnectedAccounts ? <span className="stack-badge">{t("connected.connected")}</span> : null}
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
                      void act(t(on ? "connected.signInOn" : "connected.signInOff", { provider: name }), () =>
                        p.update({ allowSignIn: on }),
                      );
                    }}
                  />{" "}
                  {t("connected.useToSignIn", { provider: name })}
                </label>
                <button
                  type="button"
                  className="stack-button stack-danger stack-small"
                  disabled={pending}
                  aria-label={
                    p.email
                      ? t("connected.removeLabelEmail", { provider: name, email: p.email })
                      : t("connected.removeLabel", { provider: name })
                  }
                  onClick={() => act(t("common.removed", { name }), () => p.delete())}
                >
                  {t("common.remove")}
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
