/** Test helpers: call the real worker (workerFetch) with wire headers, and common flows. */

import { DEV_PUBLISHABLE_CLIENT_KEY } from "@doorman/shared/constants";
import { expect } from "vitest";
import { DEV_SECRET_SERVER_KEY, DEV_SUPER_SECRET_ADMIN_KEY } from "../../worker/internal-seed";
import { workerFetch } from "./worker-fetch";

export type CallOptions = {
  method?: string;
  body?: unknown;
  rawBody?: string;
  contentType?: string;
  projectId?: string;
  accessType?: "client" | "server" | "admin" | string;
  publishableClientKey?: string;
  secretServerKey?: string;
  superSecretAdminKey?: string;
  adminAccessToken?: string;
  accessToken?: string;
  refreshToken?: string;
  allowAnonymous?: boolean;
  headers?: Record<string, string>;
  prefix?: "x-stack" | "x-hexclave";
  nowMs?: number;
  /** Another env for worker.fetch (a D1 that fails: test/helpers/d1-fault.ts). */
  env?: object;
};

export type CallResult = { status: number; headers: Headers; body: any; text: string };

export async function call(path: string, o: CallOptions = {}): Promise<CallResult> {
  const p = o.prefix ?? "x-stack";
  const headers: Record<string, string> = { ...(o.headers ?? {}) };
  const set = (name: string, value: string | undefined) => {
    if (value !== undefined) headers[`${p}-${name}`] = value;
  };
  set("project-id", o.projectId);
  set("access-type", o.accessType);
  set("publishable-client-key", o.publishableClientKey);
  set("secret-server-key", o.secretServerKey);
  set("super-secret-admin-key", o.superSecretAdminKey);
  set("admin-access-token", o.adminAccessToken);
  set("access-token", o.accessToken);
  set("refresh-token", o.refreshToken);
  if (o.allowAnonymous) set("allow-anonymous-user", "true");
  if (o.nowMs !== undefined) headers["x-doorman-test-now"] = String(o.nowMs);
  let body: string | undefined = o.rawBody;
  if (o.body !== undefined) {
    body = JSON.stringify(o.body);
    headers["content-type"] ??= "application/json";
  }
  if (o.contentType) headers["content-type"] = o.contentType;
  const res = await workerFetch(
    `http://localhost/api/v1${path}`,
    {
      method: o.method ?? (body !== undefined ? "POST" : "GET"),
      headers,
      body,
    },
    o.env,
  );
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get("content-type") ?? "").includes("application/json")) parsed = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: parsed, text };
}

export const internalClient = { projectId: "internal", accessType: "client", publishableClientKey: DEV_PUBLISHABLE_CLIENT_KEY } as const;
export const internalServer = { projectId: "internal", accessType: "server", secretServerKey: DEV_SECRET_SERVER_KEY } as const;
export const internalAdmin = { projectId: "internal", accessType: "admin", superSecretAdminKey: DEV_SUPER_SECRET_ADMIN_KEY } as const;

let counter = 0;
export function uniqueEmail(tag = "user"): string {
  counter += 1;
  return `${tag}-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

export type SignedUp = { email: string; password: string; accessToken: string; refreshToken: string; userId: string };

export async function signUp(
  project: CallOptions = internalClient,
  email = uniqueEmail(),
  password = "correct horse battery",
): Promise<SignedUp> {
  const res = await call("/auth/password/sign-up", { ...project, body: { email, password } });
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${res.text}`);
  return { email, password, accessToken: res.body.access_token, refreshToken: res.body.refresh_token, userId: res.body.user_id };
}

/**
 * A fresh project owned by a fresh internal user, with admin/server/client credentials.
 * New projects start with new-device verification on (issue 29), which would stop every password
 * sign-in these tests make without a device token: it is turned off here unless a test asks for it
 * (`deviceVerification: true`; test/worker/device-verification.test.ts).
 */
export async function createProjectWithKeys(config: Record<string, unknown> = {}, options: { deviceVerification?: boolean } = {}) {
  const owner = await signUp();
  const created = await call("/internal/projects", {
    ...internalClient,
    accessToken: owner.accessToken,
    body: { display_name: "Test project", config },
  });
  if (created.status !== 201) throw new Error(`project create failed: ${created.status} ${created.text}`);
  const projectId: string = created.body.id;
  const admin = { projectId, accessType: "admin", adminAccessToken: owner.accessToken } as const;
  if (!options.deviceVerification) {
    const off = await call("/internal/config/override/environment", {
      ...admin,
      method: "PATCH",
      body: { config_override_string: JSON.stringify({ "doorman.protection.newDeviceVerification.enabled": false }) },
    });
    if (off.status !== 200) throw new Error(`turning device verification off failed: ${off.status} ${off.text}`);
  }
  const keys = await call("/internal/api-keys", {
    ...admin,
    body: {
      description: "test",
      expires_at_millis: Date.now() + 10 * 365 * 24 * 3600_000,
      has_publishable_client_key: true,
      has_secret_server_key: true,
      has_super_secret_admin_key: true,
    },
  });
  if (keys.status !== 200) throw new Error(`key create failed: ${keys.status} ${keys.text}`);
  return {
    owner,
    projectId,
    keyId: keys.body.id as string,
    admin,
    adminKey: { projectId, accessType: "admin", superSecretAdminKey: keys.body.super_secret_admin_key as string } as const,
    server: { projectId, accessType: "server", secretServerKey: keys.body.secret_server_key as string } as const,
    client: { projectId, accessType: "client", publishableClientKey: keys.body.publishable_client_key as string } as const,
  };
}

/** A project whose environment override is `config` (e.g. live-mode payments with its offers). */
export async function projectWithConfig(config: Record<string, unknown>): Promise<Awaited<ReturnType<typeof createProjectWithKeys>>> {
  const p = await createProjectWithKeys();
  const res = await call("/internal/config/override/environment", {
    ...p.admin,
    method: "PATCH",
    body: { config_override_string: JSON.stringify(config) },
  });
  expect(res.status, res.text).toBe(200);
  return p;
}
