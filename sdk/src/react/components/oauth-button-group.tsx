/**
 * "Continue with …" buttons for every OAuth provider the project has enabled
 * (`config.enabled_oauth_providers` of GET /projects/current). A click starts the provider
 * sign-in; the browser leaves the page, so only a failure to start is shown here.
 */
import { useState } from "react";
import { useTranslation } from "../i18n/context";
import { useStackApp } from "../provider";
import { useProjectConfig } from "../use-project";
import { botChallengeMessage, messageOf } from "./code-messages";
import { providerDisplayName } from "./connected-accounts-section";
import { FormAlert } from "./field";

function enabledProviders(config: Record<string, unknown>): string[] {
  const list = config.enabled_oauth_providers;
  if (!Array.isArray(list)) return [];
  return list.map((p) => (p as { id?: unknown }).id).filter((id): id is string => typeof id === "string");
}

export type OAuthButtonGroupProps = {
  /** "sign-in" (default) or "sign-up": both sign in or up as needed (kept for the reference SDK's API). */
  type?: "sign-in" | "sign-up";
};

/**
 * @example
 * <OAuthButtonGroup type="sign-in" />
 */
export function OAuthButtonGroup({ type = "sign-in" }: OAuthButtonGroupProps) {
  const app = useStackApp();
  const { t } = useTranslation();
  const config = useProjectConfig();
  const providers = config ? enabledProviders(config) : [];
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  if (providers.length === 0) return null;

  const start = async (provider: string) => {
    setPending(provider);
    setError(null);
    try {
      await app.signInWithOAuth(provider);
    } catch (err) {
      setError(botChallengeMessage(err, t) ?? messageOf(err, t("common.somethingWrong")));
      setPending(null);
    }
  };

  // "Continue with …" for both pages: the provider signs the user in or up, whichever applies.
  return (
    <div className="stack-form stack-oauth-buttons" data-type={type}>
      <FormAlert message={error} />
      {providers.map((provider) => (
        <button
          key={provider}
          type="button"
          className="stack-button stack-secondary"
          data-provider={provider}
          disabled={pending !== null}
          onClick={() => start(provider)}
        >
          {pending === provider ? t("oauth.redirecting") : t("oauth.continueWith", { provider: providerDisplayName(provider) })}
        </button>
      ))}
      <div className="stack-divider" aria-hidden="true">
        <span>{t("oauth.or")}</span>
      </div>
    </div>
  );
}
