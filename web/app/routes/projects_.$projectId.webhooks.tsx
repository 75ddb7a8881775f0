/**
 * `/projects/:projectId/webhooks`: the project's webhook endpoints (URL, event types, enabled or
 * disabled and why), adding one (its signing secret shown once), sending a test event, and the
 * delivery log with every attempt and payload, and "Resend".
 */

import type { WebhookDelivery, WebhookEndpoint } from "@doorman/sdk";
import type { MetaFunction } from "@remix-run/cloudflare";
import { useCallback, useEffect, useState } from "react";
import { Loaded, PageHeading, useAction } from "../components/console-ui";
import { RouteError } from "../components/route-error";
import { DeliveryLog } from "../components/webhooks/delivery-log";
import { EndpointForm, type NewEndpoint } from "../components/webhooks/endpoint-form";
import { EndpointList } from "../components/webhooks/endpoint-list";
import { NewSecretPanel, type ShownSecret } from "../components/webhooks/new-secret-panel";
import { errorMessage, useProject } from "../lib/project-context";

export const meta: MetaFunction = () => [{ title: "Webhooks · Doorman" }];

export default function WebhooksRoute() {
  const { project, toast } = useProject();
  const app = project.app;
  const [endpoints, setEndpoints] = useState<WebhookEndpoint[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<ShownSecret | null>(null);
  const test = useAction();
  const [logVersion, setLogVersion] = useState(0);

  const load = useCallback(async () => setEndpoints(await app.listWebhookEndpoints()), [app]);
  useEffect(() => {
    load().catch((e: unknown) => setError(errorMessage(e, "Could not load the webhook endpoints.")));
  }, [load]);

  const onCreate = async (input: NewEndpoint) => {
    const { endpoint, secret } = await app.createWebhookEndpoint({
      url: input.url,
      description: input.description || undefined,
      eventTypes: input.eventTypes,
    });
    setCreated({ url: endpoint.url, secret, kind: "created" });
    toast(`Endpoint ${endpoint.url} added.`);
    await load();
  };

  const guard = async (what: string, action: () => Promise<void>) => {
    try {
      await action();
    } catch (e) {
      toast(errorMessage(e, `Could not ${what}.`));
    }
  };

  const actions = {
    /** The endpoint whose test event is on its way. */
    busyId: test.running,
    onTest: async (e: WebhookEndpoint) => {
      await test.run(
        async () => {
          const result = await app.sendTestWebhook({ endpointId: e.id });
          toast(result.success ? `Test event delivered to ${e.url}.` : `Test event not delivered: ${result.errorMessage}`);
        },
        {
          name: e.id,
          message: (error) => {
            toast(errorMessage(error, "Could not send the test event."));
            return null;
          },
        },
      );
      setLogVersion((v) => v + 1);
    },
    onToggle: (e: WebhookEndpoint) =>
      guard(e.disabled ? "enable the endpoint" : "disable the endpoint", async () => {
        await app.updateWebhookEndpoint(e.id, { disabled: !e.disabled });
        toast(`${e.url} ${e.disabled ? "enabled" : "disabled"}.`);
        await load();
      }),
    onReveal: (e: WebhookEndpoint) =>
      guard("reveal the secret", async () => {
        setCreated({ url: e.url, secret: await app.revealWebhookSecret(e.id), kind: "revealed" });
      }),
    onRotate: async (e: WebhookEndpoint) => {
      setCreated({ url: e.url, secret: await app.rotateWebhookSecret(e.id), kind: "rotated" });
      toast(`Signing secret of ${e.url} rotated.`);
    },
    onDelete: async (e: WebhookEndpoint) => {
      await app.deleteWebhookEndpoint(e.id);
      toast(`Endpoint ${e.url} deleted.`);
      await load();
      setLogVersion((v) => v + 1);
    },
  };

  const onResend = (d: WebhookDelivery) =>
    guard("resend the delivery", async () => {
      await app.resendWebhookDelivery(d.id);
      toast(`Delivery of ${d.type} queued again.`);
      setLogVersion((v) => v + 1);
    });

  return (
    <>
      <PageHeading title={`Webhooks · ${project.displayName}`}>
        <p className="muted">
          Doorman POSTs user, team, membership and permission events to your endpoints, signed per the Standard Webhooks spec, and retries
          failures for up to 3 days.
        </p>
      </PageHeading>
      {created ? <NewSecretPanel key={`${created.kind}:${created.secret}`} {...created} onDone={() => setCreated(null)} /> : null}
      <section className="panel" aria-labelledby="webhook-endpoints-heading">
        <h2 id="webhook-endpoints-heading">Endpoints</h2>
        <Loaded value={endpoints} error={error} what="the endpoints">
          {(list) => <EndpointList endpoints={list} actions={actions} />}
        </Loaded>
      </section>
      <EndpointForm onCreate={onCreate} />
      <DeliveryLog project={project} endpoints={endpoints ?? []} version={logVersion} onResend={onResend} />
    </>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
