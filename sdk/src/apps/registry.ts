/**
 * Late binding between modules that would otherwise import each other at class-definition
 * time (client app → current user → admin app → server app → client app).
 */
import type { Session } from "../session/session";
import type { StackClientApp } from "./client-app";

type AdminAppFactory = (owner: StackClientApp, projectId: string, session: Session) => unknown;

let adminAppFactory: AdminAppFactory | null = null;

export function registerAdminAppFactory(factory: AdminAppFactory): void {
  adminAppFactory = factory;
}

export function makeOwnerAdminApp(owner: StackClientApp, projectId: string, session: Session): unknown {
  if (!adminAppFactory) throw new Error("StackAdminApp is not loaded; import it from the SDK entry point");
  return adminAppFactory(owner, projectId, session);
}
