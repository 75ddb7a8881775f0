/**
 * `/projects/{id}/emails/compose`: an email to users now: recipients (chosen users, all users or a
 * team), a template with variables or HTML of the owner's own, theme, subject and kind
 * (transactional or marketing), a live preview, and Send after a confirmation stating how many
 * users get it; then the per-user results (sent, skipped, failed), which the sent log also lists.
 */

import type { EmailPreviewOptions, EmailThemeChoice, SendEmailResult } from "@doorman/sdk";
import type { MetaFunction } from "@remix-run/cloudflare";
import { useCallback, useId, useMemo, useRef, useState } from "react";
import { Loaded } from "../components/console-ui";
import { templateName } from "../components/emails/email-names";
import { EmailPreview } from "../components/emails/email-preview";
import { EmailsHeading } from "../components/emails/emails-heading";
import { RecipientPicker, type Recipients, recipientsProblem, resolveRecipients } from "../components/emails/recipient-picker";
import { SendButton, SendResults } from "../components/emails/send-panel";
import { ServerNotice } from "../components/emails/server-notice";
import { ThemePicker } from "../components/emails/theme-picker";
import { parseVariables, previewVariablesOf, VariablesField } from "../components/emails/variables-field";
import { RouteError } from "../components/route-error";
import { useProject } from "../lib/project-context";
import { useLoad } from "../lib/use-load";

export const meta: MetaFunction = () => [{ title: "Compose an email · Doorman" }];

/** The template the API wraps raw HTML in (send-email with html), so the preview matches what is sent. */
const htmlTemplateSource = (html: string) => `export const variablesSchema = (v: unknown) => v;

export function EmailTemplate() {
  return <div dangerouslySetInnerHTML={{ __html: ${JSON.stringify(html)} }} />;
}
`;

const CATEGORIES = [
  { name: "Transactional", hint: "Account and service messages; users cannot turn them off." },
  { name: "Marketing", hint: "News and offers, with an unsubscribe link; users who turned these off do not get them." },
] as const;

export default function ComposeEmailRoute() {
  const { project } = useProject();
  const app = project.app;
  const load = useCallback(async () => {
    const [templates, themes] = await Promise.all([app.listEmailTemplates(), app.listEmailThemes()]);
    return { templates, themes };
  }, [app]);
  const library = useLoad(load, "the templates");
  return (
    <>
      <EmailsHeading title={`Compose an email · ${project.displayName}`} projectId={project.id}>
        <p className="muted">Send a template or your own HTML to chosen users, a team or everyone. Each email is in the sent log.</p>
      </EmailsHeading>
      <Loaded value={library.value} error={library.error} what="the templates">
        {({ templates, themes }) => <Composer templates={templates} themes={themes} />}
      </Loaded>
    </>
  );
}

type FieldErrors = Partial<Record<"recipients" | "template" | "html" | "variables" | "subject", string>>;

