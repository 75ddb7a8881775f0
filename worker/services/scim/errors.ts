/**
 * The SCIM server's expected failures. Its endpoints speak RFC 7644 §3.12 errors (`schemas` Error,
 * `status` as a string, `scimType`, `detail`), never the known-error catalogue: the services return a
 * ScimProblem value (the `fail()` idiom's counterpart for this wire) and routes/scim/respond.ts renders it.
 * The pure helpers that validate deep inside a body throw ScimInputError, which the services turn back
 * into a value at their boundary (toScimProblem).
 */

/** RFC 7644 §3.12 Table 9. */
export type ScimType =
  | "invalidFilter"
  | "tooMany"
  | "uniqueness"
  | "mutability"
  | "invalidSyntax"
  | "invalidPath"
  | "noTarget"
  | "invalidValue"
  | "invalidVers"
  | "sensitive";

export type ScimStatus = 400 | 401 | 403 | 404 | 409 | 412 | 413 | 429 | 500 | 501;

export type ScimProblem = { ok: false; status: ScimStatus; scimType?: ScimType; detail: string; retryAfterSeconds?: number };

/** An expected SCIM failure. The detail is for the IdP's admin: plain text, never a secret. */
export function scimProblem(status: ScimStatus, detail: string, scimType?: ScimType): ScimProblem {
  return { ok: false, status, detail, ...(scimType ? { scimType } : {}) };
}

export const badRequest = (scimType: ScimType, detail: string) => scimProblem(400, detail, scimType);

/** Thrown by the pure body helpers (normalize, patch, paths, filters); caught at the service boundary. */
export class ScimInputError extends Error {
  constructor(readonly problem: ScimProblem) {
    super(problem.detail);
    this.name = "ScimInputError";
  }
}

export function invalid(scimType: ScimType, detail: string): never {
  throw new ScimInputError(badRequest(scimType, detail));
}

/** Runs a pure helper, answering its ScimInputError as a value (anything else stays an exception). */
export function attempt<T>(work: () => T): { ok: true; value: T } | ScimProblem {
  try {
    return { ok: true, value: work() };
  } catch (err) {
    if (err instanceof ScimInputError) return err.problem;
    throw err;
  }
}
