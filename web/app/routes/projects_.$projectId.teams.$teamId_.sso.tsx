/**
 * `/projects/:projectId/teams/:teamId/sso`: one team's enterprise SSO (issue 31), through the owner's
 * admin app: its identity provider connection(s) (values to give the IdP, the SP metadata, a test
 * sign-in, the IdP's values, settings), SCIM provisioning (token shown once, last calls), its email
 * domains (TXT records, Verify, Require SSO, Auto-join), and a setup link for its IT admin.
 * docs/enterprise-sso.md walks through it.
 */
import type { MetaFunction } from "@remix-run/cloudflare";
import { Link, useParams } from "@remix-run/react";
import { useCallback, useMemo } from "react";
import { Loaded, PageHeading } from "../components/console-ui";
import { RouteError } from "../components/route-error";
import { ConnectionPanel } from "../components/sso/connection-panel";
import { DomainsPanel } from "../components/sso/domains-panel";
import { ScimPanel } from "../components/sso/scim-panel";
import { SetupLinkPanel } from "../components/sso/setup-link-panel";
import { useProject } from "../lib/project-context";
import { useLoad } from "../lib/use-load";

export const meta: MetaFunction = () => [{ title: "Team SSO · Doorman" }];

export default function TeamSsoRoute() {
  const { project, toast } = useProject();
  const { teamId = "" } = useParams();
  const sso = useMemo(() => project.app.getTeamSso(teamId), [project, teamId]);
  const data = useLoad(
    useCallback(async () => {
      const [team, connections, domains] = await Promise.all([project.app.getTeam(teamId), sso.listConnections(), sso.listDomains()]);
      return { team, connections, domains };
    }, [project, teamId, sso]),
    "the team's SSO",
  );
  const changed = async (message: string) => {
    await data.reload();
    toast(message);
  };
  const teamName = data.value?.team?.displayName ?? "Team";

  return (
    <div className="team-page">
      <Link to={`/projects/${project.id}/teams/${teamId}`} className="back-link">
        ← {teamName}
      </Link>
      <PageHeading title={`Enterprise SSO · ${teamName}`}>
        <p className="muted">
          The team's own identity provider (SAML or OpenID Connect) signs its people in; its verified email domains route them there, and
          SCIM keeps its members in step with the IdP.
        </p>
      </PageHeading>
      <Loaded value={data.value} error={data.error} what="the team's SSO">
        {({ connections, domains }) => (
          <>
            <ConnectionPanel sso={sso} connections={connections} onChanged={changed} />
            {connections.map((c) => (
              <ScimPanel key={c.id} sso={sso} connection={c} onChanged={changed} />
            ))}
            <DomainsPanel sso={sso} domains={domains} connections={connections} onChanged={changed} />
            <SetupLinkPanel sso={sso} onMade={toast} />
          </>
        )}
      </Loaded>
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
