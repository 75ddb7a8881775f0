/**
 * OAuth apps → the provider's addresses an app developer needs: the issuer and its discovery
 * document (OpenID Connect Discovery / RFC 8414), and the registration endpoint while open
 * registration is on, each with a Copy button. The console is served on the API's origin.
 */
import { CopyButton } from "@doorman/sdk/react";
import { OAUTH_PROVIDER_PATHS, oauthIssuer } from "@doorman/shared/wire-oauth-provider";

export function ProviderEndpoints(props: { projectId: string; dynamicRegistration: boolean }) {
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const issuer = oauthIssuer(origin, props.projectId);
  const rows = [
    { id: "oauth-issuer", label: "Issuer", value: issuer, hint: "The iss of every token; apps and libraries configure this one URL." },
    {
      id: "oauth-discovery-url",
      label: "Discovery URL",
      value: `${issuer}${OAUTH_PROVIDER_PATHS.openidConfiguration}`,
      hint: "OpenID Connect discovery: endpoints, scopes and keys, read by openid-client, MCP clients and most OAuth libraries.",
    },
    ...(props.dynamicRegistration
      ? [
          {
            id: "oauth-registration-url",
            label: "Registration endpoint",
            value: `${issuer}${OAUTH_PROVIDER_PATHS.registration}`,
            hint: "Open registration (RFC 7591) is on: any app can register itself here.",
          },
        ]
      : []),
  ];
  return (
    <section className="panel" aria-labelledby="oauth-endpoints-heading">
      <h2 id="oauth-endpoints-heading">Your OpenID provider</h2>
      <dl className="key-list">
        {rows.map((r) => (
          <div className="key-row" key={r.id}>
            <dt>
              {r.label}
              <span className="muted"> · {r.hint}</span>
            </dt>
            <dd>
              <code className="key-value" data-testid={r.id}>
                {r.value}
              </code>
              <CopyButton value={r.value} label={r.label} className="btn btn-secondary btn-small" />
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
