import { describe, expect, it } from "vitest";
import { call, internalClient, signUp } from "../helpers/api";

describe("smoke", () => {
  it("health answers", async () => {
    const res = await call("/health");
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("ok");
  });
  it("signs up, reads me, refreshes", async () => {
    const user = await signUp();
    const me = await call("/users/me", { ...internalClient, accessToken: user.accessToken });
    expect(me.status).toBe(200);
    expect(me.body.primary_email).toBe(user.email);
    const refreshed = await call("/auth/sessions/current/refresh", { ...internalClient, refreshToken: user.refreshToken, method: "POST" });
    expect(refreshed.status).toBe(200);
    expect(typeof refreshed.body.access_token).toBe("string");
  });
});
