/** Geo information of the caller from Cloudflare's request.cf (empty locally). */
import type { Context } from "hono";

export function ipInfoOf(c: Context): Record<string, unknown> | null {
  const ip = c.req.header("cf-connecting-ip") ?? c.req.header("x-real-ip") ?? null;
  const cf = (c.req.raw as Request & { cf?: Record<string, unknown> }).cf;
  if (!ip && !cf) return null;
  return {
    ip: ip ?? "unknown",
    countryCode: cf?.country ?? null,
    regionCode: cf?.regionCode ?? null,
    cityName: cf?.city ?? null,
    latitude: cf?.latitude !== undefined ? Number(cf.latitude) : null,
    longitude: cf?.longitude !== undefined ? Number(cf.longitude) : null,
    tzIdentifier: cf?.timezone ?? null,
  };
}
