/** Configuration guards of the worker itself. */
import { describe, expect, it } from "vitest";
import type { Env } from "../../worker/env";
import { serverSecret } from "../../worker/lib/context";

describe("SERVER_SECRET", () => {
  const base = {} as Env;
  it("uses the configured secret", () => {
    expect(serverSecret({ ...base, SERVER_SECRET: "s3cret", ENVIRONMENT: "production" })).toBe("s3cret");
  });
  it("falls back to the public dev value only in development", () => {
    expect(serverSecret({ ...base, ENVIRONMENT: "development" })).toMatch(/development/);
  });
  it("refuses to run without a secret outside development", () => {
    expect(() => serverSecret({ ...base, ENVIRONMENT: "production" })).toThrow(/SERVER_SECRET is not configured/);
    expect(() => serverSecret(base)).toThrow(/SERVER_SECRET is not configured/);
  });
});
