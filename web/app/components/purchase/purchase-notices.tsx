/**
 * The purchase page's end states: a code that cannot be used (unknown, expired, used, a return
 * URL that is not trusted, or the server out of reach), and the success after paying. Their
 * heading takes focus when they replace the form.
 */
import { useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import type { CodeProblem } from "../../lib/purchase-api";

const PROBLEMS: Record<CodeProblem, { title: string; text: string }> = {
  unknown: {
    title: "This purchase link is not valid",
    text: "Check that you opened the whole link. If it still does not work, ask the seller for a new one.",
  },
  expired: { title: "This purchase link has expired", text: "Purchase links work for a limited time. Ask the seller for a new one." },
  used: { title: "This purchase link was already used", text: "The purchase is complete. To buy again, ask the seller for a new link." },
  return_url: {
    title: "This purchase link cannot be opened",
    text: "It asks to return to a site the seller does not trust. Ask the seller for a new link.",
  },
  unavailable: { title: "We could not load this purchase", text: "The server could not be reached. Try again in a moment." },
};

/** A heading focused once when it appears (it replaces the form the user was in). */
function FocusedHeading({ children, focus }: { children: string; focus: boolean }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focus) ref.current?.focus();
  }, [focus]);
  return (
    <h1 ref={ref} tabIndex={-1} className="purchase-title">
      {children}
    </h1>
  );
}

export function CodeProblemCard({ problem }: { problem: CodeProblem }) {
  const location = useLocation();
  const { title, text } = PROBLEMS[problem];
  return (
    <section className="panel purchase-card purchase-problem" aria-labelledby="purchase-problem-title">
      <h1 id="purchase-problem-title" className="purchase-title">
        {title}
      </h1>
      <p className="muted">{text}</p>
      {problem === "unavailable" ? (
        <a className="btn btn-secondary" href={location.pathname + location.search}>
          Try again
        </a>
      ) : null}
    </section>
  );
}

export function PurchaseSuccess(props: { offerName: string; projectName: string; returnUrl: string | null; testMode: boolean }) {
  return (
    <section className="panel purchase-card purchase-success" aria-label="Payment complete">
      <p className="purchase-check" aria-hidden="true">
        ✓
      </p>
      <FocusedHeading focus>Payment complete</FocusedHeading>
      <p role="status">
        {props.offerName} is yours. {props.projectName} has added it to your account.
        {props.testMode ? " This was a test payment: no money moved." : ""}
      </p>
      {props.returnUrl ? (
        <a className="btn" href={props.returnUrl}>
          Back to {props.projectName}
        </a>
      ) : (
        <p className="muted">You can close this page.</p>
      )}
    </section>
  );
}