function Composer(props: {
  templates: { id: string; displayName: string; tsxSource: string }[];
  themes: { id: string; displayName: string }[];
}) {
  const { project, toast } = useProject();
  const app = project.app;
  const id = useId();
  const [recipients, setRecipients] = useState<Recipients>({ kind: "users", users: [] });
  const [body, setBody] = useState<"template" | "html">("template");
  const [templateId, setTemplateId] = useState("");
  const [variables, setVariables] = useState("{}");
  const [html, setHtml] = useState("");
  const [subject, setSubject] = useState("");
  const [category, setCategory] = useState<(typeof CATEGORIES)[number]["name"]>("Transactional");
  const [theme, setTheme] = useState<EmailThemeChoice>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [results, setResults] = useState<SendEmailResult[] | null>(null);
  const recipientRef = useRef<HTMLInputElement | HTMLSelectElement | null>(null);
  const templateRef = useRef<HTMLSelectElement>(null);
  const htmlRef = useRef<HTMLTextAreaElement>(null);
  const variablesRef = useRef<HTMLDivElement>(null);
  const subjectRef = useRef<HTMLInputElement>(null);

  // A chosen template starts with its preview variables, so the first send renders.
  const chooseTemplate = (id: string) => {
    setTemplateId(id);
    const t = props.templates.find((x) => x.id === id);
    setVariables(t ? previewVariablesOf(t.tsxSource) : "{}");
  };

  const parsed = parseVariables(variables);
  const options = useMemo((): EmailPreviewOptions | null => {
    if (body === "html") return html.trim() ? { templateTsxSource: htmlTemplateSource(html), themeId: theme } : null;
    return templateId && parsed.ok ? { templateId, themeId: theme, variables: parsed.value } : null;
  }, [body, html, templateId, variables, theme]);

  const validate = (): FieldErrors => {
    const e: FieldErrors = {};
    const r = recipientsProblem(recipients);
    if (r) e.recipients = r;
    if (body === "template") {
      if (!templateId) e.template = "Choose a template.";
      if (!parsed.ok) e.variables = parsed.message;
    } else if (!html.trim()) e.html = "Write the email's HTML.";
    if (body === "html" && !subject.trim()) e.subject = "An HTML email needs a subject.";
    return e;
  };

  const prepare = async () => {
    const e = validate();
    setErrors(e);
    const first = e.recipients
      ? recipientRef.current
      : e.template
        ? templateRef.current
        : e.html
          ? htmlRef.current
          : e.variables
            ? variablesRef.current?.querySelector("textarea")
            : e.subject
              ? subjectRef.current
              : null;
    if (first) {
      first.focus();
      return null;
    }
    return resolveRecipients(app, recipients);
  };

  const send = async (r: Awaited<ReturnType<typeof resolveRecipients>>) => {
    const common = { ...r.target, themeId: theme, subject: subject.trim() || undefined, notificationCategoryName: category };
    const sent =
      body === "html"
        ? await app.sendEmail({ ...common, html })
        : await app.sendEmail({ ...common, templateId, variables: parsed.ok ? parsed.value : {} });
    setResults(sent);
    const delivered = sent.filter((x) => x.status === "sent" || x.status === "queued").length;
    toast(`Email sent to ${delivered} of ${sent.length} users.`);
  };

  const names = new Map(recipients.kind === "users" ? recipients.users.map((u) => [u.id, u.label]) : []);
  return (
    <>
      <div className="email-workbench">
        <section className="panel email-workbench-edit" aria-labelledby={`${id}-title`}>
          <h2 id={`${id}-title`}>Email</h2>
          <div className="form">
            <ServerNotice project={project} />
            <RecipientPicker
              id={`${id}-to`}
              app={app}
              value={recipients}
              onChange={(v) => {
                setRecipients(v);
                setErrors((x) => ({ ...x, recipients: undefined }));
              }}
              error={errors.recipients}
              focusRef={recipientRef}
            />
            <fieldset className="field">
              <legend>Content</legend>
              <div className="inline">
                <label className="inline">
                  <input type="radio" name={`${id}-body`} checked={body === "template"} onChange={() => setBody("template")} /> A template
                </label>
                <label className="inline">
                  <input type="radio" name={`${id}-body`} checked={body === "html"} onChange={() => setBody("html")} /> My own HTML
                </label>
              </div>
            </fieldset>
            {body === "template" ? (
              <>
                <div className="field">
                  <label htmlFor={`${id}-template`}>Template</label>
                  <select
                    id={`${id}-template`}
                    ref={templateRef}
                    className="input"
                    value={templateId}
                    onChange={(e) => chooseTemplate(e.target.value)}
                    aria-invalid={errors.template ? true : undefined}
                    aria-describedby={errors.template ? `${id}-template-error` : undefined}
                  >
                    <option value="">Choose a template</option>
                    {props.templates.map((t) => (
                      <option key={t.id} value={t.id}>
                        {templateName(t)}
                      </option>
                    ))}
                  </select>
                  {errors.template ? (
                    <p className="field-error" id={`${id}-template-error`}>
                      {errors.template}
                    </p>
                  ) : null}
                </div>
                <div ref={variablesRef}>
                  <VariablesField
                    id={`${id}-vars`}
                    value={variables}
                    onChange={setVariables}
                    hint="Sent to the template for every user; it starts with the template's preview values."
                  />
                </div>
              </>
            ) : (
              <div className="field">
                <label htmlFor={`${id}-html`}>Email HTML</label>
                <textarea
                  id={`${id}-html`}
                  ref={htmlRef}
                  className="input code-textarea"
                  rows={10}
                  spellCheck={false}
                  value={html}
                  onChange={(e) => setHtml(e.target.value)}
                  aria-invalid={errors.html ? true : undefined}
                  aria-describedby={errors.html ? `${id}-html-error` : undefined}
                />
                {errors.html ? (
                  <p className="field-error" id={`${id}-html-error`}>
                    {errors.html}
                  </p>
                ) : null}
              </div>
            )}
            <div className="field">
              <label htmlFor={`${id}-subject`}>{body === "html" ? "Subject" : "Subject (optional)"}</label>
              <input
                id={`${id}-subject`}
                ref={subjectRef}
                className="input"
                value={subject}
                maxLength={998}
                onChange={(e) => setSubject(e.target.value)}
                aria-invalid={errors.subject ? true : undefined}
                aria-describedby={`${id}-subject-hint${errors.subject ? ` ${id}-subject-error` : ""}`}
              />
              <p className="muted" id={`${id}-subject-hint`}>
                {body === "html" ? "The subject line users see." : "Leave empty to use the template's own subject."}
              </p>
              {errors.subject ? (
                <p className="field-error" id={`${id}-subject-error`}>
                  {errors.subject}
                </p>
              ) : null}
            </div>
            <ThemePicker id={`${id}-theme`} themes={props.themes} value={theme} onChange={setTheme} />
            <fieldset className="field">
              <legend>Kind of email</legend>
              {CATEGORIES.map((c) => (
                <label key={c.name} className="inline">
                  <input type="radio" name={`${id}-category`} checked={category === c.name} onChange={() => setCategory(c.name)} />
                  <span>
                    {c.name} <span className="muted">· {c.hint}</span>
                  </span>
                </label>
              ))}
            </fieldset>
            <SendButton label="Send…" prepare={prepare} send={send} />
          </div>
        </section>
        <section className="panel email-workbench-preview" aria-label="Email preview">
          {options ? (
            <EmailPreview app={app} options={options} subjectOverride={subject.trim() || undefined} />
          ) : (
            <>
              <h2>Preview</h2>
              <p className="muted">{body === "html" ? "Write some HTML to see it here." : "Choose a template to see it here."}</p>
            </>
          )}
        </section>
      </div>
      {results ? <SendResults projectId={project.id} results={results} names={names} /> : null}
    </>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
