/**
 * The user's project permissions: those granted directly (each revocable after a confirmation),
 * those held through containment, and a grant form over the project's permission definitions.
 */

import type { ServerUser, StackAdminApp } from "@doorman/sdk";
import { Link } from "@remix-run/react";
import { type FormEvent, useCallback, useId, useState } from "react";
import { useLoad } from "../../lib/use-load";
import { ConfirmButton, useAction } from "../console-ui";

type Props = { app: StackAdminApp; projectId: string; user: ServerUser; label: string; toast: (m: string) => void };

export function ProjectPermissionsPanel({ app, projectId, user, label, toast }: Props) {
  const id = useId();
  const load = useCallback(async () => {
    const [direct, all, definitions] = await Promise.all([
      user.listPermissions({ recursive: false }),
      user.listPermissions({ recursive: true }),
      app.listProjectPermissionDefinitions(),
    ]);
    const directIds = direct.map((p) => p.id);
    return { directIds, inheritedIds: all.map((p) => p.id).filter((p) => !directIds.includes(p)), definitions };
  }, [app, user]);
  const state = useLoad(load, "the permissions");
  const [choice, setChoice] = useState("");
  const { busy: pending, error, run } = useAction();

  const grantable = state.value?.definitions.filter((d) => !state.value?.directIds.includes(d.id)) ?? [];
  const selected = grantable.some((d) => d.id === choice) ? choice : (grantable[0]?.id ?? "");

  const onGrant = async (event: FormEvent) => {
    event.preventDefault();
    if (!selected) return;
    await run(async () => {
      await user.grantPermission(selected);
      toast(`Granted ${selected}.`);
      await state.reload();
    }, "Could not grant the permission.");
  };

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Project permissions</h2>
      {error || state.error ? (
        <p className="alert" role="alert">
          {error ?? state.error}
        </p>
      ) : null}
      {state.value === null ? (
        state.error ? null : (
          <p className="muted" role="status">
            Loading permissions…
          </p>
        )
      ) : (
        <>
          {state.value.directIds.length === 0 ? (
            <p className="empty">No project permission granted.</p>
          ) : (
            <ul className="plain-list" aria-label="Granted project permissions">
              {state.value.directIds.map((permission) => (
                <li key={permission}>
                  <code>{permission}</code>
                  <ConfirmButton
                    small
                    label="Revoke"
                    ariaLabel={`Revoke ${permission}`}
                    title={`Revoke ${permission} from ${label}?`}
                    consequence={`${label} loses ${permission} and every permission it contains (unless granted another way), from their next token refresh.`}
                    confirmLabel="Revoke permission"
                    onConfirm={async () => {
                      await user.revokePermission(permission);
                      toast(`Revoked ${permission}.`);
                      await state.reload();
                    }}
                  />
                </li>
              ))}
            </ul>
          )}
          {state.value.inheritedIds.length ? <p className="muted">Also held through those: {state.value.inheritedIds.join(", ")}</p> : null}
          {state.value.definitions.length === 0 ? (
            <p className="muted">
              This project defines no project permissions yet.{" "}
              <Link to={`/projects/${projectId}/permissions`}>Define one on the Permissions page</Link>.
            </p>
          ) : grantable.length === 0 ? (
            <p className="muted">Every project permission is granted.</p>
          ) : (
            <form className="field grant-form" onSubmit={onGrant}>
              <label htmlFor={`${id}-grant`}>Permission to grant</label>
              <div className="inline">
                <select id={`${id}-grant`} className="input" value={selected} onChange={(e) => setChoice(e.target.value)}>
                  {grantable.map((d) => (
                    <option key={d.id} value={d.id}>
                      {d.id}
                      {d.description ? ` — ${d.description}` : ""}
                    </option>
                  ))}
                </select>
                <button type="submit" className="btn btn-secondary" disabled={pending} aria-busy={pending}>
                  {pending ? "Granting…" : "Grant"}
                </button>
              </div>
            </form>
          )}
        </>
      )}
    </section>
  );
}
