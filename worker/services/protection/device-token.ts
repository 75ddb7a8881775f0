/**
 * What makes a device known (new-device verification, issue 29): a long-lived random device token the
 * SDK keeps (a browser cookie, or memory on a server) and sends in `x-doorman-device-token`, plus the
 * user-agent family ("Chrome/macOS") from the shared small matcher (sdk/src/shared/device-name.ts).
 * Also the request's coordinates, with their development-only header override.
 */
import { deviceParts } from "@doorman/shared/device-name";
import { sha256Hex } from "../../crypto/hash";
import type { Deps } from "../deps";

export { DEVICE_TOKEN_HEADER } from "@doorman/shared/constants";

/** 43 Crockford characters = 215 random bits: unguessable, and short enough for a cookie. */
const TOKEN_LENGTH = 43;
const TOKEN_SHAPE = /^[0-9a-z]{20,128}$/i;

/** The header's token if it is well-formed, else null (a malformed one is treated as none). */
export function readDeviceToken(header: string | undefined | null): string | null {
  const token = header?.trim();
  return token && TOKEN_SHAPE.test(token) ? token : null;
}

export function newDeviceToken(deps: Deps): string {
  return deps.random.code(TOKEN_LENGTH);
}

/** The stored form of a device token. Why: a database leak must not let anyone present a known device. */
export function deviceHashOf(token: string): Promise<string> {
  return sha256Hex(`doorman-device:${token.toLowerCase()}`);
}

/** "Chrome/macOS"; "?" for a part the user agent does not name (a script's bare agent is "?/?"). */
export function userAgentFamily(userAgent: string | null | undefined): string {
  const { browser, system } = deviceParts(userAgent);
  return `${browser ?? "?"}/${system ?? "?"}`;
}

export function numberOrNull(value: unknown): number | null {
  if (value === undefined || value === null || value === "") return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/** Development only (the caller checks): the test suites' stand-in for request.cf.latitude/longitude. */
export function devCoordinates(header: (name: string) => string | undefined): { latitude: number | null; longitude: number | null } | null {
  const latitude = numberOrNull(header("x-doorman-dev-latitude"));
  const longitude = numberOrNull(header("x-doorman-dev-longitude"));
  if (latitude === null || longitude === null || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  return { latitude, longitude };
}
