/**
 * `/projects/{id}/payments`: a project's payments. Items and offers are an editor over the
 * config's `payments` section (project.updateConfig, one entry per save); test or live mode;
 * the Stripe account's onboarding state; and customers with their items, purchases, ledger
 * changes and a manual quantity change.
 */
import type { MetaFunction } from "@remix-run/cloudflare";
import { useCallback, useEffect, useState } from "react";
import { PageHeading } from "../components/console-ui";
import { CustomersPanel } from "../components/payments/customers-panel";
import { ItemsPanel } from "../components/payments/items-panel";
import { ModePanel, StripePanel } from "../components/payments/mode-panel";
import { OffersPanel } from "../components/payments/offers-panel";
import { loadPaymentsConfig, offerWrite, type PaymentsConfig } from "../components/payments/payments-config";
import { RouteError } from "../components/route-error";
import { errorMessage, useProject } from "../lib/project-context";

export const meta: MetaFunction = () => [{ title: "Payments · Doorman" }];

export default function ProjectPaymentsRoute() {
  const { project, toast } = useProject();
  const [config, setConfig] = useState<PaymentsConfig | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    loadPaymentsConfig(project)
      .then((loaded) => live && setConfig(loaded))
      .catch((e: unknown) => live && setError(errorMessage(e, "Could not load the payments settings.")));
    return () => {
      live = false;
    };
  }, [project]);

  /** Writes dotted keys of the environment override, then shows the config as the server renders it. */
  const write = useCallback(
    async (override: Record<string, unknown>, message: string) => {
      await project.updateConfig(override, "environment");
      setConfig(await loadPaymentsConfig(project));
      toast(message);
    },
    [project, toast],
  );

  return (
    <>
      <PageHeading title={`Payments · ${project.displayName}`}>
        <p className="muted">Sell plans and packs, and meter what customers use with items and their quantities.</p>
      </PageHeading>
      {error ? (
        <p className="alert" role="alert">
          {error}
        </p>
      ) : config === null ? (
        <p className="muted" role="status">
          Loading…
        </p>
      ) : (
        <>
          <ModePanel
            testMode={config.testMode}
            onChange={(testMode) => write({ "payments.testMode": testMode }, testMode ? "Test mode is on." : "Live mode is on.")}
          />
          <ItemsPanel
            config={config}
            onSave={(id, item, created) => write({ [`payments.items.${id}`]: item }, `Item ${id} ${created ? "created" : "saved"}.`)}
            onDelete={(id) => write({ [`payments.items.${id}`]: null }, `Item ${id} deleted.`)}
          />
          <OffersPanel
            app={project.app}
            config={config}
            onSave={(id, offer, newGroup, created) =>
              write(offerWrite(id, offer, newGroup), `Offer ${id} ${created ? "created" : "saved"}.`)
            }
            onDelete={(id) => write({ [`payments.products.${id}`]: null }, `Offer ${id} deleted.`)}
          />
          <CustomersPanel project={project} config={config} toast={toast} />
          <StripePanel project={project} />
        </>
      )}
    </>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
