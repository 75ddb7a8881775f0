/**
 * The reference's beta API versions (/api/v2beta1 … v2beta5): routes answer as at /api/latest, and
 * the reference's demonstration route translates each older version's query to the latest one.
 */
import { describe, expect, it } from "vitest";
import { createProjectWithKeys } from "../helpers/api";
import { workerFetch } from "../helpers/worker-fetch";

const get = async (path: string, headers: Record<string, string> = {}) => {
  const res = await workerFetch(`http://localhost${path}`, { headers });
  const text = await res.text();
  return { status: res.status, code: res.headers.get("x-stack-known-error"), text };
};
const demo = "/migration-tests/smart-route-handler";

describe("beta API versions", () => {
  it("any route answers under a beta version as under /api/latest, authentication included", async () => {
    const p = await createProjectWithKeys();
    const headers = {
      "x-stack-project-id": p.projectId,
      "x-stack-access-type": "admin",
      "x-stack-super-secret-admin-key": p.adminKey.superSecretAdminKey,
    };
    for (const version of ["v2beta1", "v2beta5", "latest"]) {
      const res = await get(`/api/${version}/internal/projects/current`, headers);
      expect(res.status, res.text).toBe(200);
      expect(JSON.parse(res.text).id).toBe(p.projectId);
    }
    expect((await get("/api/v2beta1/internal/projects/current")).code).toBe("ACCESS_TYPE_REQUIRED");
    expect((await get("/api/v2beta6/internal/projects/current", headers)).status).toBe(404);
  });

  it("the demonstration route: each version's query parameter, and v1 does not have it", async () => {
    const cases: [string, number, string | null][] = [
      [`/api/v1${demo}`, 404, null],
      [`/api/v2beta1${demo}`, 200, "n/a"],
      [`/api/v2beta1${demo}?queryParam=1`, 200, "1"],
      [`/api/v2beta1${demo}?queryParamNew=1`, 400, "SCHEMA_ERROR"],
      [`/api/v2beta2${demo}`, 400, "SCHEMA_ERROR"],
      [`/api/v2beta2${demo}?queryParam=2`, 200, "2"],
      [`/api/v2beta3${demo}?queryParamNew=3`, 200, "3"],
      [`/api/v2beta3${demo}?queryParam=3`, 400, "SCHEMA_ERROR"],
      [`/api/v2beta4${demo}`, 200, null],
      [`/api/v2beta4${demo}?queryParamNew=4`, 200, "4"],
      [`/api/v2beta4${demo}?queryParam=4`, 400, "SCHEMA_ERROR"],
      [`/api/latest${demo}?queryParamNew=5`, 200, "5"],
    ];
    for (const [path, status, shown] of cases) {
      const res = await get(path);
      expect(res.status, path).toBe(status);
      if (status === 400) expect(res.code, path).toBe(shown);
      else if (status === 200 && shown) expect(res.text, path).toContain(`The query parameter you passed in is: ${shown}`);
      else if (status === 200) expect(res.text, path).not.toContain("The query parameter you passed in is");
    }
  });
});
