/**
 * What an event row says beside its type: the names in its data (the settings a config change
 * touched, the fields of an update; never values), and where it came from ("Chrome on Linux",
 * "local" for a loopback or private address, else the country).
 */
import type { ProjectEvent } from "@doorman/sdk";
import { deviceName } from "@doorman/shared/device-name";
import { isLocalAddress } from "@doorman/shared/local-address";
import { countryLabel } from "../../lib/place";

const names = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v.length > 0) : [];

/** The detail line of an event: "keys: a, b" for a config change, "fields: …" for an update, or null. */
export function eventDetail(e: Pick<ProjectEvent, "type" | "data">): string | null {
  if (!e.data) return null;
  // project.config_changed stores the names of the settings that changed (data.keys), never their values.
  const keys = names(e.data.keys);
  if (keys.length) return `Changed: ${keys.join(", ")}`;
  const fields = names(e.data.fields);
  if (fields.length) return `Fields: ${fields.join(", ")}`;
  return null;
}

/** Where an event came from: the device named from its user agent, and "local" or the country. */
export function eventOrigin(e: Pick<ProjectEvent, "ip" | "countryCode" | "userAgent">): { device: string | null; place: string | null } {
  const device = deviceName(e.userAgent) ?? (e.userAgent ? "Unknown device" : null);
  const place = isLocalAddress(e.ip) ? "local" : countryLabel(e.countryCode);
  return { device, place };
}
