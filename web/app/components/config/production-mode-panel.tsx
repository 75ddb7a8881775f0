/**
 * Production mode (Settings page): the switch, and the production checks as a list: what blocks
 * production mode and why, computed from the config before the switch is flipped (the API
 * answers the same messages if it is flipped anyway), plus advice that does not block it.
 */

import { type LeftoverConfig, type ProductionCheck, productionChecks } from "@doorman/shared/domain-rules";
import { Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import type { OwnedProject } from "../../lib/dashboard-types";
import { PROJECT_PAGES } from "../../lib/project-pages";
import { loadPaymentsConfig } from "../payments/payments-config";
import { ConfigToggle } from "./config-toggle";
import { useConfigSave } from "./use-config-save";

const pageLabel = (path: string) => PROJECT_PAGES.find((p) => p.path === path)?.label ?? path;

function advice(project: OwnedProject): { text: string; page: string }[] {
  const c = project.config;
  const list: { text: string; page: string }[] = [];
  if (c.domains.length === 0) list.push({ text: "No trusted domain: redirects to your app are refused.", page: "domains" });
  if (c.emailConfig.type === "shared")
    list.push({ text: "Emails go through the shared server: set up your own for your users.", page: "emails" });
  const shared = c.oauthProviders.filter((p) => p.type === "shared").map((p) => p.id);
  if (shared.length)
    list.push({ text: `Shared development keys for ${shared.join(", ")}: use your own client id and secret.`, page: "sign-in-methods" });
  return list;
}

/** The webhook endpoints' URLs and payments' test mode (read from the API), with the SMTP host of the config. */
function useLeftovers(project: OwnedProject): LeftoverConfig | null {
  const [read, setRead] = useState<Omit<LeftoverConfig, "smtpHost"> | null>(null);
  useEffect(() => {
    let live = true;
    Promise.all([project.app.listWebhookEndpoints(), loadPaymentsConfig(project)])
      .then(([endpoints, payments]) => live && setRead({ webhookUrls: endpoints.map((e) => e.url), paymentsTestMode: payments.testMode }))
      // Unread: the API still refuses production mode with the same messages if one applies.
      .catch(() => live && setRead({ webhookUrls: [], paymentsTestMode: false }));
    return () => {
      live = false;
    };
  }, [project]);
  if (!read) return null;
  const email = project.config.emailConfig;
  return { ...read, smtpHost: email.type === "standard" ? email.host : null };
}

export function ProductionModePanel({ project }: { project: OwnedProject }) {
  const { saving, errors, save } = useConfigSave();
  const leftovers = useLeftovers(project);
  const blocking: ProductionCheck[] = productionChecks(
    project.config,
    leftovers ?? { webhookUrls: [], smtpHost: null, paymentsTestMode: false },
  );
  const tips = advice(project);
  return (
    <section className="panel config-group" aria-labelledby="production-heading">
      <h2 id="production-heading">Production mode</h2>
      <ConfigToggle
        label="Production mode"
        hint="Refuses localhost, IP addresses and plain-HTTP domains, so only your real app can receive sign-ins, and development leftovers: local webhook endpoints, a local SMTP server, payments in test mode."
        checked={project.isProductionMode}
        saving={saving === "production"}
        error={errors.production}
        onChange={(on) => save("production", { isProductionMode: on }, on ? "Production mode is on." : "Production mode is off.")}
      />
      <h3 id="checks-heading">Production checks</h3>
      {blocking.length === 0 && leftovers === null ? (
        <p className="muted">Checking webhooks and payments…</p>
      ) : blocking.length === 0 ? (
        <p className="check-ok">
          <span className="check-done" aria-hidden="true">
            ✓
          </span>{" "}
          Nothing blocks production mode.
        </p>
      ) : (
        <ul className="checklist" aria-labelledby="checks-heading">
          {blocking.map(({ message, page }, i) => (
            <li key={`${i}-${message}`}>
              <span className="check-todo" aria-hidden="true">
                ✗
              </span>
              <span>
                <span className="visually-hidden">Blocks production mode: </span>
                {message} <Link to={`/projects/${project.id}/${page}`}>Fix on the {pageLabel(page)} page</Link>
              </span>
            </li>
          ))}
        </ul>
      )}
      {tips.length ? (
        <>
          <h3>Also worth doing (does not block)</h3>
          <ul className="checklist">
            {tips.map((t) => (
              <li key={t.text}>
                <span className="check-todo" aria-hidden="true">
                  !
                </span>
                <span>
                  {t.text} <Link to={`/projects/${project.id}/${t.page}`}>Go to {pageLabel(t.page)}</Link>
                </span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
