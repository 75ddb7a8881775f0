/**
 * A user agent as people say it: "Chrome on Linux", "Safari on iOS", "curl". A few ordered patterns
 * rather than a parsing library: the event log, the sessions lists and account settings only name
 * the browser and the system, and this runs unchanged in the worker, the console and browsers.
 * No imports.
 */

// Order matters: Edge, Opera and Samsung Internet also say "Chrome"; Chrome also says "Safari".
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, "Edge"],
  [/\bOPR\/|\bOpera\b/, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\bFirefox\/|\bFxiOS\//, "Firefox"],
  [/\bCriOS\/|Chrom(e|ium)\//, "Chrome"],
  [/\bSafari\//, "Safari"],
  [/^curl\//, "curl"],
  [/^node(-fetch)?\b|\bundici\b/i, "Node.js"],
  [/^Wget\//, "Wget"],
];
// Order matters: Android and ChromeOS also say "Linux"; iOS also says "Mac OS X".
const SYSTEMS: [RegExp, string][] = [
  [/\biPhone\b|\biPod\b/, "iOS"],
  [/\biPad\b/, "iPadOS"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMacintosh\b|\bMac OS X\b/, "macOS"],
  [/\bLinux\b|\bX11\b/, "Linux"],
];

/** The browser and the system a user agent names (either may be missing). */
export function deviceParts(userAgent: string | null | undefined): { browser?: string; system?: string } {
  if (!userAgent) return {};
  return { browser: BROWSERS.find(([re]) => re.test(userAgent))?.[1], system: SYSTEMS.find(([re]) => re.test(userAgent))?.[1] };
}

/** "Chrome on macOS", "Firefox", "Android", or null when the user agent says nothing known. */
export function deviceName(userAgent: string | null | undefined): string | null {
  const { browser, system } = deviceParts(userAgent);
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? null;
}
