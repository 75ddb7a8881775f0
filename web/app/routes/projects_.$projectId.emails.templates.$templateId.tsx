/**
 * `/projects/{id}/emails/templates/{templateId}`: one template's TSX in the code editor, its theme
 * (or none), preview variables, and the live preview beside it (under it on narrow screens); Save
 * checks that it renders. A built-in template can be reset to Doorman's version, an own one deleted.
 */

import type { EmailThemeChoice } from "@doorman/sdk";
import type { MetaFunction } from "@remix-run/cloudflare";
import { Link, useNavigate, useParams } from "@remix-run/react";
import { useCallback, useId, useMemo, useState } from "react";
import { ConfirmButton, Loaded, PageHeading, useAction } from "../components/console-ui";
import { isBuiltInTemplate, templateName, templateWhen } from "../components/emails/email-names";
import { EmailPreview } from "../components/emails/email-preview";
import { EmailsNav } from "../components/emails/emails-nav";
import { type RenderProblem, renderProblem } from "../components/emails/render-error";
import { SaveBar } from "../components/emails/save-bar";
import { SourceField } from "../components/emails/source-field";
import { ThemePicker } from "../components/emails/theme-picker";
import { parseVariables, previewVariablesOf, VariablesField } from "../components/emails/variables-field";
import { RouteError } from "../components/route-error";
import { errorMessage, useProject } from "../lib/project-context";
import { useLoad } from "../lib/use-load";

export const meta: MetaFunction = () => [{ title: "Email template · Doorman" }];

export default function EmailTemplateRoute() {
  const { project } = useProject();
  const { templateId = "" } = useParams();
  const app = project.app;
  const load = useCallback(async () => {
    const [template, themes] = await Promise.all([app.getEmailTemplate(templateId), app.listEmailThemes()]);
    return { template, themes };
  }, [app, templateId]);
  const loaded = useLoad(load, "the template");
  // A reset reloads the template; the editor starts over with the new source.
  const [version, setVersion] = useState(0);
  const reload = useCallback(async () => {
    await loaded.reload();
    setVersion((v) => v + 1);
  }, [loaded.reload]);
  return (
    <>
      <p>
        <Link to={`/projects/${project.id}/emails/templates`}>← Templates</Link>
      </p>
      <Loaded value={loaded.value} error={loaded.error} what="the template">
        {({ template, themes }) => <TemplateEditor key={`${template.id}-${version}`} template={template} themes={themes} reload={reload} />}
      </Loaded>
    </>
  );
}

function TemplateEditor(props: {
  template: { id: string; displayName: string; tsxSource: string; themeId: EmailThemeChoice };
  themes: { id: string; displayName: string }[];
  reload: () => Promise<void>;
}) {
  const { project, toast } = useProject();
  const app = project.app;
  const navigate = useNavigate();
  const id = useId();
  const { template } = props;
  const [source, setSource] = useState(template.tsxSource);
  const [theme, setTheme] = useState<EmailThemeChoice>(template.themeId ?? null);
  const [variables, setVariables] = useState(() => previewVariablesOf(template.tsxSource));
  const [problem, setProblem] = useState<RenderProblem | null>(null);
  const [saved, setSaved] = useState<{ source: string; theme: EmailThemeChoice }>({
    source: template.tsxSource,
    theme: template.themeId ?? null,
  });
  const save = useAction();

  const parsed = parseVariables(variables);
  const options = useMemo(
    () => (parsed.ok ? { templateTsxSource: source, themeId: theme, variables: parsed.value } : null),
    [source, theme, variables],
  );
  const dirty = source !== saved.source || theme !== saved.theme;

  const onSave = async () => {
    const ok = await save.run(async () => {
      try {
        await app.updateEmailTemplate(template.id, source, theme);
      } catch (e) {
        setProblem(renderProblem(errorMessage(e, "Could not save the template.")));
        throw e;
      }
    }, "Could not save the template.");
    if (ok) {
      setSaved({ source, theme });
      toast("Template saved.");
    }
  };

  const name = templateName(template);
  const builtIn = isBuiltInTemplate(template.id);
  return (
    <>
      <PageHeading title={name}>
        <p className="muted">{templateWhen(template.id) ?? "Your own template."}</p>
      </PageHeading>
      <EmailsNav projectId={project.id} />
      <div className="email-workbench">
        <section className="panel email-workbench-edit" aria-labelledby={`${id}-edit`}>
          <h2 id={`${id}-edit`}>Template</h2>
          <div className="form">
            <ThemePicker id={`${id}-theme`} themes={props.themes} value={theme} onChange={setTheme} />
            <SourceField
              id={`${id}-source`}
              label="Template source (TSX)"
              value={source}
              onChange={setSource}
              problem={problem}
              file="template"
            />
            <VariablesField id={`${id}-vars`} label="Preview variables (JSON)" value={variables} onChange={setVariables} />
            <SaveBar noun="template" error={save.error} busy={save.busy} dirty={dirty} onSave={onSave} />
          </div>
        </section>
        <section className="panel email-workbench-preview" aria-label="Template preview">
          <EmailPreview app={app} options={options} onProblem={setProblem} />
        </section>
      </div>
      <section className="panel" aria-labelledby={`${id}-danger`}>
        <h2 id={`${id}-danger`}>{builtIn ? "Reset" : "Delete"}</h2>
        <p className="muted">
          {builtIn
            ? "Go back to Doorman's version of this email. Your changes to it are lost."
            : "Delete this template. Drafts and code that name it stop working."}
        </p>
        <ConfirmButton
          label={builtIn ? "Reset to Doorman's version" : "Delete template"}
          title={builtIn ? `Reset ${name}?` : `Delete ${name}?`}
          consequence={
            builtIn
              ? "Your edits to this email are lost; Doorman's version is used again."
              : "The template is deleted. This cannot be undone."
          }
          confirmLabel={builtIn ? "Reset" : "Delete"}
          onConfirm={async () => {
            await app.deleteEmailTemplate(template.id);
            toast(builtIn ? `${name} reset to Doorman's version.` : `Template ${name} deleted.`);
            if (builtIn) await props.reload();
            else navigate(`/projects/${project.id}/emails/templates`);
          }}
        />
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
