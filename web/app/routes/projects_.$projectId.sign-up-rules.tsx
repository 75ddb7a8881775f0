/**
 * `/projects/{id}/sign-up-rules`: who may sign up. The rules in the order they run (priority, then
 * id), each with how often it matched (last 24 h, 48 h, all time); add, edit, turn on/off and delete
 * a rule; the default action when no rule decides; and a tester. Rules are config
 * (`auth.signUpRules.<id>`, written with project.updateConfig); the tester and the counts come
 * from the admin app. docs/sign-up-rules.md has the CEL variables and the cost limits.
 */
import type { MetaFunction } from "@remix-run/cloudflare";
import { useCallback, useState } from "react";
import { configErrorMessage } from "../components/config/api-error";
import { ConfirmButton, Loaded, PageHeading, useAction } from "../components/console-ui";
import { DataTable } from "../components/data-table";
import { RouteError } from "../components/route-error";
import { RuleForm } from "../components/sign-up-rules/rule-form";
import { ACTIONS, type DefaultAction, formOf, loadRules, type RuleEntry, ruleOverride } from "../components/sign-up-rules/rules-config";
import { countsByRule } from "../components/sign-up-rules/rules-stats";
import { RulesTester } from "../components/sign-up-rules/rules-tester";
import { formatCount } from "../lib/format";
import { useProject } from "../lib/project-context";
import { useLoad } from "../lib/use-load";

export const meta: MetaFunction = () => [{ title: "Sign-up rules · Doorman" }];

const actionLabel = (a: RuleEntry["action"]) => ACTIONS.find((x) => x.value === a)?.label ?? a;

