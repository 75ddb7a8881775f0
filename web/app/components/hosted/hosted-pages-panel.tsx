/**
 * The Domains page's "Hosted pages" section: the project's hosted sign-in URL (with a link) and
 * its custom domain (map, change, remove), with per-field errors for a malformed or taken hostname.
 */

import { normaliseCustomHostname } from "@doorman/shared/hosted-pages";
import { KnownError } from "@doorman/shared/known-errors";
import { useCallback, useId, useRef, useState } from "react";
import type { OwnedProject } from "../../lib/dashboard-types";
import { errorMessage } from "../../lib/project-context";
import { useLoad } from "../../lib/use-load";
import { Alert, ConfirmButton, Loaded, TextField, useAction } from "../console-ui";

const HOSTNAME_HINT = "A hostname you control, such as auth.example.com: point it at Doorman (see docs/hosted-pages.md).";

export function HostedPagesPanel({ project, toast }: { project: OwnedProject; toast: (message: string) => void }) {
  const load = useCallback(() => project.app.getHostedPages(), [project.app]);
  const settings = useLoad(load, "the hosted pages");
  const id = useId();
  const [hostname, setHostname] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const { busy, error, run } = useAction();
  const current = settings.value?.customDomain ?? null;
  const value = hostname ?? current ?? "";

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    const host = normaliseCustomHostname(value);
    if (!host) {
      setFieldError("Enter a hostname like auth.example.com: no https://, port or path, not an IP address or localhost.");
      inputRef.current?.focus();
      return;
    }
    setFieldError(null);
    const ok = await run(
      async () => {
        await project.app.setCustomDomain(host);
        await settings.reload();
        setHostname(null);
      },
      {
        // The hostname's own problems are shown on the field; anything else above the form.
        message: (e, fallback) => {
          if (e instanceof KnownError && (e.code === "CUSTOM_DOMAIN_TAKEN" || e.code === "CUSTOM_DOMAIN_INVALID")) {
            setFieldError(e.message);
            return null;
          }
          return errorMessage(e, fallback);
        },
      },
    );
    if (ok) toast(`${host} now serves the hosted pages.`);
    else inputRef.current?.focus();
  };

  return (
    <section className="panel" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Hosted pages</h2>
      <p className="muted">
        Every project has ready-made sign-in, sign-up, account and email pages. Link to them from your app, or send users there with the
        SDK&apos;s <code>hostedPages</code> option.
      </p>
      <Loaded value={settings.value} error={settings.error} what="the hosted pages">
        {(s) => (
          <>
            <p>
              <a href={s.hostedUrl} target="_blank" rel="noreferrer">
                {s.hostedUrl}
              </a>
            </p>
            {s.customDomain ? (
              <p>
                Also at{" "}
                <a href={`https://${s.customDomain}/handler/sign-in`} target="_blank" rel="noreferrer">
                  https://{s.customDomain}/handler/sign-in
                </a>
              </p>
            ) : null}
          </>
        )}
      </Loaded>
      <form className="form" onSubmit={onSubmit} noValidate aria-labelledby={`${id}-form`}>
        <h3 id={`${id}-form`}>Custom domain</h3>
        <Alert message={error} />
        <TextField
          id={`${id}-host`}
          inputRef={inputRef}
          label="Hostname"
          hint={HOSTNAME_HINT}
          error={fieldError}
          value={value}
          autoComplete="off"
          spellCheck={false}
          placeholder="auth.example.com"
          onChange={(e) => {
            setHostname(e.target.value);
            setFieldError(null);
          }}
        />
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? "Saving…" : current ? "Change domain" : "Use this domain"}
          </button>
          {current ? (
            <ConfirmButton
              label="Remove"
              ariaLabel={`Remove ${current}`}
              title={`Stop serving the hosted pages at ${current}?`}
              consequence={`Links to ${current} (in emails already sent, in your app) stop working until you map it again.`}
              confirmLabel="Remove domain"
              onConfirm={async () => {
                await project.app.removeCustomDomain();
                await settings.reload();
                setHostname(null);
                toast(`${current} removed.`);
              }}
            />
          ) : null}
        </div>
      </form>
    </section>
  );
}
