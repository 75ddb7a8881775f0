/**
 * `/projects/:projectId/users`: the project's users, a page at a time (cursor pagination),
 * searchable by email, name or id, sorted by sign-up date, name or email (either way), with
 * anonymous and restricted users on request; and the "Create a user" form. Search, filter, order and page live in the URL.
 */

import type { ListUsersOptions } from "@doorman/sdk";
import type { MetaFunction } from "@remix-run/cloudflare";
import { useSearchParams } from "@remix-run/react";
import { type FormEvent, useCallback, useEffect, useId, useState } from "react";
import { PageHeading } from "../components/console-ui";
import { RouteError } from "../components/route-error";
import { CreateUserForm, type NewUser } from "../components/users/create-user-form";
import { UserTable } from "../components/users/user-table";
import { useProject } from "../lib/project-context";
import { useLoad } from "../lib/use-load";

export const meta: MetaFunction = () => [{ title: "Users · Doorman" }];

const PAGE_SIZE = 25;

/** The "Show" filter: which kinds of users the list includes (the API's list flags). */
const SHOW: Record<string, { label: string; options: ListUsersOptions }> = {
  users: { label: "Signed-up users", options: {} },
  restricted: { label: "Also restricted users", options: { includeRestricted: true } },
  all: { label: "Also anonymous and restricted users", options: { includeAnonymous: true } },
  anonymous: { label: "Only anonymous users", options: { onlyAnonymous: true } },
};

/** The "Sort by" choices (the `sort` URL value; "" is the default, newest first). */
const SORTS: Record<string, { label: string; orderBy: NonNullable<ListUsersOptions["orderBy"]>; desc: boolean }> = {
  "": { label: "Newest first", orderBy: "signedUpAt", desc: true },
  oldest: { label: "Oldest first", orderBy: "signedUpAt", desc: false },
  name: { label: "Name, A to Z", orderBy: "displayName", desc: false },
  "name-desc": { label: "Name, Z to A", orderBy: "displayName", desc: true },
  email: { label: "Email, A to Z", orderBy: "primaryEmail", desc: false },
  "email-desc": { label: "Email, Z to A", orderBy: "primaryEmail", desc: true },
};

export default function ProjectUsersRoute() {
  return <ProjectUsers />;
}

function ProjectUsers() {
  const { project, toast } = useProject();
  const id = useId();
  const [params, setParams] = useSearchParams();
  const query = params.get("q") ?? "";
  const show = params.get("show") && Object.hasOwn(SHOW, params.get("show") ?? "") ? (params.get("show") as string) : "users";
  const sort = Object.hasOwn(SORTS, params.get("sort") ?? "") ? (params.get("sort") ?? "") : "";
  const cursor = params.get("cursor") ?? "";
  const [draft, setDraft] = useState(query);
  // Cursors of the pages before this one ("" is the first page), for "Previous page".
  const [trail, setTrail] = useState<string[]>([]);

  useEffect(() => setDraft(query), [query]);

  const load = useCallback(
    () =>
      project.app.listUsers({
        limit: PAGE_SIZE,
        cursor: cursor || undefined,
        orderBy: SORTS[sort]?.orderBy,
        desc: SORTS[sort]?.desc,
        query: query || undefined,
        ...SHOW[show]?.options,
      }),
    [project, cursor, sort, query, show],
  );
  const page = useLoad(load, "the users");

  const navigate = (change: Record<string, string>, keepTrail = false) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries({ cursor: "", ...change })) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    if (!keepTrail) setTrail([]);
    setParams(next, { preventScrollReset: true });
  };

  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    navigate({ q: draft.trim() });
  };

  const onCreate = async (user: NewUser) => {
    const created = await project.app.createUser({
      primaryEmail: user.email,
      primaryEmailVerified: user.emailVerified,
      primaryEmailAuthEnabled: true,
      ...(user.password ? { password: user.password } : {}),
      ...(user.displayName ? { displayName: user.displayName } : {}),
    });
    toast(`User ${created.primaryEmail} created.`);
    await page.reload();
  };

  const users = page.value;
  return (
    <>
      <PageHeading title={`Users · ${project.displayName}`}>
        <p className="muted">Everyone who signed up to this project. Open a user to edit, impersonate or delete them.</p>
      </PageHeading>
      <div className="user-stack">
        <section className="panel" aria-labelledby={`${id}-list`}>
          <h2 id={`${id}-list`} className="visually-hidden">
            User list
          </h2>
          <form className="user-filters" aria-label="Search and filter users" onSubmit={onSearch}>
            <div className="field user-search">
              <label htmlFor={`${id}-q`}>Search by email, name or id</label>
              <div className="inline">
                <input id={`${id}-q`} className="input" type="search" value={draft} onChange={(e) => setDraft(e.target.value)} />
                <button type="submit" className="btn btn-secondary">
                  Search
                </button>
              </div>
            </div>
            <div className="field">
              <label htmlFor={`${id}-show`}>Show</label>
              <select
                id={`${id}-show`}
                className="input"
                value={show}
                onChange={(e) => navigate({ show: e.target.value === "users" ? "" : e.target.value })}
              >
                {Object.entries(SHOW).map(([value, { label }]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor={`${id}-sort`}>Sort by</label>
              <select id={`${id}-sort`} className="input" value={sort} onChange={(e) => navigate({ sort: e.target.value })}>
                {Object.entries(SORTS).map(([value, { label }]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            </div>
          </form>
          {page.error ? (
            <p className="alert" role="alert">
              {page.error}
            </p>
          ) : users === null ? (
            <p className="muted" role="status">
              Loading users…
            </p>
          ) : (
            <>
              <p className="muted" role="status">
                {users.length === 0
                  ? query
                    ? `No user matches “${query}”.`
                    : "No users here yet."
                  : `${users.length} user${users.length === 1 ? "" : "s"} on this page${query ? ` matching “${query}”` : ""}.`}
              </p>
              {users.length ? <UserTable projectId={project.id} users={users} /> : null}
              <nav className="pager" aria-label="Pages of users">
                <button
                  type="button"
                  className="btn btn-secondary btn-small"
                  disabled={!cursor}
                  onClick={() => {
                    const previous = trail.at(-1) ?? "";
                    setTrail((t) => t.slice(0, -1));
                    navigate({ cursor: previous }, true);
                  }}
                >
                  {trail.length || !cursor ? "Previous page" : "First page"}
                </button>
                <button
                  type="button"
                  className="btn btn-secondary btn-small"
                  disabled={!users.nextCursor}
                  onClick={() => {
                    setTrail((t) => [...t, cursor]);
                    navigate({ cursor: users.nextCursor ?? "" }, true);
                  }}
                >
                  Next page
                </button>
              </nav>
            </>
          )}
        </section>
        <CreateUserForm onCreate={onCreate} />
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
