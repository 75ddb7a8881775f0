/** The form that adds a webhook endpoint: URL, description, and the event types it takes (none ticked: every type). */

import { WEBHOOK_EVENT_TYPES } from "@doorman/sdk";
import { useId, useRef, useState } from "react";
import { Alert, TextField, useAction } from "../console-ui";

export type NewEndpoint = { url: string; description: string; eventTypes: string[] };

export function EndpointForm({ onCreate }: { onCreate: (endpoint: NewEndpoint) => Promise<void> }) {
  const id = useId();
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [types, setTypes] = useState<string[]>([]);
  const [urlError, setUrlError] = useState<string | null>(null);
  const urlInput = useRef<HTMLInputElement>(null);
  const { busy, error, run } = useAction();

  const submit = async () => {
    const trimmed = url.trim();
    const problem = !trimmed
      ? "Enter the URL Doorman should POST events to."
      : /^https?:\/\/\S+$/i.test(trimmed)
        ? null
        : "Enter an http(s) URL.";
    setUrlError(problem);
    if (problem) {
      urlInput.current?.focus();
      return;
    }
    const ok = await run(
      () => onCreate({ url: trimmed, description: description.trim(), eventTypes: types }),
      "Could not add the endpoint.",
    );
    if (ok) {
      setUrl("");
      setDescription("");
      setTypes([]);
    }
  };

  return (
    <form
      className="panel form"
      aria-labelledby={`${id}-heading`}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h2 id={`${id}-heading`}>Add an endpoint</h2>
      <TextField
        id={`${id}-url`}
        label="Endpoint URL"
        inputRef={urlInput}
        type="url"
        inputMode="url"
        autoComplete="off"
        placeholder="https://api.example.com/webhooks/doorman"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        error={urlError}
        hint="HTTPS, on a public address. Doorman signs every request (Standard Webhooks)."
      />
      <TextField
        id={`${id}-description`}
        label="Description (optional)"
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        maxLength={500}
      />
      <fieldset className="webhook-types">
        <legend>Event types</legend>
        <p className="muted">Leave all unticked to receive every type.</p>
        {WEBHOOK_EVENT_TYPES.map((t) => (
          <label key={t} className="checkbox">
            <input
              type="checkbox"
              checked={types.includes(t)}
              onChange={(e) => setTypes((list) => (e.target.checked ? [...list, t] : list.filter((x) => x !== t)))}
            />{" "}
            <code>{t}</code>
          </label>
        ))}
      </fieldset>
      <Alert message={error} />
      <button type="submit" className="btn" disabled={busy}>
        {busy ? "Adding…" : "Add endpoint"}
      </button>
    </form>
  );
}
