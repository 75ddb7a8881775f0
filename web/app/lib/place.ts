/**
 * Where an IP address is, as the console says it: "local" for loopback and private addresses
 * (a development server geolocates them somewhere invented, such as "Austin, TX"), else city,
 * region and country from the API's IP info.
 */
import { isLocalAddress } from "@doorman/shared/local-address";

const text = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : null);

/** The country's name ("Germany" for DE), or the code where the runtime has no name for it; null for no code. */
export function countryLabel(code: string | null | undefined): string | null {
  const country = text(code)?.toUpperCase() ?? null;
  if (!country) return null;
  try {
    return new Intl.DisplayNames(["en"], { type: "region" }).of(country) ?? country;
  } catch {
    return country;
  }
}

/** "local" for a loopback or private address; else "City, Region, Country" from the IP info, or null when it says nothing. */
export function placeOf(ip: string | null | undefined, info: Record<string, unknown> | null | undefined): string | null {
  if (isLocalAddress(ip)) return "local";
  const geo = info ?? {};
  const parts = [text(geo.cityName), text(geo.regionCode), countryLabel(text(geo.countryCode))].filter((p): p is string => p !== null);
  return parts.length ? parts.join(", ") : null;
}
