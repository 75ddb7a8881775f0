/** Account settings: the user's email addresses (add, verify, make primary, remove). */
import { type FormEvent, useCallback, useEffect, useState } from "react";
import type { ReactContactChannel, ReactUser } from "../app-types";
import { useTranslation } from "../i18n/context";
import { useStackApp } from "../provider";
import { useRefreshUser } from "../use-user";
import { emailLinkErrorMessage, messageOf, throwIfFailed } from "./code-messages";
import { checkEmail } from "./credential-errors";
import { Field, FormAlert } from "./field";

/**
 * @example
 * <EmailsSection user={useUser({ or: "redirect" })} />
 */
export function EmailsSection({ user }: { user: ReactUser }) {
  const app = useStackApp();
  const { t } = useTranslation();
  const refreshUser = useRefreshUser();
  const [channels, setChannels] = useState<ReactContactChannel[] | null>(null);
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const reload = useCallback(() => {
    user.listContactChannels().then(setChannels, (e: unknown) => setError(messageOf(e)));
  }, [user]);
  useEffect(reload, [reload]);

  const act = async (label: string, work: () => Promise<unknown>) => {
    setPending(true);
    setError(null);
    setStatus(null);
    try {
      throwIfFailed(await work());
      setStatus(label);
      await refreshUser();
      reload();
    } catch (e) {
      // The only links sent from here are verification links (to the app's verification page).
      setError(emailLinkErrorMessage(e, app.urls.emailVerification, t));
    }
    setPending(false);
  };

  const add = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = checkEmail(email, t);
    if (problem) return setError(problem);
    await act(t("emails.added"), async () => {
      const channel = await user.createContactChannel({ value: email.trim(), usedForAuth: false });
      setEmail("");
      throwIfFailed(await channel.sendVerificationEmail());
    });
  };

  return (
    <section className="stack-section" aria-labelledby="stack-emails-heading">
      <h2 id="stack-emails-heading">{t("emails.heading")}</h2>
      <FormAlert message={error} />
      <ul className="stack-list">
        {(channels ?? []).map((c) => (
          <li key={c.id} className="stack-list-item">
            <span>
              {c.value} {c.isPrimary ? <span className="stack-badge">{t("emails.primary")}</span> : null}{" "}
              {c.isVerified ? (
                <span className="stack-badge">{t("emails.verified")}</span>
              ) : (
                <span className="stack-badge stack-badge-warn">{t("emails.unverified")}</span>
              )}
            </span>
            <span className="stack-actions">
              {!c.isVerified ? (
                <button
                  type="button"
                  className="stack-button stack-secondary stack-small"
                  disabled={pending}
                  onClick={() => act(t("emails.verificationSent", { email: c.value }), () => c.sendVerificationEmail())}
                >
                  {t("emails.sendVerification")}
                </button>
              ) : null}
              {!c.isPrimary ? (
                <button
                  type="button"
                  className="stack-button stack-secondary stack-small"
                  disabled={pending}
                  onClick={() => act(t("emails.nowPrimary", { email: c.value }), () => c.update({ isPrimary: true }))}
                >
                  {t("emails.makePrimary")}
                </button>
              ) : null}
              {!c.isPrimary ? (
                <button
                  type="button"
                  className="stack-button stack-danger stack-small"
                  disabled={pending}
                  onClick={() => act(t("common.removed", { name: c.value }), () => c.delete())}
                >
                  {t("common.remove")}
                </button>
              ) : null}
            </span>
          </li>
        ))}
      </ul>
      <form className="stack-form" noValidate onSubmit={add} aria-label={t("emails.add")}>
        <Field
          label={t("emails.add")}
          name="newEmail"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <div className="stack-actions">
          <button className="stack-button stack-secondary" type="submit" disabled={pending}>
            {t("emails.addButton")}
          </button>
          <span role="status" aria-live="polite" className="stack-hint">
            {status ?? ""}
          </span>
        </div>
      </form>
    </section>
  );
}
