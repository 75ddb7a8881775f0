/**
 * `/projects/{id}/protection`: attack protection, config `doorman.protection`: bot protection with
 * Cloudflare Turnstile (keys, a write-only secret, mode, required flows), breached-password checks,
 * new-device verification, and the risk thresholds. Each explains what it does and what it costs
 * the people signing in. docs/security.md has the details and the cost per request.
 */
import type { MetaFunction } from "@remix-run/cloudflare";
import { useCallback, useState } from "react";
import { configErrorMessage } from "../components/config/api-error";
import { ConfigToggle } from "../components/config/config-toggle";
import { Loaded, PageHeading, useAction } from "../components/console-ui";
import { loadProtection } from "../components/protection/protection-config";
import { RiskForm } from "../components/protection/risk-form";
import { TurnstileForm } from "../components/protection/turnstile-form";
import { RouteError } from "../components/route-error";
import { useProject } from "../lib/project-context";
import { useLoad } from "../lib/use-load";

export const meta: MetaFunction = () => [{ title: "Protection · Doorman" }];

export default function ProtectionRoute() {
  const { project, reloadProject, toast } = useProject();
  const load = useCallback(() => loadProtection(project), [project]);
  const loaded = useLoad(load, "the protection settings");
  const { running, run } = useAction();
  const [toggleErrors, setToggleErrors] = useState<Record<string, string | undefined>>({});
  const setToggleError = (key: string, message: string | undefined) => setToggleErrors((all) => ({ ...all, [key]: message }));

  const saved = async (message: string) => {
    // The project too: it says whether a Turnstile secret key is stored.
    await Promise.all([loaded.reload(), reloadProject()]);
    toast(message);
  };
  const toggle = (key: "breachedPasswords" | "newDeviceVerification", label: string) => (on: boolean) =>
    run(
      async () => {
        await project.updateConfig({ [`doorman.protection.${key}.enabled`]: on }, "environment");
        await saved(`${label} turned ${on ? "on" : "off"}.`);
      },
      {
        name: key,
        fallback: "Could not save.",
        message: (e, fallback) => {
          setToggleError(key, configErrorMessage(e, fallback));
          return null;
        },
      },
    ).then((ok) => ok && setToggleError(key, undefined));

  return (
    <>
      <PageHeading title={`Protection · ${project.displayName}`}>
        <p className="muted">Defences for sign-up and sign-in. Who may sign up at all is on the Sign-up rules page.</p>
      </PageHeading>
      <Loaded value={loaded.value} error={loaded.error} what="the protection settings">
        {(protection) => (
          <>
            <TurnstileForm protection={protection} onSaved={saved} />
            <section className="panel config-group" aria-labelledby="password-checks-heading">
              <h2 id="password-checks-heading">Passwords and devices</h2>
              <ConfigToggle
                label="Refuse breached passwords"
                hint="New passwords (sign-up, set, change, reset) are checked against the passwords of known data breaches (Have I Been Pwned's range API: only the first 5 characters of the password's SHA-1 hash leave the server). A found password is refused with a plain message; if the service does not answer in time, the password is accepted. It adds one outbound call to each password change."
                checked={protection.breachedPasswords.enabled}
                saving={running === "breachedPasswords"}
                disabled={running !== null}
                error={toggleErrors.breachedPasswords}
                onChange={toggle("breachedPasswords", "Breached-password checks")}
              />
              <ConfigToggle
                label="Verify new devices"
                hint="A password sign-in without a second factor, from a device the user has not used before, asks for a code sent to their verified email before signing in. It costs the user one email round trip on each new device or browser; known devices are remembered by a long-lived cookie."
                checked={protection.newDeviceVerification.enabled}
                saving={running === "newDeviceVerification"}
                disabled={running !== null}
                error={toggleErrors.newDeviceVerification}
                onChange={toggle("newDeviceVerification", "New-device verification")}
              />
            </section>
            <RiskForm protection={protection} onSaved={saved} />
          </>
        )}
      </Loaded>
    </>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
