/** One page of the users list: each row links to the user's detail page. */

import type { ServerUser } from "@doorman/sdk";
import { Link } from "@remix-run/react";
import { formatDateTime } from "../../lib/format";
import { DataTable, IdText } from "../data-table";

/** What a user is called in the console: the display name, else the email, else the kind of user. */
export function userLabel(user: Pick<ServerUser, "displayName" | "primaryEmail" | "isAnonymous">): string {
  return user.displayName || user.primaryEmail || (user.isAnonymous ? "Anonymous user" : "User without email");
}

/** Short badges for the user's state: anonymous, restricted (with why), unverified email. */
export function UserBadges({ user }: { user: ServerUser }) {
  return (
    <span className="user-badges">
      {user.isAnonymous ? <span className="badge badge-dev">anonymous</span> : null}
      {user.isRestricted && !user.isAnonymous ? (
        <span className="badge badge-warn">
          restricted
          {user.restrictedReason?.type === "email_not_verified" ? ": email not verified" : user.restrictedByAdmin ? " by admin" : ""}
        </span>
      ) : null}
      {user.primaryEmail && !user.primaryEmailVerified ? <span className="badge badge-muted">unverified</span> : null}
    </span>
  );
}

const COLUMNS = ["User", "Status", "Signed up", "Id"];

/** The users of a page; below 560 px each user is a card (DataTable's `stack`), the id on one line. */
export function UserTable({ projectId, users }: { projectId: string; users: ServerUser[] }) {
  return (
    <DataTable className="user-table" stack={COLUMNS}>
      <thead>
        <tr>
          {COLUMNS.map((c) => (
            <th key={c} scope="col">
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {users.map((user) => (
          <tr key={user.id}>
            <td>
              <Link to={`/projects/${projectId}/users/${user.id}`}>{userLabel(user)}</Link>
              {user.displayName && user.primaryEmail ? <div className="muted">{user.primaryEmail}</div> : null}
            </td>
            <td>
              <UserBadges user={user} />
            </td>
            <td>{formatDateTime(user.signedUpAt)}</td>
            <td>
              <IdText id={user.id} className="user-id" />
            </td>
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}