export default function SignUpRulesRoute() {
  const { project, toast } = useProject();
  const loadState = useCallback(async () => {
    const [state, stats] = await Promise.all([loadRules(project), project.app.getSignUpRulesStats()]);
    return { ...state, stats };
  }, [project]);
  const loaded = useLoad(loadState, "the sign-up rules");
  const [editing, setEditing] = useState<string | null>(null);
  const { running, error, run } = useAction();

  const saved = (message: string) => async () => {
    await loaded.reload();
    toast(message);
  };
  const change = (name: string, override: Record<string, unknown>, success: string) =>
    run(
      async () => {
        await project.updateConfig(override, "environment");
        await saved(success)();
      },
      { name, fallback: "Could not save.", message: (e, fallback) => configErrorMessage(e, fallback) },
    );

  return (
    <>
      <PageHeading title={`Sign-up rules · ${project.displayName}`}>
        <p className="muted">
          Rules decide who may sign up. Each sign-up (password, magic link, OAuth) runs them from the top: the first matching <em>allow</em>{" "}
          or <em>reject</em> decides; <em>restrict</em> and <em>log</em> rules are noted and the next rule runs. Users you create here are
          not checked.
        </p>
      </PageHeading>
      <Loaded value={loaded.value} error={loaded.error} what="the sign-up rules">
        {({ rules, defaultAction, stats }) => {
          const counts = countsByRule(stats, new Date());
          return (
            <>
              <section className="panel" aria-labelledby="rules-heading">
                <h2 id="rules-heading">Rules, in the order they run</h2>
                <p className="alert" role="alert" hidden={!error}>
                  {error}
                </p>
                <DataTable
                  label="Sign-up rules, in the order they run"
                  isEmpty={rules.length === 0}
                  empty="No rule yet: every sign-up gets the default action."
                  stack={["#", "Rule", "Condition", "Action", "Priority", "Matched (24 h / 48 h / all)", "On", ""]}
                >
                  <thead>
                    <tr>
                      <th scope="col">#</th>
                      <th scope="col">Rule</th>
                      <th scope="col">Condition</th>
                      <th scope="col">Action</th>
                      <th scope="col">Priority</th>
                      <th scope="col">Matched (24 h / 48 h / all)</th>
                      <th scope="col">On</th>
                      <th scope="col">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {rules.map((rule, index) => {
                      const c = counts.get(rule.id);
                      return (
                        <tr key={rule.id} data-rule-id={rule.id}>
                          <td>{index + 1}</td>
                          <td>
                            {rule.displayName || <span className="muted">(no name)</span>}
                            <br />
                            <code className="muted">{rule.id}</code>
                          </td>
                          <td>
                            <code>{rule.condition || "(none: skipped)"}</code>
                          </td>
                          <td>{actionLabel(rule.action)}</td>
                          <td>{rule.priority}</td>
                          <td data-testid={`rule-counts-${rule.id}`}>
                            {formatCount(c?.last24h ?? 0)} / {formatCount(c?.last48h ?? 0)} / {formatCount(c?.allTime ?? 0)}
                          </td>
                          <td>
                            <input
                              type="checkbox"
                              aria-label={`${rule.enabled ? "Turn off" : "Turn on"} rule ${rule.displayName || rule.id}`}
                              checked={rule.enabled}
                              disabled={running !== null}
                              onChange={(e) =>
                                change(
                                  `toggle-${rule.id}`,
                                  ruleOverride({ ...formOf(rule), enabled: e.target.checked }, rule.message),
                                  `Rule ${rule.id} turned ${e.target.checked ? "on" : "off"}.`,
                                )
                              }
                            />
                          </td>
                          <td data-label="">
                            <span className="provider-actions">
                              <button
                                type="button"
                                className="btn btn-secondary btn-small"
                                aria-label={`Edit rule ${rule.id}`}
                                aria-expanded={editing === rule.id}
                                onClick={() => setEditing(editing === rule.id ? null : rule.id)}
                              >
                                Edit
                              </button>
                              <ConfirmButton
                                small
                                label="Delete"
                                ariaLabel={`Delete rule ${rule.id}`}
                                title={`Delete rule ${rule.id}?`}
                                consequence="Sign-ups stop being checked against it at once. Its counts stay in the stats."
                                confirmLabel="Delete rule"
                                onConfirm={async () => {
                                  await project.updateConfig({ [`auth.signUpRules.${rule.id}`]: null }, "environment");
                                  await saved(`Rule ${rule.id} deleted.`)();
                                }}
                              />
                            </span>
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </DataTable>
                {editing && rules.some((r) => r.id === editing) ? (
                  <div className="rule-edit">
                    <h3>Edit rule {editing}</h3>
                    <RuleForm
                      key={editing}
                      editing={rules.find((r) => r.id === editing)}
                      existingIds={rules.map((r) => r.id)}
                      onCancel={() => setEditing(null)}
                      onSaved={async (id) => {
                        setEditing(null);
                        await saved(`Rule ${id} saved.`)();
                      }}
                    />
                  </div>
                ) : null}
                <p className="muted">
                  Last 48 hours: {formatCount(stats.totalTriggers)} matches (
                  {ACTIONS.map((a) => `${formatCount(stats.triggersByAction[a.value])} ${a.label.toLowerCase()}`).join(", ")}).
                </p>
              </section>
              <section className="panel" aria-labelledby="new-rule-heading">
                <h2 id="new-rule-heading">Add a rule</h2>
                <RuleForm existingIds={rules.map((r) => r.id)} onSaved={async (id) => saved(`Rule ${id} added.`)()} />
              </section>
              <DefaultActionPanel
                value={defaultAction}
                saving={running === "default"}
                onChange={(next) => change("default", { "auth.signUpRulesDefaultAction": next }, `Default action: ${next}.`)}
              />
            </>
          );
        }}
      </Loaded>
      <RulesTester />
    </>
  );
}

function DefaultActionPanel(props: { value: DefaultAction; saving: boolean; onChange: (next: DefaultAction) => void }) {
  return (
    <section className="panel" aria-labelledby="default-action-heading">
      <h2 id="default-action-heading">When no rule decides</h2>
      <fieldset className="field" disabled={props.saving}>
        <legend>Default action</legend>
        {(["allow", "reject"] as const).map((value) => (
          <label key={value} className="inline">
            <input
              type="radio"
              name="default-action"
              value={value}
              checked={props.value === value}
              onChange={() => props.onChange(value)}
            />{" "}
            {value === "allow" ? "Allow the sign-up" : "Reject the sign-up (only people an allow rule lets in can sign up)"}
          </label>
        ))}
      </fieldset>
      {props.saving ? (
        <p className="muted" role="status">
          Saving…
        </p>
      ) : null}
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
