/**
 * Production mode (Settings page): the switch, and the production checks as a list: what blocks
 * production mode and why, computed from the config before the switch is flipped (the API
 * answers the same messages if it is flipped anyway), plus advice that does not block it.
 */
import { Link } from "@remix-run/react";
import { productionModeErrors } from "../../../../sdk/src/shared/domain-rules";
import type { OwnedProject } from "../../lib/dashboard-types";
import { PROJECT_PAGES } from "../../lib/project-pages";
import { ConfigToggle } from "./config-toggle";
import { useConfigSave } from "./use-config-save";

const pageLabel = (path: string) => PROJECT_PAGES.find((p) => p.path === path)?.label ?? path;

function advice(project: OwnedProject): { text: string; page: string }[] {
  const c = project.config;
  const list: { text: string; page: string }[] = [];
  if (c.domains.length === 0) list.push({ text: "No trusted domain: redirects to your app are refused.", page: "domains" });
  if (c.emailConfig.type === "shared")
    list.push({ text: "Emails go through the shared server: set up your own for your users.", page: "emails" });
  const shared = c.oauthProviders.filter((p) => p.type === "shared").map((p) => p.id);
  if (shared.length)
    list.push({ text: `Shared development keys for ${shared.join(", ")}: use your own client id and secret.`, page: "sign-in-methods" });
  return list;
}

export function ProductionModePanel({ project }: { project: OwnedProject }) {
  const { saving, errors, save } = useConfigSave();
  const blocking = productionModeErrors(project.config);
  const tips = advice(project);
  return (
    <section className="panel config-group" aria-labelledby="production-heading">
      <h2 id="production-heading">Production mode</h2>
      <ConfigToggle
        label="Production mode"
        hint="Refuses localhost, IP addresses and plain-HTTP domains, so only your real app can receive sign-ins."
        checked={project.isProductionMode}
        saving={saving === "production"}
        error={errors.production}
        onChange={(on) => save("production", { isProductionMode: on }, on ? "Production mode is on." : "Production mode is off.")}
      />
      <h3 id="checks-heading">Production checks</h3>
      {blocking.length === 0 ? (
        <p className="check-ok">
          <span className="check-done" aria-hidden="true">
            ✓
          </span>{" "}
          Nothing blocks production mode.
        </p>
      ) : (
        <ul className="checklist" aria-labelledby="checks-heading">
          {blocking.map((message, i) => (
            <li key={`${i}-${message}`}>
              <span className="check-todo" aria-hidden="true">
                ✗
              </span>
              <span>
                <span className="visually-hidden">Blocks production mode: </span>
                {message} <Link to={`/projects/${project.id}/domains`}>Fix on the Domains page</Link>
              </span>
            </li>
          ))}
        </ul>
      )}
      {tips.length ? (
        <>
          <h3>Also worth doing (does not block)</h3>
          <ul className="checklist">
            {tips.map((t) => (
              <li key={t.text}>
                <span className="check-todo" aria-hidden="true">
                  !
                </span>
                <span>
                  {t.text} <Link to={`/projects/${project.id}/${t.page}`}>Go to {pageLabel(t.page)}</Link>
                </span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
