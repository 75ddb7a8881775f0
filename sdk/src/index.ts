/**
 * The Doorman SDK: client, server and admin apps over the Stack-compatible v1 API.
 *
 * @example
 * import { StackClientApp } from "doorman/sdk";
 * const app = new StackClientApp({ projectId, publishableClientKey, tokenStore: "cookie" });
 * const user = await app.getUser({ or: "redirect" });
 */
export { type AdminAppOptions, type InternalApiKey, type InternalApiKeyFirstView, type SentEmail, StackAdminApp } from "./apps/admin-app";
export type { AdminProject, ProjectConfig, ProjectUpdate } from "./apps/admin-project";
export { type ClientAppOptions, type CredentialOptions, type GetUserOptions, StackClientApp } from "./apps/client-app";
export type { ContactChannel, NotificationCategory } from "./apps/contact-channels";
export type { ActiveSession, AdminOwnedProject, CurrentUser } from "./apps/current-user";
export { type CreateUserOptions, type ListUsersOptions, type ServerAppOptions, type ServerUser, StackServerApp } from "./apps/server-app";
export type { ServerUserUpdateOptions, Team, UserUpdateOptions } from "./apps/users";
export { ConnectionError, type FetchLike, HttpError } from "./interface/http";
export type { Result } from "./interface/result";
export type { CookieJar, RequestLike, TokenStoreInit, Tokens } from "./session/token-store";
export { KnownError, type KnownErrorCode } from "./shared/known-errors";
export { type HandlerUrls, isTrustedRedirect } from "./urls";
