/**
 * OAuth apps → the provider's switches: the provider itself, open registration (RFC 7591) and client
 * ID metadata documents (MCP), each saved at once, with what it means for who can sign people in.
 */
import { useState } from "react";
import { useProject } from "../../lib/project-context";
import { configErrorMessage } from "../config/api-error";
import { ConfigToggle } from "../config/config-toggle";
import { useAction } from "../console-ui";
import { type ProviderSettings, type ProviderToggle, toggleOverride } from "./provider-settings";

const TOGGLES: { key: ProviderToggle; label: string; hint: string; done: string }[] = [
  {
    key: "enabled",
    label: "Let apps sign people in with this project",
    hint: "Off: discovery still answers, but every app is refused at the authorize and token endpoints. Tokens already issued keep working until they expire.",
    done: "The OpenID provider",
  },
  {
    key: "dynamicRegistration",
    label: "Open registration (RFC 7591)",
    hint: "Any app can register itself at the registration endpoint, as MCP clients do before their first sign-in; each registration is rate-limited per address and capped at 1,000 per project. Users still approve every app on the consent page. Off: only apps you register below.",
    done: "Open registration",
  },
  {
    key: "clientIdMetadataDocuments",
    label: "Client ID metadata documents (CIMD)",
    hint: "An app may use an https URL as its client id; Doorman fetches the JSON document there (5 s, 64 KiB, no redirects, public addresses only) and caches it for its max-age, between 5 minutes and a day. The MCP authorization spec prefers this to open registration.",
    done: "Client ID metadata documents",
  },
];

export function ProviderToggles(props: { settings: ProviderSettings; onSaved: (message: string) => Promise<void> }) {
  const { project } = useProject();
  const { running, run } = useAction();
  const [errors, setErrors] = useState<Partial<Record<ProviderToggle, string>>>({});

  const change = (key: ProviderToggle, done: string) => (on: boolean) =>
    run(
      async () => {
        await project.updateConfig(toggleOverride(key, on), "environment");
        await props.onSaved(`${done} turned ${on ? "on" : "off"}.`);
      },
      {
        name: key,
        fallback: "Could not save.",
        message: (e, fallback) => {
          setErrors((all) => ({ ...all, [key]: configErrorMessage(e, fallback) }));
          return null;
        },
      },
    ).then((ok) => ok && setErrors((all) => ({ ...all, [key]: undefined })));

  return (
    <section className="panel config-group" aria-labelledby="oauth-provider-switches-heading">
      <h2 id="oauth-provider-switches-heading">Who can sign people in</h2>
      {TOGGLES.map((t) => (
        <ConfigToggle
          key={t.key}
          label={t.label}
          hint={t.hint}
          checked={props.settings[t.key]}
          saving={running === t.key}
          disabled={running !== null}
          error={errors[t.key]}
          onChange={change(t.key, t.done)}
        />
      ))}
    </section>
  );
}
