/**
 * Team SSO → a setup link for the customer's IT admin: a page on the project's hosted pages where
 * they set up this team's identity provider and domains without an account, until the link expires
 * (1 to 30 days). Anyone with the link can change the team's SSO until then: send it to one person.
 */
import type { TeamSsoManagement } from "@doorman/sdk";
import { type FormEvent, useId, useState } from "react";
import { formatDateTime } from "../../lib/format";
import { Alert, useAction } from "../console-ui";
import { CopyValues } from "./copy-values";
import { daysToMillis, SETUP_LINK_DAYS } from "./sso-console-model";

export function SetupLinkPanel({ sso, onMade }: { sso: TeamSsoManagement; onMade: (message: string) => void }) {
  const id = useId();
  const [days, setDays] = useState<number>(7);
  const [link, setLink] = useState<{ url: string; expiresAt: Date } | null>(null);
  const { busy, error, run } = useAction();
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    await run(async () => {
      const made = await sso.createSetupLink({ expiresInMillis: daysToMillis(days) });
      setLink(made);
      onMade(`Setup link made: it works until ${formatDateTime(made.expiresAt)}.`);
    }, "Could not make the link.");
  };
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Setup link for the team's IT admin</h2>
      <p className="muted">
        The link opens a page where they connect the team's identity provider and verify its domains, without an account. Whoever has it can
        change this team's SSO until it expires: send it to one person.
      </p>
      <form className="form team-inline-form" noValidate onSubmit={onSubmit}>
        <Alert message={error} />
        <div className="field">
          <label htmlFor={`${id}-days`}>Works for</label>
          <select id={`${id}-days`} className="input" value={days} onChange={(e) => setDays(Number(e.target.value))}>
            {SETUP_LINK_DAYS.map((d) => (
              <option key={d} value={d}>
                {d === 1 ? "1 day" : `${d} days`}
              </option>
            ))}
          </select>
        </div>
        <div>
          <button type="submit" className="btn btn-secondary" disabled={busy} aria-busy={busy}>
            {busy ? "Making…" : "Make a setup link"}
          </button>
        </div>
      </form>
      {link ? (
        <CopyValues
          rows={[{ id: "sso-setup-link", label: "Setup link", value: link.url, hint: `until ${formatDateTime(link.expiresAt)}` }]}
        />
      ) : null}
    </section>
  );
}
