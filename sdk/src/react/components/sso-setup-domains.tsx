/**
 * The sso-setup page's email domains (issue 31): add the company's domain, publish the TXT record
 * shown (name and value, with Copy), then Verify (Doorman looks it up through DNS-over-HTTPS). A
 * verified domain sends its people to the team's identity provider.
 */
import { type FormEvent, useId, useState } from "react";
import type { SsoDomain, TeamSsoManagement } from "../../index";
import { useTranslation } from "../i18n/context";
import type { MessageKey } from "../i18n/en";
import { errorCodeOf, messageOf } from "./code-messages";
import { CopyButton } from "./copy-button";
import { Field, FormAlert } from "./field";

type Props = { sso: TeamSsoManagement; domains: SsoDomain[]; onChanged: () => Promise<void>; headingLevel?: 2 | 3 };

const STATUS: Record<SsoDomain["status"], MessageKey> = {
  pending: "ssoSetup.statusPending",
  verified: "ssoSetup.statusVerified",
  lost: "ssoSetup.statusLost",
};

export function SsoDomainsSection({ sso, domains, onChanged, headingLevel = 2 }: Props) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const { t } = useTranslation();
  const ids = useId();
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const add = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await sso.claimDomain(name);
      setName("");
      await onChanged();
    } catch (err) {
      setError(messageOf(err, t("common.somethingWrong")));
    }
    setBusy(false);
  };
  return (
    <section className="stack-section" aria-labelledby={`${ids}-domains`}>
      <Heading id={`${ids}-domains`}>{t("ssoSetup.domainsHeading")}</Heading>
      <p className="stack-hint">{t("ssoSetup.domainsIntro")}</p>
      {domains.length === 0 ? <p className="stack-hint">{t("ssoSetup.noDomains")}</p> : null}
      <ul className="stack-list">
        {domains.map((d) => (
          <DomainRow key={d.id} sso={sso} domain={d} onChanged={onChanged} />
        ))}
      </ul>
      <form className="stack-form" onSubmit={add} noValidate>
        <Field
          label={t("ssoSetup.domain")}
          placeholder="example.com"
          value={name}
          autoComplete="off"
          onChange={(e) => setName(e.target.value)}
          error={error}
        />
        <div className="stack-actions">
          <button className="stack-button stack-secondary" type="submit" disabled={busy || !name.trim()}>
            {t("ssoSetup.addDomain")}
          </button>
        </div>
      </form>
    </section>
  );
}

/** Why a check did not verify the domain, in the page's language (the server's text for anything else). */
function verifyMessage(error: unknown, t: ReturnType<typeof useTranslation>["t"], domain: string): string {
  const code = errorCodeOf(error);
  if (code === "SSO_DOMAIN_VERIFICATION_FAILED") {
    const reason = (error as { details?: { reason?: unknown } }).details?.reason;
    return t(reason === "resolver_unavailable" ? "ssoSetup.dnsUnavailable" : "ssoSetup.notFoundYet");
  }
  if (code === "SSO_DOMAIN_ALREADY_VERIFIED") return t("ssoSetup.otherTeam", { domain });
  return messageOf(error, t("common.somethingWrong"));
}

function DomainRow({ sso, domain, onChanged }: { sso: TeamSsoManagement; domain: SsoDomain; onChanged: () => Promise<void> }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const verify = async () => {
    setBusy(true);
    setMessage(null);
    try {
      await sso.verifyDomain(domain.id);
      await onChanged();
    } catch (e) {
      setMessage(verifyMessage(e, t, domain.domain));
    }
    setBusy(false);
  };
  return (
    <li className="stack-list-item" data-testid={`sso-domain-${domain.domain}`} style={{ display: "block" }}>
      <p style={{ margin: "0 0 8px" }}>
        <strong>{domain.domain}</strong>{" "}
        <span className={domain.status === "verified" ? "stack-badge" : "stack-badge stack-badge-warn"} data-testid="sso-domain-status">
          {t(STATUS[domain.status])}
        </span>
      </p>
      {domain.status === "verified" ? null : (
        <>
          {(
            [
              ["ssoSetup.txtName", domain.txtRecord.name],
              ["ssoSetup.txtValue", domain.txtRecord.value],
            ] as const
          ).map(([label, value]) => (
            <div key={label} className="stack-actions" style={{ marginBottom: 6 }}>
              <span className="stack-hint">{t(label)}</span>
              <code className="stack-code">{value}</code>
              <CopyButton value={value} label={t(label)} />
            </div>
          ))}
          <FormAlert message={message} />
          <div className="stack-actions" style={{ marginTop: 8 }}>
            <button type="button" className="stack-button stack-small" disabled={busy} onClick={() => void verify()}>
              {t(busy ? "ssoSetup.verifying" : "ssoSetup.verify")}
            </button>
          </div>
        </>
      )}
    </li>
  );
}
