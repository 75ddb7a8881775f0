/** Result values for expected failures (as the Stack SDK returns them): `{status:"ok"}` or `{status:"error"}`. */
import type { KnownError } from "../shared/known-errors";

export type Result<T, E = KnownError> = { status: "ok"; data: T } | { status: "error"; error: E };

export const ok = <T>(data: T): Result<T, never> => ({ status: "ok", data });
export const err = <E>(error: E): Result<never, E> => ({ status: "error", error });
