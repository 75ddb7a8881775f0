/**
 * `/projects/{id}/emails/themes`: the project's email themes (the built-in Default Light and Default
 * Dark, and its own), which one every email uses (the active theme), a new theme by name (a copy
 * of Default Light), and deleting an own theme that is not the active one.
 */
import type { MetaFunction } from "@remix-run/cloudflare";
import { Link, useNavigate } from "@remix-run/react";
import { type FormEvent, useCallback, useEffect, useId, useState } from "react";
import { Alert, ConfirmButton, Loaded, useAction } from "../components/console-ui";
import { DataTable } from "../components/data-table";
import { CreateByNameForm } from "../components/emails/create-by-name";
import { activeThemeId, BUILT_IN_THEME_IDS } from "../components/emails/email-names";
import { EmailsHeading } from "../components/emails/emails-heading";
import { RouteError } from "../components/route-error";
import { useProject } from "../lib/project-context";
import { useLoad } from "../lib/use-load";

export const meta: MetaFunction = () => [{ title: "Email themes · Doorman" }];

export default function EmailThemesRoute() {
  const { project, reloadProject, toast } = useProject();
  const app = project.app;
  const id = useId();
  const navigate = useNavigate();
  const load = useCallback(() => app.listEmailThemes(), [app]);
  const themes = useLoad(load, "the themes");
  const active = themes.value ? activeThemeId(project.config, themes.value) : "";
  const [chosen, setChosen] = useState(active);
  useEffect(() => setChosen(active), [active]);
  const pick = useAction();

  const onPick = async (e: FormEvent) => {
    e.preventDefault();
    const ok = await pick.run(async () => {
      await project.updateConfig({ "emails.selectedThemeId": chosen });
      await reloadProject();
    }, "Could not change the active theme.");
    if (ok) toast(`${themes.value?.find((t) => t.id === chosen)?.displayName ?? "The theme"} is now the active theme.`);
  };

  const onCreate = async (name: string) => {
    const { id: themeId } = await app.createEmailTheme(name);
    toast(`Theme ${name} created.`);
    navigate(`/projects/${project.id}/emails/themes/${themeId}`);
  };

  return (
    <>
      <EmailsHeading title={`Email themes · ${project.displayName}`} projectId={project.id}>
        <p className="muted">A theme is the frame around every email: layout, colours, the unsubscribe footer.</p>
      </EmailsHeading>
      <Loaded value={themes.value} error={themes.error} what="the themes">
        {(list) => (
          <>
            <section className="panel" aria-labelledby={`${id}-list`}>
              <h2 id={`${id}-list`}>Themes</h2>
              <DataTable className="email-table">
                <thead>
                  <tr>
                    <th scope="col">Theme</th>
                    <th scope="col">Used</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((t) => (
                    <tr key={t.id}>
                      <td>
                        <Link to={`/projects/${project.id}/emails/themes/${t.id}`}>{t.displayName}</Link>
                        {BUILT_IN_THEME_IDS.has(t.id) ? <span className="muted"> (built in)</span> : null}
                      </td>
                      <td>{t.id === active ? <span className="status status-sent">Active</span> : null}</td>
                      <td>
                        {BUILT_IN_THEME_IDS.has(t.id) || t.id === active ? null : (
                          <ConfirmButton
                            small
                            label="Delete"
                            ariaLabel={`Delete theme ${t.displayName}`}
                            title={`Delete ${t.displayName}?`}
                            consequence="The theme is deleted. Templates and drafts that use it fall back to the active theme. This cannot be undone."
                            confirmLabel="Delete theme"
                            onConfirm={async () => {
                              await app.deleteEmailTheme(t.id);
                              toast(`Theme ${t.displayName} deleted.`);
                              await themes.reload();
                            }}
                          />
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </DataTable>
            </section>
            <section className="panel">
              <form className="form" onSubmit={onPick} aria-labelledby={`${id}-active`}>
                <h2 id={`${id}-active`}>Active theme</h2>
                <div className="field">
                  <label htmlFor={`${id}-pick`}>Theme for every email</label>
                  <select id={`${id}-pick`} className="input" value={chosen} onChange={(e) => setChosen(e.target.value)}>
                    {list.map((t) => (
                      <option key={t.id} value={t.id}>
                        {t.displayName}
                      </option>
                    ))}
                  </select>
                  <p className="muted">Templates set to a theme of their own, or to no theme, keep theirs.</p>
                </div>
                <Alert message={pick.error} />
                <div>
                  <button type="submit" className="btn" disabled={pick.busy || chosen === active}>
                    {pick.busy ? "Saving…" : "Use this theme"}
                  </button>
                </div>
              </form>
            </section>
          </>
        )}
      </Loaded>
      <CreateByNameForm noun="theme" hint="It starts as a copy of Default Light." onCreate={onCreate} />
    </>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
