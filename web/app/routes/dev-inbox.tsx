/**
 * `/dev-inbox` (development only): the signed-in owner's own mail, the messages the console's own
 * project (internal) sent to their address through the dev outbox, such as the sign-up
 * verification email. A brand-new local owner owns no project yet, so this is where they read it;
 * `npm start` prints its URL. Signed-out visitors are sent to sign-in (and back).
 */

import type { DevInboxMessage } from "@doorman/sdk";
import { useUser } from "@doorman/sdk/react";
import type { MetaFunction } from "@remix-run/cloudflare";
import { useCallback } from "react";
import { Loaded } from "../components/console-ui";
import { DashboardShell } from "../components/dashboard-shell";
import { DevInboxMessages } from "../components/emails/dev-inbox-messages";
import { RouteError } from "../components/route-error";
import type { OwnerUser } from "../lib/dashboard-types";
import { useLoad } from "../lib/use-load";

export const meta: MetaFunction = () => [{ title: "Your dev inbox · Doorman" }];

export default function OwnDevInboxRoute() {
  return (
    <DashboardShell>
      <OwnDevInbox />
    </DashboardShell>
  );
}

type Inbox = { messages: DevInboxMessage[] } | { unavailable: true };

function OwnDevInbox() {
  const user = useUser({ or: "redirect" }) as OwnerUser;
  const load = useCallback(async (): Promise<Inbox> => {
    const messages = await user.listDevInbox();
    return messages ? { messages } : { unavailable: true };
  }, [user]);
  const inbox = useLoad(load, "your dev inbox");
  return (
    <>
      <div className="page-heading">
        <h1>Your dev inbox</h1>
        <p className="muted">
          Development only: the emails Doorman sent to {user.primaryEmail ?? "you"} in the last hour, such as the link that verifies your
          address. Your projects' emails are on each project's Emails page.
        </p>
      </div>
      <section className="panel" aria-labelledby="own-inbox-heading">
        <div className="panel-heading">
          <h2 id="own-inbox-heading">Messages</h2>
          <button type="button" className="btn btn-secondary btn-small" onClick={() => void inbox.reload()}>
            Refresh
          </button>
        </div>
        <Loaded value={inbox.value} error={inbox.error} what="your dev inbox">
          {(value) =>
            "unavailable" in value ? (
              <p>The dev inbox exists only on a development worker (npm start). Your emails went to your mailbox.</p>
            ) : (
              <DevInboxMessages
                messages={value.messages}
                empty={
                  user.primaryEmailVerified
                    ? "No messages in the last hour. Your email address is verified."
                    : "No messages in the last hour. Send a new verification email from Account settings."
                }
              />
            )
          }
        </Loaded>
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
