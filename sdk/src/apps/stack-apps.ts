/**
 * The exported client and server apps: `ClientAppBase` / `ServerAppBase` wired with the admin
 * app that their current user hands out for owned projects. The wiring lives here, above the
 * admin app, so no app module imports another in a circle:
 * app-core ← current-user ← client-app ← server-app ← admin-app ← stack-apps.
 *
 * `StackServerApp` and `StackAdminApp` share `ClientAppBase` rather than extending this module's
 * `StackClientApp`; `Symbol.hasInstance` keeps `server instanceof StackClientApp` (and
 * `admin instanceof StackServerApp`) true, as for subclasses.
 */
import type { AccessLevel } from "../interface/http";
import { ownerAdminApp, type StackAdminApp } from "./admin-app";
import type { ClientAppOptions } from "./app-core";
import { ClientAppBase } from "./client-app";
import type { AdminOwnedProjectOf, CurrentUserOf } from "./current-user";
import { ServerAppBase, type ServerAppOptions } from "./server-app";

/** The signed-in user of an app: fields plus account, session and (internal project) owner methods. */
export type CurrentUser = CurrentUserOf<StackAdminApp>;
/** A project the user owns, with an admin app acting through the user's session. */
export type AdminOwnedProject = AdminOwnedProjectOf<StackAdminApp>;

const plainInstanceOf = (ctor: object, value: unknown): boolean => Function.prototype[Symbol.hasInstance].call(ctor, value);

/**
 * The client app of a project.
 *
 * @example
 * const app = new StackClientApp({ projectId: "internal", publishableClientKey, tokenStore: "cookie" });
 * const result = await app.signInWithCredential({ email, password });
 * if (result.status === "error") console.log(result.error.code);
 */
export class StackClientApp extends ClientAppBase<StackAdminApp> {
  constructor(options: ClientAppOptions, access?: AccessLevel) {
    super(options, access, ownerAdminApp);
  }

  /** Server and admin apps are client apps too. */
  static [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: a subclass of StackClientApp keeps the plain check
    return this === StackClientApp ? value instanceof ClientAppBase : plainInstanceOf(this, value);
  }
}

/**
 * The server app of a project (keep the secret key on the server).
 *
 * @example
 * const server = new StackServerApp({ projectId, secretServerKey, tokenStore: "memory", baseUrl });
 * const user = await server.createUser({ primaryEmail: "ada@example.com", password: "a long password" });
 * await user.update({ serverMetadata: { plan: "pro" } });
 */
export class StackServerApp extends ServerAppBase<StackAdminApp> {
  constructor(options: ServerAppOptions, access?: AccessLevel) {
    super(options, access, ownerAdminApp);
  }

  /** Admin apps are server apps too. */
  static [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: a subclass of StackServerApp keeps the plain check
    return this === StackServerApp ? value instanceof ServerAppBase : plainInstanceOf(this, value);
  }
}
