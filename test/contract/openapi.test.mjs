// The OpenAPI document (the one /api/v1/openapi.json serves) passes a well-kept OpenAPI 3.1
// validator (@seriousme/openapi-schema-validator, the official JSON schemas).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { Validator } from "@seriousme/openapi-schema-validator";

const root = resolve(import.meta.dirname, "../..");

let built = null;
function buildDocument() {
  built ??= generate();
  return built;
}

function generate() {
  const dir = mkdtempSync(join(tmpdir(), "doorman-openapi-"));
  try {
    const file = join(dir, "openapi.json");
    const r = spawnSync(process.execPath, [join(root, "scripts/gen-api-doc.mjs"), "--json", file], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(readFileSync(file, "utf8"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("the OpenAPI document is valid OpenAPI 3.1", async () => {
  const doc = buildDocument();
  assert.equal(doc.openapi, "3.1.0");
  const validator = new Validator();
  const result = await validator.validate(doc);
  assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2)?.slice(0, 4000));
  assert.equal(validator.version, "3.1");
});

test("every operation names its access levels and has a summary", () => {
  const doc = buildDocument();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      assert.ok(op.summary, `${method} ${path} has no summary`);
      assert.ok(op["x-doorman-access"]?.length, `${method} ${path} has no access levels`);
    }
  }
});
