/**
 * The "new sign-in" notice (services/email/notices.ts notifyIfNewDevice): after a sign-in, a user who signed in
 * before, but never from this user agent and country, is emailed; the first sign-in (sign-up) and a known
 * browser are not. Its history read is one EXISTS query per sign-in (issue 32), checked here by its outcomes.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, createProjectWithKeys, signUp } from "../helpers/api";

/** The project's new_sign_in notices for the user (the notice is queued after the response: polled). */
async function notices(projectId: string, userId: string, expected: number): Promise<number> {
  let n = 0;
  for (let i = 0; i < 40; i++) {
    const row = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM email_outbox WHERE project_id = ? AND built_in_kind = 'new_sign_in' AND recipient LIKE ?",
    )
      .bind(projectId, `%${userId}%`)
      .first<{ n: number }>();
    n = row?.n ?? 0;
    if (n >= expected) return n;
    await new Promise((r) => setTimeout(r, 100));
  }
  return n;
}

describe("new sign-in notice", () => {
  it("is sent for a new browser or country after an earlier sign-in, not for a known one", async () => {
    const p = await createProjectWithKeys();
    const firefox = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", "cf-ipcountry": "DE" };
    const user = await signUp(p.client);
    const signIn = (headers: Record<string, string>) =>
      call("/auth/password/sign-in", { ...p.client, headers, body: { email: user.email, password: user.password } });

    // The first sign-in from Firefox in Germany: the sign-up (a sign-in too) came from another user agent.
    expect((await signIn(firefox)).status).toBe(200);
    expect(await notices(p.projectId, user.userId, 1)).toBe(1);
    // The same browser and country again: known, no second notice.
    expect((await signIn(firefox)).status).toBe(200);
    // Another country with the same browser: new.
    expect((await signIn({ ...firefox, "cf-ipcountry": "FR" })).status).toBe(200);
    expect(await notices(p.projectId, user.userId, 2)).toBe(2);
    // Both seen before now: nothing more.
    expect((await signIn(firefox)).status).toBe(200);
    expect((await signIn({ ...firefox, "cf-ipcountry": "FR" })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
    expect(await notices(p.projectId, user.userId, 0)).toBe(2);
  });
});
