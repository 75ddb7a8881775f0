/**
 * The OpenID provider's protocol endpoints under the issuer (`/projects/{projectId}/…`), as one
 * group with the protocol's error handler (a malformed request is invalid_request, never SCHEMA_ERROR).
 * The origin's RFC 8414 path-insertion discovery routes are mounted in app.ts beside it.
 */
import { routeGroup } from "../../http/route";
import { oauthAuthorizeRoutes } from "./authorize";
import { oauthDiscoveryRoutes } from "./discovery";
import { oauthIntrospectRoutes } from "./introspect";
import { protocolErrorHandler } from "./respond";
import { oauthRevokeRoutes } from "./revoke";
import { oauthTokenEndpointRoutes } from "./token";
import { oauthUserinfoRoutes } from "./userinfo";

export { originDiscoveryRoutes } from "./discovery";

export const oauthProviderRoutes = routeGroup()
  .route("/", oauthDiscoveryRoutes)
  .route("/", oauthAuthorizeRoutes)
  .route("/", oauthTokenEndpointRoutes)
  .route("/", oauthUserinfoRoutes)
  .route("/", oauthIntrospectRoutes)
  .route("/", oauthRevokeRoutes)
  .onError(protocolErrorHandler);
