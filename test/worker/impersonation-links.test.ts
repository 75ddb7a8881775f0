/**
 * Impersonation links (issue 28): an owner's one-time code opens the project's app signed in as a
 * user. The code is hashed at rest, bound to its project and user, lives five minutes and is
 * redeemed once, even by concurrent requests; the session it opens is marked is_impersonation.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, createProjectWithKeys, signUp, uniqueEmail } from "../helpers/api";

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;

const link = (p: Project, userId: string, access: object = p.admin) =>
  call("/internal/impersonation-links", { ...access, body: { user_id: userId } });
const redeem = (p: Project, code: string, nowMs?: number) =>
  call("/auth/impersonation/redeem", { ...p.client, body: { code }, ...(nowMs ? { nowMs } : {}) });

describe("impersonation links", () => {
  it("the link opens the first trusted domain's handler page; redeeming it signs in as the user, in a marked session", async () => {
    const p = await createProjectWithKeys({ domains: [{ domain: "https://app.example.com/", handler_path: "/auth/" }] });
    const user = await signUp(p.client, uniqueEmail("imp"));
    const created = await link(p, user.userId);
    expect(created.status, created.text).toBe(200);
    const { code, url, expires_at_millis } = created.body as { code: string; url: string; expires_at_millis: number };
    expect(code).toMatch(/^[0-9a-z]{45}$/);
    expect(url).toBe(`https://app.example.com/auth/impersonate#code=${code}`);
    expect(expires_at_millis - Date.now()).toBeLessThanOrEqual(5 * 60_000 + 1000);
    expect(expires_at_millis - Date.now()).toBeGreaterThan(4 * 60_000);

    // Hashed at rest: the stored row holds no trace of the code.
    const rows = await env.DB.prepare("SELECT * FROM verification_codes WHERE project_id = ? AND purpose = 'impersonation'")
      .bind(p.projectId)
      .all();
    expect(rows.results).toHaveLength(1);
    expect(JSON.stringify(rows.results)).not.toContain(code);

    const session = await redeem(p, code);
    expect(session.status, session.text).toBe(200);
    expect(session.body).toMatchObject({ user_id: user.userId, session_id: expect.any(String) });
    const me = await call("/users/me", { ...p.client, accessToken: session.body.access_token });
    expect(me.body.id).toBe(user.userId);
    const sessions = await call(`/auth/sessions?user_id=${user.userId}`, p.server);
    const opened = sessions.body.items.find((s: { id: string }) => s.id === session.body.session_id);
    expect(opened).toMatchObject({ is_impersonation: true });

    const events = (await call(`/internal/events?user_id=${user.userId}`, p.admin)).body.items as { type: string; data: unknown }[];
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(["impersonation.link_created", "session.impersonated"]));
    expect(events.find((e) => e.type === "session.impersonated")!.data).toEqual({ session_id: session.body.session_id, via: "link" });
    expect(JSON.stringify(events)).not.toContain(code);

    // Used once: the same code again is refused.
    expect((await redeem(p, code)).body.code).toBe("VERIFICATION_CODE_ALREADY_USED");
  });

  it("single use under concurrent redemption: one session, the others refused", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client, uniqueEmail("race"));
    const { code, url } = (await link(p, user.userId)).body as { code: string; url: string | null };
    expect(url).toBeNull(); // no trusted domain
    const answers = await Promise.all(Array.from({ length: 6 }, () => redeem(p, code)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) expect(a.body.code).toBe("VERIFICATION_CODE_ALREADY_USED");
    const sessions = await call(`/auth/sessions?user_id=${user.userId}`, p.server);
    expect(sessions.body.items.filter((s: { is_impersonation: boolean }) => s.is_impersonation)).toHaveLength(1);
  });

  it("expires after five minutes; another project's code is not found; only admins make links", async () => {
    const p = await createProjectWithKeys();
    const other = await createProjectWithKeys();
    const user = await signUp(p.client, uniqueEmail("exp"));
    const late = (await link(p, user.userId)).body.code as string;
    expect((await redeem(p, late, Date.now() + 5 * 60_000 + 5_000)).body.code).toBe("VERIFICATION_CODE_EXPIRED");

    const elsewhere = (await link(p, user.userId)).body.code as string;
    expect((await redeem(other, elsewhere)).body.code).toBe("VERIFICATION_CODE_NOT_FOUND");
    // The wrong project's try did not spend it.
    expect((await redeem(p, elsewhere)).status).toBe(200);

    expect((await redeem(p, "x".repeat(45))).body.code).toBe("VERIFICATION_CODE_NOT_FOUND");
    expect((await call("/auth/impersonation/redeem", { ...p.client, body: { code: "short" } })).body.code).toBe("SCHEMA_ERROR");
    expect((await link(p, user.userId, p.server)).body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
    expect((await link(p, user.userId, p.client)).status).toBe(401);
    expect((await link(p, "00000000-0000-4000-8000-000000000000")).body.code).toBe("USER_NOT_FOUND");
    // A user of another project is unknown here.
    const stranger = await signUp(other.client, uniqueEmail("stranger"));
    expect((await link(p, stranger.userId)).body.code).toBe("USER_NOT_FOUND");
  });
});
