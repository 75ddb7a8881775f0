/**
 * `/projects/{id}/emails/templates`: the project's email templates (the built-in ones in plain
 * words, with when Doorman sends them) and the theme each uses; a new template by name.
 */
import type { MetaFunction } from "@remix-run/cloudflare";
import { Link, useNavigate } from "@remix-run/react";
import { useCallback, useId } from "react";
import { Loaded } from "../components/console-ui";
import { DataTable } from "../components/data-table";
import { CreateByNameForm } from "../components/emails/create-by-name";
import { templateName, templateWhen, themeChoiceName } from "../components/emails/email-names";
import { EmailsHeading } from "../components/emails/emails-heading";
import { RouteError } from "../components/route-error";
import { useProject } from "../lib/project-context";
import { useLoad } from "../lib/use-load";

export const meta: MetaFunction = () => [{ title: "Email templates · Doorman" }];

export default function EmailTemplatesRoute() {
  const { project, toast } = useProject();
  const app = project.app;
  const id = useId();
  const navigate = useNavigate();
  const load = useCallback(async () => {
    const [templates, themes] = await Promise.all([app.listEmailTemplates(), app.listEmailThemes()]);
    return { templates, themes };
  }, [app]);
  const library = useLoad(load, "the templates");

  const onCreate = async (name: string) => {
    const { id: templateId } = await app.createEmailTemplate(name);
    toast(`Template ${name} created.`);
    navigate(`/projects/${project.id}/emails/templates/${templateId}`);
  };

  return (
    <>
      <EmailsHeading title={`Email templates · ${project.displayName}`} projectId={project.id}>
        <p className="muted">The emails Doorman sends for you, and your own. Open one to edit it with a live preview.</p>
      </EmailsHeading>
      <section className="panel" aria-labelledby={`${id}-list`}>
        <h2 id={`${id}-list`}>Templates</h2>
        <Loaded value={library.value} error={library.error} what="the templates">
          {({ templates, themes }) => (
            <DataTable className="email-table">
              <thead>
                <tr>
                  <th scope="col">Template</th>
                  <th scope="col">When it is sent</th>
                  <th scope="col">Theme</th>
                </tr>
              </thead>
              <tbody>
                {templates.map((t) => (
                  <tr key={t.id}>
                    <td>
                      <Link to={`/projects/${project.id}/emails/templates/${t.id}`}>{templateName(t)}</Link>
                    </td>
                    <td>{templateWhen(t.id) ?? <span className="muted">Your own template: send it from Compose.</span>}</td>
                    <td>{themeChoiceName(t.themeId, themes)}</td>
                  </tr>
                ))}
              </tbody>
            </DataTable>
          )}
        </Loaded>
      </section>
      <CreateByNameForm noun="template" onCreate={onCreate} />
    </>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
