/**
 * Adds or edits one trusted domain: its URL (scheme and host, `*` allowed in the host, e.g.
 * https://*.example.com) and the path of the handler pages on it (default /handler). Checked here
 * with the API's rules first (and the production checks when production mode is on); the API's
 * own error is shown too.
 */

import { domainError, productionModeErrors } from "@doorman/shared/domain-rules";
import { type FormEvent, useId, useRef, useState } from "react";
import { Alert, TextField, useAction } from "../console-ui";
import { configErrorMessage } from "./api-error";

export type DomainEntry = { domain: string; handlerPath: string };

export function DomainForm(props: {
  editing?: DomainEntry;
  /** The other entries (for the duplicate check). */
  others: DomainEntry[];
  productionMode: boolean;
  onSubmit: (entry: DomainEntry) => Promise<void>;
  onCancel?: () => void;
}) {
  const formId = useId();
  const [domain, setDomain] = useState(props.editing?.domain ?? "");
  const [handlerPath, setHandlerPath] = useState(props.editing?.handlerPath ?? "/handler");
  const [errors, setErrors] = useState<{ domain?: string; handlerPath?: string }>({});
  const { busy: pending, error: formError, setError: setFormError, run } = useAction();
  const domainRef = useRef<HTMLInputElement>(null);
  const pathRef = useRef<HTMLInputElement>(null);

  const check = (value: string, path: string) => {
    const found: typeof errors = {};
    if (!value) found.domain = "Enter the URL of your app, like https://app.example.com.";
    else if (domainError(value))
      found.domain = `Not a valid URL. Use the scheme and host, like https://app.example.com or https://*.example.com.`;
    else if (props.others.some((o) => o.domain.toLowerCase() === value.toLowerCase())) found.domain = "This domain is already trusted.";
    else if (props.productionMode) {
      const problem = productionModeErrors({ allowLocalhost: false, domains: [{ domain: value }] })[0];
      if (problem) found.domain = `${problem} (The project is in production mode.)`;
    }
    if (!path.startsWith("/")) found.handlerPath = "The handler path starts with /, like /handler.";
    return found;
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    const value = domain.trim().replace(/\/+$/, "");
    const path = handlerPath.trim() || "/handler";
    const found = check(value, path);
    setErrors(found);
    setFormError(null);
    if (found.domain) return domainRef.current?.focus();
    if (found.handlerPath) return pathRef.current?.focus();
    await run(
      async () => {
        await props.onSubmit({ domain: value, handlerPath: path });
        if (!props.editing) {
          setDomain("");
          setHandlerPath("/handler");
        }
      },
      { fallback: "Could not save the domain.", message: configErrorMessage },
    );
  };

  return (
    <form className="form domain-form" noValidate onSubmit={onSubmit} aria-labelledby={`${formId}-heading`}>
      <h3 id={`${formId}-heading`}>{props.editing ? `Edit ${props.editing.domain}` : "Add a trusted domain"}</h3>
      <Alert message={formError} focus />
      <TextField
        id={`${formId}-domain`}
        label="Domain URL"
        inputRef={domainRef}
        value={domain}
        placeholder="https://app.example.com"
        inputMode="url"
        autoComplete="off"
        error={errors.domain}
        onChange={(e) => setDomain(e.target.value)}
      />
      <TextField
        id={`${formId}-path`}
        label="Handler path"
        inputRef={pathRef}
        value={handlerPath}
        autoComplete="off"
        hint="Where your app serves the sign-in pages (the Handler component), e.g. /handler."
        error={errors.handlerPath}
        onChange={(e) => setHandlerPath(e.target.value)}
      />
      <div className="form-actions">
        <button type="submit" className="btn" disabled={pending} aria-busy={pending}>
          {pending ? "Saving…" : props.editing ? "Save domain" : "Add domain"}
        </button>
        {props.onCancel ? (
          <button type="button" className="btn btn-secondary" onClick={props.onCancel} disabled={pending}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
