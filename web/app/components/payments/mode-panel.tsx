/**
 * The Mode and Stripe sections of the Payments page: test mode on or off (`payments.testMode`),
 * and the project's connected Stripe account (Connect onboarding state), with "Set up payments"
 * opening Stripe's onboarding when no account is connected yet.
 */
import { useEffect, useState } from "react";
import type { OwnedProject } from "../../lib/dashboard-types";
import { errorMessage } from "../../lib/project-context";
import { Alert, useAction } from "../console-ui";

type StripeInfo = Awaited<ReturnType<OwnedProject["app"]["getStripeAccountInfo"]>>;

export function ModePanel(props: { testMode: boolean; onChange: (testMode: boolean) => Promise<void> }) {
  const { busy, error: failure, run } = useAction();
  const toggle = (testMode: boolean) => run(() => props.onChange(testMode), "Could not change the mode.");
  return (
    <section className="panel" aria-labelledby="payments-mode-title">
      <h2 id="payments-mode-title">
        Mode {props.testMode ? <span className="badge badge-dev">Test mode</span> : <span className="badge">Live</span>}
      </h2>
      <div className="config-toggle">
        <input
          id="payments-test-mode"
          type="checkbox"
          checked={props.testMode}
          disabled={busy}
          aria-busy={busy}
          aria-describedby="payments-test-mode-hint"
          onChange={(e) => toggle(e.target.checked)}
        />
        <div className="config-toggle-text">
          <label htmlFor="payments-test-mode">Test mode</label>
          <p className="muted" id="payments-test-mode-hint">
            {props.testMode
              ? "Purchase pages take the test card 4242 4242 4242 4242 and grant items as a real payment would. No money moves."
              : "Purchase pages send customers to Stripe Checkout on your connected account. Real cards are charged."}
          </p>
        </div>
      </div>
      {busy ? (
        <p className="muted" role="status">
          Saving…
        </p>
      ) : null}
      <Alert message={failure} focus />
    </section>
  );
}

export function StripePanel({ project }: { project: OwnedProject }) {
  const [info, setInfo] = useState<StripeInfo | undefined>(undefined);
  const [loadError, setLoadError] = useState<string | null>(null);
  const { busy, error: failure, run } = useAction();

  useEffect(() => {
    let live = true;
    project.app
      .getStripeAccountInfo()
      .then((found) => live && setInfo(found))
      .catch((e: unknown) => live && setLoadError(errorMessage(e, "Could not read the Stripe account.")));
    return () => {
      live = false;
    };
  }, [project]);

  const setUp = () =>
    run(async () => {
      const { url } = await project.app.setupPayments();
      window.location.assign(url);
      // The browser is leaving for Stripe: the button stays busy until the page goes.
      await new Promise<never>(() => {});
    }, "Could not start the Stripe setup.");

  const state = (on: boolean) => (on ? <span className="check-done">Enabled</span> : <span className="check-todo">Not yet</span>);

  return (
    <section className="panel" aria-labelledby="payments-stripe-title">
      <h2 id="payments-stripe-title">Stripe</h2>
      {loadError ? (
        <p className="alert" role="alert">
          {loadError}
        </p>
      ) : info === undefined ? (
        <p className="muted" role="status">
          Loading the Stripe account…
        </p>
      ) : info === null ? (
        <>
          <p>
            <strong>Not connected.</strong> <span className="muted">Live mode needs a Stripe account to take payments.</span>
          </p>
          <Alert message={failure} focus />
          <div className="form-actions">
            <button type="button" className="btn" onClick={setUp} disabled={busy} aria-busy={busy}>
              {busy ? "Opening Stripe…" : "Set up payments"}
            </button>
          </div>
        </>
      ) : (
        <>
          <dl className="payments-facts">
            <dt>Account</dt>
            <dd>
              <code>{info.accountId}</code>
            </dd>
            <dt>Details submitted</dt>
            <dd>{info.detailsSubmitted ? <span className="check-done">Yes</span> : <span className="check-todo">No</span>}</dd>
            <dt>Charges</dt>
            <dd>{state(info.chargesEnabled)}</dd>
            <dt>Payouts</dt>
            <dd>{state(info.payoutsEnabled)}</dd>
          </dl>
          {info.chargesEnabled && info.payoutsEnabled ? null : (
            <>
              <Alert message={failure} focus />
              <div className="form-actions">
                <button type="button" className="btn btn-secondary" onClick={setUp} disabled={busy} aria-busy={busy}>
                  {busy ? "Opening Stripe…" : "Continue the Stripe setup"}
                </button>
              </div>
            </>
          )}
        </>
      )}
    </section>
  );
}
