/**
 * "Sign out all users" (ASVS 7.4.5): ends every session of every user of the project
 * (DELETE /internal/projects/current/sessions), behind a confirmation that says what happens.
 * The owners' own console sessions belong to the internal project and are not touched.
 */
import { useProject } from "../../lib/project-context";
import { ConfirmButton } from "../console-ui";

export function SignOutAllPanel() {
  const { project, toast } = useProject();
  return (
    <section className="panel danger-zone" aria-labelledby="sign-out-all-heading">
      <h2 id="sign-out-all-heading">Sign out all users</h2>
      <p className="muted">
        Ends every session of every user of this project, for example after a suspected leak. Your own console session stays signed in.
      </p>
      <ConfirmButton
        label="Sign out all users"
        title={`Sign out every user of ${project.displayName}?`}
        consequence="Every session of every user of this project ends now: their access tokens stop working at their next request and their refresh tokens no longer refresh. Users keep their accounts and can sign in again."
        confirmLabel="Sign out all users"
        onConfirm={async () => {
          const { endedSessionCount } = await project.app.revokeAllProjectSessions();
          toast(`Signed out all users (${endedSessionCount} ${endedSessionCount === 1 ? "session" : "sessions"} ended).`);
        }}
      />
    </section>
  );
}
