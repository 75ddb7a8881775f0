/**
 * The project's answer to a database outage (Settings page, issue 32): whether `/users/me` answers
 * from the access token's claims while D1 is away (config `degraded_reads_from_token`,
 * `doorman.degradedReadsFromToken` in the override). Refreshes and sign-outs survive an outage
 * whatever this says (docs/deploy.md "During a D1 outage").
 */
import type { OwnedProject } from "../../lib/dashboard-types";
import { ConfigToggle } from "./config-toggle";
import { useConfigSave } from "./use-config-save";

const LABEL = "Answer the current user from the token during a database outage";

export function DegradedReadsToggle({ project }: { project: OwnedProject }) {
  const { saving, errors, save } = useConfigSave();
  return (
    <section className="panel config-group" aria-labelledby="degraded-heading">
      <h2 id="degraded-heading">Database outage</h2>
      <ConfigToggle
        label={LABEL}
        hint="While the database is failing or slow, your app still gets the signed-in user (id, name, email, team) from their access token, marked as degraded; fields the token does not carry are empty. Off: the app gets a 503 and retries."
        checked={project.config.degradedReadsFromToken === true}
        saving={saving === "degraded"}
        disabled={saving !== null}
        error={errors.degraded}
        onChange={(on) => save("degraded", { config: { degradedReadsFromToken: on } }, `${LABEL}: ${on ? "on" : "off"}.`)}
      />
    </section>
  );
}
