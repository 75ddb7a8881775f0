/**
 * Sessions under races (issue 11): 100 concurrent refreshes on both endpoints plus one sign-out,
 * 5 rounds, with refresh-token rotation on and off. Every answer is 200 or 401
 * REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED (never a 5xx), the sign-out wins (200) and the token is dead after.
 */
import { describe, expect, it } from "vitest";
import { type CallResult, call, createProjectWithKeys, signUp } from "../helpers/api";

const ROUNDS = 5;
const REFRESHES = 100;

type RoundFigures = {
  round: number;
  ms: number;
  fiveXx: number;
  ok: number;
  refused: number;
  other: number;
  signOut: number;
  liveAfter: number;
};

async function raceRounds(rotation: boolean): Promise<RoundFigures[]> {
  const p = await createProjectWithKeys({ refresh_token_rotation: rotation });
  const grant = (refreshToken: string) =>
    call("/auth/oauth/token", {
      body: {
        grant_type: "refresh_token",
        refresh_token: refreshToken,
        client_id: p.projectId,
        client_secret: p.client.publishableClientKey,
      },
    });
  const current = (refreshToken: string) => call("/auth/sessions/current/refresh", { ...p.client, method: "POST", refreshToken });

  const figures: RoundFigures[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const user = await signUp(p.client);
    const started = Date.now();
    const refreshes: Promise<CallResult>[] = [];
    const refresh = (i: number) => refreshes.push(i % 2 === 0 ? grant(user.refreshToken) : current(user.refreshToken));
    for (let i = 0; i < REFRESHES / 2; i++) refresh(i);
    // The sign-out lands in the middle of the burst: once the first refresh has answered, while
    // the rest of the first half are in flight. The second half goes out in small waves while the
    // sign-out is in flight, and the rest once it answered, so refreshes land on both sides of it
    // (a refresh without rotation is one D1 batch, fast enough to finish a whole burst first).
    await Promise.race(refreshes);
    const signOut = call("/auth/sessions/current", { ...p.client, method: "DELETE", accessToken: user.accessToken, body: {} });
    let signedOut = false;
    void signOut.then(() => {
      signedOut = true;
    });
    let next = REFRESHES / 2;
    while (next < REFRESHES && !signedOut) {
      for (let k = 0; k < 5 && next < REFRESHES; k++) refresh(next++);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    while (next < REFRESHES) refresh(next++);
    const answers = await Promise.all(refreshes);
    const out = await signOut;

    // Afterwards, the original token and every token a refresh handed out are dead.
    const handedOut = new Set<string>([user.refreshToken]);
    for (const a of answers) if (a.status === 200 && typeof a.body.refresh_token === "string") handedOut.add(a.body.refresh_token);
    const afters = await Promise.all([...handedOut].map((token) => grant(token)));
    const liveAfter = afters.filter((a) => a.status !== 401 || a.body.code !== "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED").length;
    const all = [...answers, out];
    figures.push({
      round,
      ms: Date.now() - started,
      fiveXx: all.filter((a) => a.status >= 500).length,
      ok: answers.filter((a) => a.status === 200).length,
      refused: answers.filter((a) => a.status === 401 && a.body.code === "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED").length,
      other: answers.filter((a) => a.status !== 200 && !(a.status === 401 && a.body.code === "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED")).length,
      signOut: out.status,
      liveAfter,
    });
  }
  console.log(`session races, rotation ${rotation ? "on" : "off"}:\n${figures.map((f) => JSON.stringify(f)).join("\n")}`);
  return figures;
}

describe("100 concurrent refreshes plus one sign-out", () => {
  for (const rotation of [false, true]) {
    it(`rotation ${rotation ? "on" : "off"}: no 5xx, only 200 or 401, sign-out wins, token dead after`, { timeout: 600_000 }, async () => {
      const figures = await raceRounds(rotation);
      for (const f of figures) {
        expect(f).toMatchObject({ fiveXx: 0, other: 0, signOut: 200, liveAfter: 0 });
        expect(f.ok + f.refused).toBe(REFRESHES);
      }
      // A real race: over the rounds some refreshes won before the sign-out and some lost to it
      // (where the sign-out lands in one round is up to the scheduler).
      expect(figures.reduce((n, f) => n + f.ok, 0)).toBeGreaterThan(0);
      expect(figures.reduce((n, f) => n + f.refused, 0)).toBeGreaterThan(0);
    });
  }
});
