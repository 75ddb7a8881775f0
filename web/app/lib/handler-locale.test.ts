// The hosted pages' language from the request (docs/i18n.md): Accept-Language into the SDK's
// locales (the loader sends that locale's catalogue with the page).
import { describe, expect, it } from "vitest";
import { requestLocale } from "./handler-data.server";

const request = (acceptLanguage?: string) =>
  new Request("https://auth.example/handler/sign-in", acceptLanguage ? { headers: { "accept-language": acceptLanguage } } : {});

describe("requestLocale", () => {
  it("picks the best shipped locale for Accept-Language", () => {
    expect(requestLocale(request("ar-EG,ar;q=0.9,en;q=0.8"))).toBe("ar");
    expect(requestLocale(request("de-AT,de;q=0.9"))).toBe("de");
    expect(requestLocale(request("pt-PT,pt;q=0.9"))).toBe("pt-BR");
    expect(requestLocale(request("sv-SE,fi;q=0.5,fr;q=0.3"))).toBe("fr");
  });

  it("is English without the header, or when nothing fits", () => {
    expect(requestLocale(request())).toBe("en");
    expect(requestLocale(request("sv, fi"))).toBe("en");
    expect(requestLocale(request("zh-TW"))).toBe("en");
  });
});
