import { deviceName } from "@doorman/shared/device-name";
import { describe, expect, it } from "vitest";
import { eventDetail, eventOrigin } from "./event-facts";

const UA = {
  chromeLinux: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  headlessLinux: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
  chromeMac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  edgeWindows:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86",
  firefoxWindows: "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
  safariIphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  chromeIphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1",
  samsungAndroid:
    "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36",
  operaMac:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0",
  chromeOs: "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
};

describe("deviceName", () => {
  it("names the browser and the system", () => {
    expect(deviceName(UA.chromeLinux)).toBe("Chrome on Linux");
    expect(deviceName(UA.chromeMac)).toBe("Chrome on macOS");
    expect(deviceName(UA.edgeWindows)).toBe("Edge on Windows");
    expect(deviceName(UA.firefoxWindows)).toBe("Firefox on Windows");
    expect(deviceName(UA.safariIphone)).toBe("Safari on iOS");
    expect(deviceName(UA.chromeIphone)).toBe("Chrome on iOS");
    expect(deviceName(UA.samsungAndroid)).toBe("Samsung Internet on Android");
    expect(deviceName(UA.operaMac)).toBe("Opera on macOS");
    expect(deviceName(UA.chromeOs)).toBe("Chrome on ChromeOS");
  });
  it("names tools, and says null for nothing known", () => {
    expect(deviceName("curl/8.5.0")).toBe("curl");
    expect(deviceName("node")).toBe("Node.js");
    expect(deviceName("undici")).toBe("Node.js");
    expect(deviceName("SomeBot/1.0")).toBeNull();
    expect(deviceName(null)).toBeNull();
    expect(deviceName("")).toBeNull();
  });
});

describe("eventDetail", () => {
  it("lists the keys a config change touched, never values", () => {
    expect(eventDetail({ type: "project.config_changed", data: { keys: ["display_name", "sign_up_enabled"] } })).toBe(
      "Changed: display_name, sign_up_enabled",
    );
  });
  it("lists the fields of an update; nothing for other data", () => {
    expect(eventDetail({ type: "user.updated", data: { fields: ["display_name"] } })).toBe("Fields: display_name");
    expect(eventDetail({ type: "sign_in.succeeded", data: { method: "password", session_id: "s" } })).toBeNull();
    expect(eventDetail({ type: "team.created", data: null })).toBeNull();
  });
  it("shows a sign-in's risk score and the signals that fired (issue 29)", () => {
    const risk = { score: 75, signals: ["new_country", "impossible_travel"] };
    expect(eventDetail({ type: "device.verification_required", data: { method: "password", risk } })).toBe(
      "Risk 75: new_country, impossible_travel",
    );
    expect(eventDetail({ type: "sign_in.succeeded", data: { method: "password", risk: { score: 0, signals: [] } } })).toBeNull();
  });
});

describe("eventOrigin", () => {
  it("names the device and says local for a loopback address", () => {
    expect(eventOrigin({ ip: "127.0.0.1", countryCode: "US", userAgent: UA.headlessLinux })).toEqual({
      device: "Chrome on Linux",
      place: "local",
    });
  });
  it("names the country of a public address; an unknown agent is an unknown device", () => {
    expect(eventOrigin({ ip: "8.8.8.8", countryCode: "DE", userAgent: "SomeBot/1.0" })).toEqual({
      device: "Unknown device",
      place: "Germany",
    });
    expect(eventOrigin({ ip: null, countryCode: null, userAgent: null })).toEqual({ device: null, place: null });
  });
});
