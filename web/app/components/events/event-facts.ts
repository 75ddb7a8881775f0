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

/** A sign-in's risk (issue 29: services/protection/risk.ts): "Risk 75: new_country, impossible_travel"; null when none fired. */
function riskDetail(risk: unknown): string | null {
  if (typeof risk !== "object" || risk === null || !("score" in risk) || typeof risk.score !== "number") return null;
  const signals = names((risk as { signals?: unknown }).signals);
  return signals.length ? `Risk ${risk.score}: ${signals.join(", ")}` : null;
}

/**
 * The detail line of an event: "keys: a, b" for a config change, "fields: …" for an update, a sign-in's
 * or device check's risk score and signals, or null.
 */
export function eventDetail(e: Pick<ProjectEvent, "type" | "data">): string | null {
  if (!e.data) return null;
  // project.config_changed stores the names of the settings that changed (data.keys), never their values.
  const keys = names(e.data.keys);
  if (keys.length) return `Changed: ${keys.join(", ")}`;
  const fields = names(e.data.fields);
  if (fields.length) return `Fields: ${fields.join(", ")}`;
  return riskDetail(e.data.risk);
}

/** Where an event came from: the device named from its user agent, and "local" or the country. */
export function eventOrigin(e: Pick<ProjectEvent, "ip" | "countryCode" | "userAgent">): { device: string | null; place: string | null } {
  const device = deviceName(e.userAgent) ?? (e.userAgent ? "Unknown device" : null);
  const place = isLocalAddress(e.ip) ? "local" : countryLabel(e.countryCode);
  return { device, place };
}
