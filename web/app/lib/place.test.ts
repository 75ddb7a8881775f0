import { isLocalAddress } from "@doorman/shared/local-address";
import { describe, expect, it } from "vitest";
import { countryLabel, placeOf } from "./place";

describe("isLocalAddress", () => {
  it("is true for loopback and private addresses, IPv4 and IPv6", () => {
    for (const ip of [
      "127.0.0.1",
      "127.1.2.3",
      "10.0.0.7",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.20",
      "169.254.10.1",
      "::1",
      "[::1]",
      "::ffff:127.0.0.1",
      "::ffff:192.168.0.4",
      "fd12:3456:789a::1",
      "fe80::1",
      "localhost",
    ])
      expect(isLocalAddress(ip), ip).toBe(true);
  });
  it("is false for public addresses and for what is no address", () => {
    for (const ip of [
      "8.8.8.8",
      "172.32.0.1",
      "172.15.0.1",
      "192.169.0.1",
      "2606:4700::1111",
      "::ffff:8.8.8.8",
      "999.1.1.1",
      "unknown",
      "",
      null,
    ])
      expect(isLocalAddress(ip), String(ip)).toBe(false);
  });
});

describe("placeOf", () => {
  it("says local for a loopback address, whatever the geolocation claims", () => {
    expect(placeOf("127.0.0.1", { cityName: "Austin", regionCode: "TX", countryCode: "US" })).toBe("local");
    expect(placeOf("::1", null)).toBe("local");
  });
  it("joins city, region and country name for a public address", () => {
    expect(placeOf("8.8.8.8", { cityName: "Austin", regionCode: "TX", countryCode: "US" })).toBe("Austin, TX, United States");
    expect(placeOf("8.8.8.8", { countryCode: "de" })).toBe("Germany");
  });
  it("is null when nothing is known", () => {
    expect(placeOf(null, null)).toBeNull();
    expect(placeOf("8.8.8.8", { cityName: " " })).toBeNull();
  });
  it("countryLabel keeps a code the runtime cannot name", () => {
    expect(countryLabel("FR")).toBe("France");
    expect(countryLabel(null)).toBeNull();
  });
});
