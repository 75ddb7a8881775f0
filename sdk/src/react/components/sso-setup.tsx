/**
 * The sso-setup page (`{handler}/sso-setup#token=…`, issue 31): a team's admin (or the project's
 * owner) made a setup link for the customer's IT admin, who has no account. The page opens the
 * link's token, then lets them set up the team's identity provider (SAML or OpenID Connect: the
 * values to give the IdP, and the IdP's values back) and its email domains (the TXT record to
 * publish, and Verify). `SsoSetupPanel` is the same setup for any `TeamSsoManagement`.
 */
import { useCallback, useEffect, useState } from "react";
import type { SsoConnection, SsoDomain, SsoSetupLink, TeamSsoManagement } from "../../index";
import { useTranslation } from "../i18n/context";
import { useStackApp } from "../provider";
import { AuthCard } from "./auth-card";
import { messageOf } from "./code-messages";
import { FormAlert } from "./field";
import { SsoConnectionSection } from "./sso-setup-connection";
import { SsoDomainsSection } from "./sso-setup-domains";
import { setupTokenOf } from "./sso-setup-model";

type View = { step: "loading" } | { step: "invalid" } | { step: "ready"; link: SsoSetupLink };

/**
 * @example
 * <StackProvider app={app}><SsoSetup search={window.location.search} /></StackProvider>
 */
export function SsoSetup({ search }: { search: string }) {
  const app = useStackApp();
  const { t, formatDateTime } = useTranslation();
  const [view, setView] = useState<View>({ step: "loading" });

  useEffect(() => {
    // The token rides in the fragment (never sent to a server); read in the browser only.
    const token = setupTokenOf(window.location.hash, search);
    if (!token) return setView({ step: "invalid" });
    let live = true;
    app.openSsoSetupLink(token).then(
      (link) => live && setView({ step: "ready", link }),
      () => live && setView({ step: "invalid" }),
    );
    return () => {
      live = false;
    };
  }, [app, search]);

  if (view.step === "loading") return <AuthCard title={t("page.sso-setup")} subtitle={t("common.loading")} />;
  if (view.step === "invalid")
    return (
      <AuthCard title={t("page.sso-setup")} subtitle={t("ssoSetup.invalid")}>
        <div className="stack-actions">
          <a className="stack-button stack-secondary" href={app.urls.home}>
            {t("common.goHome")}
          </a>
        </div>
      </AuthCard>
    );
  const { link } = view;
  return (
    <AuthCard
      wide
      title={t("page.sso-setup")}
      subtitle={t("ssoSetup.subtitle", { team: link.teamDisplayName, date: formatDateTime(link.expiresAt) })}
    >
      <SsoSetupPanel sso={link.sso} />
    </AuthCard>
  );
}

/** The team's identity provider and email domains, managed through `sso`. */
export function SsoSetupPanel({ sso, headingLevel = 2 }: { sso: TeamSsoManagement; headingLevel?: 2 | 3 }) {
  const { t } = useTranslation();
  const [connections, setConnections] = useState<SsoConnection[] | null>(null);
  const [domains, setDomains] = useState<SsoDomain[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      const [c, d] = await Promise.all([sso.listConnections(), sso.listDomains()]);
      setConnections(c);
      setDomains(d);
      setError(null);
    } catch (e) {
      setError(messageOf(e, t("common.somethingWrong")));
    }
  }, [sso, t]);
  useEffect(() => {
    void reload();
  }, [reload]);

  if (error) return <FormAlert message={error} />;
  if (!connections || !domains)
    return (
      <p className="stack-hint" role="status">
        {t("common.loading")}
      </p>
    );
  return (
    <>
      <SsoConnectionSection sso={sso} connections={connections} onChanged={reload} headingLevel={headingLevel} />
      <SsoDomainsSection sso={sso} domains={domains} onChanged={reload} headingLevel={headingLevel} />
    </>
  );
}
