/**
 * On the owner's projects page of a development worker, while their address is unverified: the
 * verification email is in their dev inbox (/dev-inbox), since nothing is mailed locally.
 */
import { useEffect, useState } from "react";
import type { OwnerUser } from "../lib/dashboard-types";

export function VerifyEmailNotice({ user }: { user: OwnerUser }) {
  const [count, setCount] = useState<number | null>(null);
  useEffect(() => {
    if (user.primaryEmailVerified) return;
    let live = true;
    user.listDevInbox().then(
      (list) => live && setCount(list ? list.length : null),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [user]);
  if (user.primaryEmailVerified || count === null) return null;
  return (
    <section className="panel dev-inbox-callout" aria-labelledby="verify-notice-heading">
      <h2 id="verify-notice-heading">Verify your email address</h2>
      <p>
        This is a development worker, so no email leaves this machine. Your verification email
        {count > 0 ? " is" : " will be"} in your dev inbox.
      </p>
      <p>
        <a className="btn" href="/dev-inbox">
          Open your dev inbox
        </a>
      </p>
    </section>
  );
}
