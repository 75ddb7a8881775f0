/**
 * `/projects/{id}/emails/themes/{themeId}`: one theme's TSX in the code editor and its name, with
 * the live preview of one of the project's templates in it; Save checks that it renders.
 */

import type { EmailTemplate, EmailTheme } from "@doorman/sdk";
import type { MetaFunction } from "@remix-run/cloudflare";
import { Link, useParams } from "@remix-run/react";
import { type FormEvent, useCallback, useId, useMemo, useRef, useState } from "react";
import { Loaded, PageHeading, TextField, useAction } from "../components/console-ui";
import { templateName } from "../components/emails/email-names";
import { EmailPreview } from "../components/emails/email-preview";
import { EmailsNav } from "../components/emails/emails-nav";
import { type RenderProblem, renderProblem } from "../components/emails/render-error";
import { SaveBar } from "../components/emails/save-bar";
import { SourceField } from "../components/emails/source-field";
import { RouteError } from "../components/route-error";
import { errorMessage, useProject } from "../lib/project-context";
import { useLoad } from "../lib/use-load";

export const meta: MetaFunction = () => [{ title: "Email theme · Doorman" }];

export default function EmailThemeRoute() {
  const { project } = useProject();
  const { themeId = "" } = useParams();
  const app = project.app;
  const load = useCallback(async () => {
    const [theme, templates] = await Promise.all([app.getEmailTheme(themeId), app.listEmailTemplates()]);
    return { theme, templates };
  }, [app, themeId]);
  const loaded = useLoad(load, "the theme");
  return (
    <>
      <p>
        <Link to={`/projects/${project.id}/emails/themes`}>← Themes</Link>
      </p>
      <Loaded value={loaded.value} error={loaded.error} what="the theme">
        {({ theme, templates }) => <ThemeEditor key={theme.id} theme={theme} templates={templates} />}
      </Loaded>
    </>
  );
}

function ThemeEditor(props: { theme: EmailTheme; templates: EmailTemplate[] }) {
  const { project, toast } = useProject();
  const app = project.app;
  const id = useId();
  const { theme } = props;
  const [name, setName] = useState(theme.displayName);
  const [nameError, setNameError] = useState<string | null>(null);
  const [source, setSource] = useState(theme.tsxSource);
  const [sample, setSample] = useState(props.templates[0]?.id ?? "");
  const [problem, setProblem] = useState<RenderProblem | null>(null);
  const [saved, setSaved] = useState({ name: theme.displayName, source: theme.tsxSource });
  const save = useAction();
  const nameRef = useRef<HTMLInputElement>(null);

  const options = useMemo(() => (sample ? { themeTsxSource: source, templateId: sample } : null), [source, sample]);
  const dirty = name !== saved.name || source !== saved.source;

  const onSave = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) {
      setNameError("Name the theme.");
      nameRef.current?.focus();
      return;
    }
    setNameError(null);
    const ok = await save.run(async () => {
      try {
        if (source !== saved.source) await app.updateEmailTheme(theme.id, source);
        if (name.trim() !== saved.name) await app.renameEmailTheme(theme.id, name.trim());
      } catch (err) {
        setProblem(renderProblem(errorMessage(err, "Could not save the theme.")));
        throw err;
      }
    }, "Could not save the theme.");
    if (ok) {
      setSaved({ name: name.trim(), source });
      toast("Theme saved.");
    }
  };

  return (
    <>
      <PageHeading title={`Theme: ${saved.name}`}>
        <p className="muted">
          The frame around every email that uses this theme. It gets the email as children, and an unsubscribe link for emails users can
          turn off.
        </p>
      </PageHeading>
      <EmailsNav projectId={project.id} />
      <div className="email-workbench">
        <section className="panel email-workbench-edit" aria-labelledby={`${id}-edit`}>
          <h2 id={`${id}-edit`}>Theme</h2>
          <form className="form" onSubmit={onSave} noValidate>
            <TextField
              id={`${id}-name`}
              label="Theme name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              error={nameError}
              inputRef={nameRef}
              maxLength={256}
            />
            <SourceField
              id={`${id}-source`}
              label="Theme source (TSX)"
              value={source}
              onChange={setSource}
              problem={problem}
              file="theme"
            />
            <SaveBar noun="theme" error={save.error} busy={save.busy} dirty={dirty} />
          </form>
        </section>
        <section className="panel email-workbench-preview" aria-label="Theme preview">
          <div className="field">
            <label htmlFor={`${id}-sample`}>Preview with the template</label>
            <select id={`${id}-sample`} className="input" value={sample} onChange={(e) => setSample(e.target.value)}>
              {props.templates.map((t) => (
                <option key={t.id} value={t.id}>
                  {templateName(t)}
                </option>
              ))}
            </select>
          </div>
          <EmailPreview app={app} options={options} onProblem={setProblem} />
        </section>
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
