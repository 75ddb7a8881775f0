/**
 * `/projects/{id}/emails/drafts/{draftId}`: a draft's name, theme and TSX in the code editor with
 * the live preview, and sending it to chosen users, a team or all users, with per-user results.
 */

import type { EmailDraft, EmailThemeChoice, SendEmailResult } from "@doorman/sdk";
import type { MetaFunction } from "@remix-run/cloudflare";
import { Link, useParams } from "@remix-run/react";
import { useCallback, useId, useMemo, useRef, useState } from "react";
import { Loaded, PageHeading, TextField, useAction } from "../components/console-ui";
import { EmailPreview } from "../components/emails/email-preview";
import { EmailsNav } from "../components/emails/emails-nav";
import { RecipientPicker, type Recipients, recipientsProblem, resolveRecipients } from "../components/emails/recipient-picker";
import { type RenderProblem, renderProblem } from "../components/emails/render-error";
import { SaveBar } from "../components/emails/save-bar";
import { SendButton, SendResults } from "../components/emails/send-panel";
import { ServerNotice } from "../components/emails/server-notice";
import { SourceField } from "../components/emails/source-field";
import { ThemePicker } from "../components/emails/theme-picker";
import { RouteError } from "../components/route-error";
import { formatDateTime } from "../lib/format";
import { errorMessage, useProject } from "../lib/project-context";
import { useLoad } from "../lib/use-load";

export const meta: MetaFunction = () => [{ title: "Email draft · Doorman" }];

export default function EmailDraftRoute() {
  const { project } = useProject();
  const { draftId = "" } = useParams();
  const app = project.app;
  const load = useCallback(async () => {
    const [draft, themes] = await Promise.all([app.getEmailDraft(draftId), app.listEmailThemes()]);
    return { draft, themes };
  }, [app, draftId]);
  const loaded = useLoad(load, "the draft");
  return (
    <>
      <p>
        <Link to={`/projects/${project.id}/emails/drafts`}>← Drafts</Link>
      </p>
      <Loaded value={loaded.value} error={loaded.error} what="the draft">
        {({ draft, themes }) => <DraftEditor key={draft.id} draft={draft} themes={themes} />}
      </Loaded>
    </>
  );
}

function DraftEditor(props: { draft: EmailDraft; themes: { id: string; displayName: string }[] }) {
  const { project, toast } = useProject();
  const app = project.app;
  const id = useId();
  const { draft } = props;
  const [name, setName] = useState(draft.displayName);
  const [nameError, setNameError] = useState<string | null>(null);
  const [theme, setTheme] = useState<EmailThemeChoice>(draft.themeId ?? null);
  const [source, setSource] = useState(draft.tsxSource);
  const [problem, setProblem] = useState<RenderProblem | null>(null);
  const [saved, setSaved] = useState<{ name: string; theme: EmailThemeChoice; source: string }>({
    name: draft.displayName,
    theme: draft.themeId ?? null,
    source: draft.tsxSource,
  });
  const [sentAt, setSentAt] = useState(draft.sentAt);
  const save = useAction();
  const nameRef = useRef<HTMLInputElement>(null);
  const [recipients, setRecipients] = useState<Recipients>({ kind: "users", users: [] });
  const [recipientError, setRecipientError] = useState<string | null>(null);
  const recipientRef = useRef<HTMLInputElement | HTMLSelectElement | null>(null);
  const [subject, setSubject] = useState("");
  const [results, setResults] = useState<SendEmailResult[] | null>(null);

  const options = useMemo(() => ({ templateTsxSource: source, themeId: theme }), [source, theme]);
  const dirty = name !== saved.name || theme !== saved.theme || source !== saved.source;

  /** Saves the draft; false (with the name or the error focused) when it could not. */
  const persist = async (): Promise<boolean> => {
    if (!name.trim()) {
      setNameError("Name the draft.");
      nameRef.current?.focus();
      return false;
    }
    setNameError(null);
    const ok = await save.run(async () => {
      try {
        await app.updateEmailDraft(draft.id, { displayName: name.trim(), themeId: theme, tsxSource: source });
      } catch (e) {
        setProblem(renderProblem(errorMessage(e, "Could not save the draft.")));
        throw e;
      }
    }, "Could not save the draft.");
    if (ok) setSaved({ name: name.trim(), theme, source });
    return ok;
  };

  const onSave = async () => {
    if (await persist()) toast("Draft saved.");
  };

  const prepare = async () => {
    const problemText = recipientsProblem(recipients);
    setRecipientError(problemText);
    if (problemText) {
      recipientRef.current?.focus();
      return null;
    }
    if (dirty && !(await persist())) return null;
    return resolveRecipients(app, recipients);
  };

  const names = new Map(recipients.kind === "users" ? recipients.users.map((u) => [u.id, u.label]) : []);
  return (
    <>
      <PageHeading title={`Draft: ${saved.name}`}>
        <p className="muted">{sentAt ? `Last sent ${formatDateTime(sentAt)}.` : "Not sent yet."}</p>
      </PageHeading>
      <EmailsNav projectId={project.id} />
      <div className="email-workbench">
        <section className="panel email-workbench-edit" aria-labelledby={`${id}-edit`}>
          <h2 id={`${id}-edit`}>Draft</h2>
          <div className="form">
            <TextField
              id={`${id}-name`}
              label="Draft name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              error={nameError}
              inputRef={nameRef}
              maxLength={256}
            />
            <ThemePicker id={`${id}-theme`} themes={props.themes} value={theme} onChange={setTheme} />
            <SourceField
              id={`${id}-source`}
              label="Draft source (TSX)"
              value={source}
              onChange={setSource}
              problem={problem}
              file="template"
            />
            <SaveBar noun="draft" error={save.error} busy={save.busy} dirty={dirty} onSave={onSave} />
          </div>
        </section>
        <section className="panel email-workbench-preview" aria-label="Draft preview">
          <EmailPreview app={app} options={options} onProblem={setProblem} />
        </section>
      </div>
      <section className="panel" aria-labelledby={`${id}-send`}>
        <h2 id={`${id}-send`}>Send this draft</h2>
        <div className="form">
          <ServerNotice project={project} />
          <RecipientPicker
            id={`${id}-to`}
            app={app}
            value={recipients}
            onChange={(r) => {
              setRecipients(r);
              setRecipientError(null);
            }}
            error={recipientError}
            focusRef={recipientRef}
          />
          <TextField
            id={`${id}-subject`}
            label="Subject (optional)"
            hint="Leave empty to use the subject written in the draft."
            value={subject}
            onChange={(e) => setSubject(e.target.value)}
            maxLength={998}
          />
          <SendButton
            label="Send draft…"
            prepare={prepare}
            send={async (r) => {
              const sent = await app.sendEmail({ ...r.target, draftId: draft.id, subject: subject.trim() || undefined });
              setResults(sent);
              setSentAt(new Date());
              toast(`Draft sent: ${sent.filter((x) => x.status === "sent" || x.status === "queued").length} of ${sent.length} users.`);
            }}
          />
        </div>
      </section>
      {results ? <SendResults projectId={project.id} results={results} names={names} /> : null}
    </>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
