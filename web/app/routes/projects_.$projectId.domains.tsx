/**
 * `/projects/{id}/domains`: the trusted domains (add, edit, remove behind a confirmation) with
 * the handler path on each, and "allow localhost". Redirects and callbacks go only to these.
 */
import type { MetaFunction } from "@remix-run/cloudflare";
import { useState } from "react";
import { ConfigToggle } from "../components/config/config-toggle";
import { type DomainEntry, DomainForm } from "../components/config/domain-form";
import { useConfigSave } from "../components/config/use-config-save";
import { ConfirmButton, PageHeading } from "../components/console-ui";
import { HostedPagesPanel } from "../components/hosted/hosted-pages-panel";
import { RouteError } from "../components/route-error";
import { useProject } from "../lib/project-context";

export const meta: MetaFunction = () => [{ title: "Domains · Doorman" }];

export default function DomainsRoute() {
  const { project, reloadProject, toast } = useProject();
  const { saving, errors, save } = useConfigSave();
  const [editing, setEditing] = useState<string | null>(null);
  const domains = project.config.domains;

  // The forms show the API's error themselves (thrown from here).
  const saveDomains = async (next: DomainEntry[], success: string) => {
    await project.update({ config: { domains: next } });
    await reloadProject();
    toast(success);
  };

  return (
    <>
      <PageHeading title={`Domains · ${project.displayName}`}>
        <p className="muted">
          Doorman sends people back only to trusted domains after sign-in, sign-up, email links and OAuth. Add each domain your app runs on.
        </p>
      </PageHeading>
      <section className="panel" aria-labelledby="domains-heading">
        <h2 id="domains-heading">Trusted domains</h2>
        {domains.length === 0 ? (
          <p className="empty">No trusted domain yet: only localhost works{project.config.allowLocalhost ? "" : " (and it is off)"}.</p>
        ) : (
          <ul className="domain-list" aria-label="Trusted domains">
            {domains.map((d) => (
              <li key={d.domain} className="domain-item">
                <div className="domain-summary">
                  <code className="domain-url">{d.domain}</code>
                  <span className="muted">handler {d.handlerPath}</span>
                  <span className="provider-actions">
                    <button
                      type="button"
                      className="btn btn-secondary btn-small"
                      aria-label={`Edit ${d.domain}`}
                      aria-expanded={editing === d.domain}
                      onClick={() => setEditing(editing === d.domain ? null : d.domain)}
                    >
                      Edit
                    </button>
                    <ConfirmButton
                      small
                      label="Remove"
                      ariaLabel={`Remove ${d.domain}`}
                      title={`Stop trusting ${d.domain}?`}
                      consequence={`Sign-in, email links and OAuth can no longer return to ${d.domain}: people signing in from there will see an error until you add it again.`}
                      confirmLabel="Remove domain"
                      onConfirm={() =>
                        saveDomains(
                          domains.filter((o) => o.domain !== d.domain),
                          `${d.domain} removed.`,
                        )
                      }
                    />
                  </span>
                </div>
                {editing === d.domain ? (
                  <DomainForm
                    editing={d}
                    others={domains.filter((o) => o.domain !== d.domain)}
                    productionMode={project.isProductionMode}
                    onCancel={() => setEditing(null)}
                    onSubmit={async (entry) => {
                      await saveDomains(
                        domains.map((o) => (o.domain === d.domain ? entry : o)),
                        `${entry.domain} saved.`,
                      );
                      setEditing(null);
                    }}
                  />
                ) : null}
              </li>
            ))}
          </ul>
        )}
        <DomainForm
          others={domains}
          productionMode={project.isProductionMode}
          onSubmit={(entry) => saveDomains([...domains, entry], `${entry.domain} is trusted.`)}
        />
      </section>
      <HostedPagesPanel project={project} toast={toast} />
      <section className="panel config-group" aria-labelledby="localhost-heading">
        <h2 id="localhost-heading">Local development</h2>
        <ConfigToggle
          label="Allow localhost"
          hint="Trust http://localhost and 127.0.0.1 on any port, for development. Production mode needs it off."
          checked={project.config.allowLocalhost}
          saving={saving === "allowLocalhost"}
          error={errors.allowLocalhost}
          onChange={(on) =>
            save("allowLocalhost", { config: { allowLocalhost: on } }, `Localhost ${on ? "allowed" : "no longer allowed"}.`)
          }
        />
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
