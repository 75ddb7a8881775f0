/**
 * `/projects/:projectId/users/:userId`: one user: profile, metadata (JSON editors), contact
 * channels, sessions (revoke, impersonate), teams, project permissions, OAuth accounts, passkey
 * and two-factor resets, restricting by an admin, and delete.
 */

import type { ServerUser, ServerUserUpdateOptions } from "@doorman/sdk";
import type { MetaFunction } from "@remix-run/cloudflare";
import { Link, useNavigate, useParams } from "@remix-run/react";
import { useCallback, useEffect, useMemo, useState } from "react";
import { ConfirmButton, PageHeading } from "../components/console-ui";
import { EventList } from "../components/events/event-list";
import { RouteError } from "../components/route-error";
import { ContactChannelsPanel } from "../components/users/contact-channels-panel";
import { MetadataPanel } from "../components/users/metadata-panel";
import { OAuthAccountsPanel } from "../components/users/oauth-accounts-panel";
import { ProfilePanel } from "../components/users/profile-panel";
import { ProjectPermissionsPanel } from "../components/users/project-permissions-panel";
import { RestrictionPanel } from "../components/users/restriction-panel";
import { SecurityPanel } from "../components/users/security-panel";
import { SessionsPanel } from "../components/users/sessions-panel";
import { UserBadges, userLabel } from "../components/users/user-table";
import { UserTeamsPanel } from "../components/users/user-teams-panel";
import { errorMessage, useProject } from "../lib/project-context";

export const meta: MetaFunction = () => [{ title: "User · Doorman" }];

export default function ProjectUserRoute() {
  return <ProjectUser />;
}

function ProjectUser() {
  const { project, toast } = useProject();
  const { userId = "" } = useParams();
  const navigate = useNavigate();
  // `handle` is the first loaded user: the panels call its methods (which need only the id), so
  // re-reading the fields after a save does not reload every panel.
  const [handle, setHandle] = useState<ServerUser | null | "missing">(null);
  const [user, setUser] = useState<ServerUser | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Bumped on every reload of the user, so the events panel shows what a save just recorded.
  const [version, setVersion] = useState(0);
  const userFilter = useMemo(() => ({ userId }), [userId]);

  const reloadUser = useCallback(async () => {
    const fresh = await project.app.getUser(userId);
    setUser(fresh);
    setVersion((v) => v + 1);
    return fresh;
  }, [project, userId]);

  useEffect(() => {
    setHandle(null);
    setError(null);
    reloadUser()
      .then((fresh) => setHandle(fresh ?? "missing"))
      .catch((e: unknown) => setError(errorMessage(e, "Could not load the user.")));
  }, [reloadUser]);

  const usersPath = `/projects/${project.id}/users`;
  if (error)
    return (
      <p className="alert" role="alert">
        {error}
      </p>
    );
  if (handle === "missing")
    return (
      <>
        <PageHeading title="User not found">
          <p>This user does not exist in {project.displayName}; they may have been deleted.</p>
        </PageHeading>
        <Link className="btn btn-secondary" to={usersPath}>
          Back to the users
        </Link>
      </>
    );
  if (handle === null || user === null)
    return (
      <p className="muted" role="status">
        Loading the user…
      </p>
    );

  const label = userLabel(user);
  const refresh = async () => {
    await reloadUser();
  };
  const save = async (update: ServerUserUpdateOptions, message: string) => {
    await user.update(update);
    await reloadUser();
    toast(message);
  };

  return (
    <>
      <p className="back-link">
        <Link to={usersPath}>← Users</Link>
      </p>
      <PageHeading title={`User · ${label}`}>
        <p className="muted">
          {user.primaryEmail && user.primaryEmail !== label ? `${user.primaryEmail} ` : ""}
          <UserBadges user={user} />
        </p>
      </PageHeading>
      <div className="user-stack">
        {/* Keyed on the stored values: a change elsewhere (e.g. an email marked verified) resets the form. */}
        <ProfilePanel
          key={`${user.displayName}\n${user.primaryEmail}\n${user.primaryEmailVerified}`}
          user={user}
          onSave={(update) => save(update, "Profile saved.")}
        />
        <MetadataPanel
          user={user}
          onSave={(kind, value, kindLabel) => save({ [kind]: value } as ServerUserUpdateOptions, `${kindLabel} saved.`)}
        />
        <ContactChannelsPanel user={handle} toast={toast} onChange={refresh} />
        <SessionsPanel project={project} user={handle} label={label} toast={toast} />
        <UserTeamsPanel app={project.app} projectId={project.id} user={user} />
        <ProjectPermissionsPanel app={project.app} projectId={project.id} user={handle} label={label} toast={toast} />
        <OAuthAccountsPanel user={handle} label={label} toast={toast} onChange={refresh} />
        <SecurityPanel
          user={user}
          label={label}
          onReset={(what) =>
            what === "passkey"
              ? save({ passkeyAuthEnabled: false }, "Passkey sign-in turned off.")
              : save({ totpMultiFactorSecret: null }, "Two-factor reset.")
          }
        />
        <RestrictionPanel
          key={`${user.restrictedByAdmin}\n${user.restrictedByAdminReason}\n${user.restrictedByAdminPrivateDetails}`}
          user={user}
          label={label}
          onSave={save}
        />
        <section className="panel" aria-labelledby="user-events-title">
          <h2 id="user-events-title">Events</h2>
          <EventList key={version} project={project} filter={userFilter} pageSize={10} label="Events of this user" />
        </section>
        <section className="panel danger-zone" aria-labelledby="delete-user-title">
          <h2 id="delete-user-title">Delete this user</h2>
          <p className="muted">Deleting cannot be undone.</p>
          <ConfirmButton
            label="Delete user"
            title={`Delete ${label}?`}
            consequence={`${label} is signed out everywhere and removed for good: their emails, password and passkey, linked OAuth accounts, sessions, team memberships, permissions, API keys and metadata. They could only sign up again as a new user.`}
            confirmLabel="Delete user"
            onConfirm={async () => {
              await user.delete();
              toast(`${label} deleted.`);
              navigate(usersPath);
            }}
          />
        </section>
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
