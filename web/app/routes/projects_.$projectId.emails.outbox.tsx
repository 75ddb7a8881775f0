/**
 * `/projects/{id}/emails/outbox`: every email of the project (issue 24) as the queue sees it,
 * newest first, filtered by status and paged by cursor. A row opens its details (attempt errors,
 * render or server error, next retry) with Pause/Unpause, Retry and Cancel; an open email that is
 * still on its way is re-read every few seconds.
 */

import type { AdminEmailOutbox } from "@doorman/sdk";
import type { MetaFunction } from "@remix-run/cloudflare";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { EmailsHeading } from "../components/emails/emails-heading";
import { OutboxDetails } from "../components/emails/outbox-details";
import { EXACT_STATUSES, filterOptions, OUTBOX_FILTERS } from "../components/emails/outbox-status";
import { OutboxTable } from "../components/emails/outbox-table";
import { RouteError } from "../components/route-error";
import { errorMessage, useProject } from "../lib/project-context";

export const meta: MetaFunction = () => [{ title: "Email outbox · Doorman" }];

const PAGE_SIZE = 25;
const POLL_MS = 3000;

export default function EmailOutboxRoute() {
  const { project, toast } = useProject();
  const app = project.app;
  const id = useId();
  const [filter, setFilter] = useState("");
  const [items, setItems] = useState<AdminEmailOutbox[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<AdminEmailOutbox | null>(null);
  const [userEmail, setUserEmail] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const latest = useRef(0);

  const load = useCallback(
    async (after: string | null) => {
      const run = ++latest.current;
      setLoading(true);
      try {
        const page = await app.listOutboxEmails({ ...filterOptions(filter), cursor: after ?? undefined, limit: PAGE_SIZE });
        if (run !== latest.current) return;
        setItems((list) => (after && list ? [...list, ...page.items] : page.items));
        setCursor(page.nextCursor);
        setError(null);
      } catch (e) {
        if (run === latest.current) setError(errorMessage(e, "Could not load the outbox."));
      } finally {
        if (run === latest.current) setLoading(false);
      }
    },
    [app, filter],
  );
  useEffect(() => {
    setItems(null);
    void load(null);
  }, [load]);

  /** A newer copy of one email: in the table and in the details. */
  const replace = useCallback((email: AdminEmailOutbox) => {
    setItems((list) => list?.map((e) => (e.id === email.id ? email : e)) ?? list);
    setOpen((current) => (current?.id === email.id ? email : current));
  }, []);

  const openId = open?.id ?? null;
  const recipientUserId = open && open.to.type !== "custom-emails" ? open.to.userId : null;
  useEffect(() => {
    if (openId) heading.current?.focus();
  }, [openId]);
  useEffect(() => {
    setUserEmail(null);
    if (!recipientUserId) return;
    let live = true;
    app
      .getUser(recipientUserId)
      .then((u) => live && setUserEmail(u?.primaryEmail ?? null))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [app, recipientUserId]);

  // An open email on its way (not paused) is re-read until it is sent, failed or skipped.
  const pending = open !== null && open.simpleStatus === "in-progress" && open.status !== "paused";
  useEffect(() => {
    if (!pending || !openId) return;
    const timer = setInterval(() => {
      app
        .getOutboxEmail(openId)
        .then(replace)
        .catch(() => {});
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [app, openId, pending, replace]);

  const refresh = async () => {
    await load(null);
    if (openId) await app.getOutboxEmail(openId).then(replace, () => {});
  };
  const close = () => {
    const was = openId;
    setOpen(null);
    if (was) document.querySelector<HTMLButtonElement>(`[data-outbox-id="${CSS.escape(was)}"]`)?.focus();
  };

  return (
    <>
      <EmailsHeading title={`Email outbox · ${project.displayName}`} projectId={project.id}>
        <p className="muted">
          Every email of this project, newest first, from queued to sent. Temporary failures are retried with a growing delay; open an email
          to see each attempt, pause it, retry it or cancel it.
        </p>
      </EmailsHeading>
      <section className="panel" aria-labelledby={`${id}-list`}>
        <h2 id={`${id}-list`}>Emails</h2>
        <div className="inline outbox-filter">
          <div className="field">
            <label htmlFor={`${id}-filter`}>Show</label>
            <select id={`${id}-filter`} className="input" value={filter} onChange={(e) => setFilter(e.target.value)}>
              {OUTBOX_FILTERS.map((f) => (
                <option key={f.value} value={f.value}>
                  {f.label}
                </option>
              ))}
              <optgroup label="Exact status">
                {EXACT_STATUSES.map((s) => (
                  <option key={s} value={`status:${s}`}>
                    {s}
                  </option>
                ))}
              </optgroup>
            </select>
          </div>
          <button type="button" className="btn btn-secondary" onClick={() => void refresh()} disabled={loading}>
            {loading ? "Refreshing…" : "Refresh"}
          </button>
        </div>
        {error ? (
          <p className="alert" role="alert">
            {error}
          </p>
        ) : items === null ? (
          <p className="muted" role="status">
            Loading the outbox…
          </p>
        ) : (
          <OutboxTable
            projectId={project.id}
            items={items}
            openId={openId}
            detailsId={`${id}-details`}
            onOpen={setOpen}
            nextCursor={cursor}
            loading={loading}
            onLoadMore={() => void load(cursor)}
          />
        )}
      </section>
      {open ? (
        <OutboxDetails
          key={open.id}
          project={project}
          email={open}
          userEmail={userEmail}
          id={`${id}-details`}
          headingRef={heading}
          onChanged={(email, message) => {
            replace(email);
            toast(message);
          }}
          onClose={close}
        />
      ) : null}
    </>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
