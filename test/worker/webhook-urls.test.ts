/**
 * The URL rule for webhooks and the assistant's provider (worker/services/webhooks/urls.ts), as a
 * table: IPv4 written inside IPv6 (compatible, mapped, translated, NAT64, 6to4) is judged as the IPv4
 * address it carries, and single-label and metadata names are refused.
 */
import { describe, expect, it } from "vitest";
import { checkWebhookUrl, isInternalHost } from "../../worker/services/webhooks/urls";

describe("isInternalHost", () => {
  it.each([
    // IPv4
    ["127.0.0.1", true],
    ["10.0.0.1", true],
    ["169.254.169.254", true],
    ["8.8.8.8", false],
    // IPv6 itself
    ["[::1]", true],
    ["[::]", true],
    ["[fd00::1]", true],
    ["[fe80::1]", true],
    ["[2606:4700::1111]", false],
    // IPv4-compatible (::a.b.c.d)
    ["[::127.0.0.1]", true],
    ["[::7f00:1]", true],
    ["[::8.8.8.8]", false],
    // IPv4-mapped (::ffff:a.b.c.d) and IPv4-translated (::ffff:0:a.b.c.d)
    ["[::ffff:127.0.0.1]", true],
    ["[::ffff:7f00:1]", true],
    ["[::ffff:0:127.0.0.1]", true],
    ["[::ffff:0:a9fe:a9fe]", true],
    ["[::ffff:8.8.8.8]", false],
    // NAT64: 64:ff9b::/96 and 64:ff9b:1::/48
    ["[64:ff9b::127.0.0.1]", true],
    ["[64:ff9b::a00:1]", true],
    ["[64:ff9b::8.8.8.8]", false],
    ["[64:ff9b:1::7f00:1]", true],
    ["[64:ff9b:1:0:0:0:a9fe:a9fe]", true],
    // 6to4: 2002:AABB:CCDD::/48 carries AA.BB.CC.DD
    ["[2002:7f00:1::]", true],
    ["[2002:a9fe:a9fe::1]", true],
    ["[2002:808:808::1]", false],
    // Teredo (2001:0::/32) and the documentation and discard ranges
    ["[2001::1]", true],
    ["[2001:db8::1]", true],
    ["[100::1]", true],
    // names
    ["localhost", true],
    ["api.localhost", true],
    ["instance-data", true],
    ["instance-data.ec2.internal", true],
    ["metadata", true],
    ["metadata.google.internal", true],
    ["metadata.goog", true],
    ["intranet", true],
    ["printer.local", true],
    ["router.home.arpa", true],
    ["2130706433", true],
    ["0x7f000001", true],
    ["hooks.example.com", false],
    ["example.com.", false],
  ])("%s → internal: %s", (host, internal) => {
    expect(isInternalHost(host)).toBe(internal);
  });

  it("the URL parser's own spellings are judged the same", () => {
    for (const raw of [
      "https://[::127.0.0.1]/",
      "https://[::ffff:0:127.0.0.1]/",
      "https://[64:ff9b::127.0.0.1]/",
      "https://[2002:7f00:1::]/",
    ])
      expect(checkWebhookUrl(raw, { development: false }).ok, raw).toBe(false);
    expect(checkWebhookUrl("https://instance-data/latest", { development: false }).ok).toBe(false);
    expect(checkWebhookUrl("https://[2606:4700:4700::1111]/hook", { development: false }).ok).toBe(true);
    expect(checkWebhookUrl("https://hooks.example.com/hook", { development: false }).ok).toBe(true);
  });
});
