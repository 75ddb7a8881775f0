/**
 * The SCIM 2.0 server of each SSO connection (issue 31), under `/scim/{connectionId}` (SSO_PATHS.scimBase):
 * the connection's bearer token is checked before anything else (caller.ts), and the group answers
 * every error as RFC 7644 §3.12 JSON, a malformed request included (respond.ts), never SCHEMA_ERROR.
 */
import { routeGroup } from "../../http/route";
import { scimAuthenticate } from "./caller";
import { scimDiscoveryRoutes } from "./discovery";
import { scimGroupsRoutes } from "./groups";
import { scimErrorHandler } from "./respond";
import { scimUsersRoutes } from "./users";

export const scimRoutes = routeGroup()
  .use("/:connectionId/*", scimAuthenticate)
  .route("/", scimDiscoveryRoutes)
  .route("/", scimUsersRoutes)
  .route("/", scimGroupsRoutes)
  .onError(scimErrorHandler);
