/**
 * `/projects/{id}/oauth-apps`: the project as an OpenID provider (issue 30). Its issuer and discovery
 * URL; the third-party apps and agents that sign its users in (registered here, by open registration,
 * or by a client ID metadata document): register one (its secret shown once), edit, rotate the secret,
 * delete; and the provider's settings, saved as config `doorman.oauthProvider`: the switches, custom
 * scopes, token lifetimes and the APIs tokens may be for. docs/oauth-provider.md has the details.
 */
import type { OAuthClient } from "@doorman/sdk";
import type { MetaFunction } from "@remix-run/cloudflare";
import { useCallback, useState } from "react";
import { Loaded, PageHeading } from "../components/console-ui";
import { ClientForm } from "../components/oauth-apps/client-form";
import { createOptionsOf, type ClientForm as Form, updateOptionsOf } from "../components/oauth-apps/client-form-model";
import { ClientList } from "../components/oauth-apps/client-list";
import { ClientSecretPanel, type ShownClientSecret } from "../components/oauth-apps/client-secret-panel";
import { ProviderEndpoints } from "../components/oauth-apps/provider-endpoints";
import { loadProviderSettings, offeredScopes } from "../components/oauth-apps/provider-settings";
import { ProviderToggles } from "../components/oauth-apps/provider-toggles";
import { ScopesForm } from "../components/oauth-apps/scopes-form";
import { TokensForm } from "../components/oauth-apps/tokens-form";
import { RouteError } from "../components/route-error";
import { useProject } from "../lib/project-context";
import { useLoad } from "../lib/use-load";

export const meta: MetaFunction = () => [{ title: "OAuth apps · Doorman" }];

export default function OAuthAppsRoute() {
  const { project, toast } = useProject();
  const app = project.app;
  const settings = useLoad(
    useCallback(() => loadProviderSettings(project), [project]),
    "the OpenID provider settings",
  );
  const clients = useLoad(
    useCallback(() => app.listOAuthClients(), [app]),
    "the apps",
  );
  const [shown, setShown] = useState<ShownClientSecret | null>(null);
  const [editing, setEditing] = useState<OAuthClient | null>(null);

  const onCreate = async (form: Form) => {
    const { client, clientSecret } = await app.createOAuthClient(createOptionsOf(form));
    if (clientSecret) setShown({ clientId: client.clientId, name: client.name, secret: clientSecret, kind: "created" });
    toast(`“${client.name}” registered.`);
    await clients.reload();
  };
  const onUpdate = async (form: Form) => {
    if (!editing) return;
    const client = await app.updateOAuthClient(editing.clientId, updateOptionsOf(form));
    setEditing(null);
    toast(`“${client.name}” saved.`);
    await clients.reload();
  };
  const actions = {
    onEdit: (c: OAuthClient) => {
      setEditing(c);
      setTimeout(() => document.getElementById("oauth-client-editor")?.querySelector<HTMLInputElement>("input")?.focus());
    },
    onRotate: async (c: OAuthClient) => {
      const { client, clientSecret } = await app.rotateOAuthClientSecret(c.clientId);
      if (clientSecret) setShown({ clientId: client.clientId, name: client.name, secret: clientSecret, kind: "rotated" });
      toast(`Secret of “${c.name}” rotated.`);
      await clients.reload();
    },
    onDelete: async (c: OAuthClient) => {
      await app.deleteOAuthClient(c.clientId);
      if (editing?.clientId === c.clientId) setEditing(null);
      toast(`“${c.name}” deleted.`);
      await clients.reload();
    },
  };
  const saved = async (message: string) => {
    await settings.reload();
    toast(message);
  };

  return (
    <>
      <PageHeading title={`OAuth apps · ${project.displayName}`}>
        <p className="muted">
          Other apps and AI agents (MCP clients) can sign your users in with their account in this project, and call your APIs with the
          tokens Doorman issues: OAuth 2.1 and OpenID Connect, with a consent page on your hosted pages.
        </p>
      </PageHeading>
      <ProviderEndpoints projectId={project.id} dynamicRegistration={settings.value?.dynamicRegistration ?? false} />
      {shown ? <ClientSecretPanel key={`${shown.kind}:${shown.secret}`} {...shown} onDone={() => setShown(null)} /> : null}
      <section className="panel" aria-labelledby="oauth-clients-heading">
        <h2 id="oauth-clients-heading">Apps</h2>
        <Loaded value={clients.value} error={clients.error} what="the apps">
          {(list) => <ClientList clients={list} actions={actions} />}
        </Loaded>
      </section>
      <Loaded value={settings.value} error={settings.error} what="the OpenID provider settings">
        {(s) => (
          <>
            <div id="oauth-client-editor">
              {editing ? (
                <ClientForm
                  key={editing.clientId}
                  editing={editing}
                  offeredScopes={offeredScopes(s)}
                  onSubmit={onUpdate}
                  onCancel={() => setEditing(null)}
                />
              ) : (
                <ClientForm offeredScopes={offeredScopes(s)} onSubmit={onCreate} />
              )}
            </div>
            <ProviderToggles settings={s} onSaved={saved} />
            <ScopesForm settings={s} onSaved={saved} />
            <TokensForm settings={s} onSaved={saved} />
          </>
        )}
      </Loaded>
    </>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
