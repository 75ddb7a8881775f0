/**
 * The hosted pages in the reader's language (issue 28), last in the browser e2e: the browser asks
 * for German, then Arabic (Accept-Language, as a browser set to that language sends it). A new
 * user signs up in German and uses account settings' section navigation by keyboard, with dates
 * in German; the same page and the sign-in page in Arabic lay out right to left (<html dir="rtl">)
 * and pass axe at 1100 and 375 px; both are screenshotted. Without the header, English again.
 */
import { join } from "node:path";
import { checkPage } from "./a11y-scenario.mjs";
import { assert, expectFocused } from "./harness.mjs";

const GERMAN = "de-DE,de;q=0.9,en;q=0.5";
const ARABIC = "ar-EG,ar;q=0.9,en;q=0.5";

export function defineI18nSteps(runner, { page, origin, shots }) {
  const shot = (name) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  const input = (label) => page.getByLabel(label, { exact: true });
  /** Reads the document's language and direction, and the card's computed direction. */
  const direction = () =>
    page.evaluate(() => ({
      lang: document.documentElement.lang,
      dir: document.documentElement.dir,
      card: getComputedStyle(document.querySelector(".stack-card") ?? document.body).direction,
    }));
  const speak = (language) => page.setExtraHTTPHeaders(language ? { "Accept-Language": language } : {});
  const email = `i18n-${Date.now().toString(36)}@example.com`;

  runner.step("i18n: a German browser signs up in German and lands on German account settings", async () => {
    await page.goto(`${origin}/handler/sign-out`);
    await page.waitForURL((url) => url.pathname === "/handler/sign-in" || url.pathname === "/");
    await speak(GERMAN);
    await page.goto(`${origin}/handler/sign-up`);
    await page.getByRole("heading", { name: "Konto erstellen" }).waitFor();
    assert.deepEqual(await direction(), { lang: "de", dir: "ltr", card: "ltr" });
    assert.match(await page.title(), /^Registrieren · Doorman$/);
    // A client-side check in German: the page hydrated with the same catalogue the server used.
    await input("E-Mail").fill("keine-adresse");
    await page.getByRole("button", { name: "Registrieren", exact: true }).click();
    await page.getByText("Bitte gib eine gültige E-Mail-Adresse ein.").waitFor();
    assert.equal(await input("E-Mail").getAttribute("aria-invalid"), "true");
    await shot("i18n-01-sign-up-de");
    await input("E-Mail").fill(email);
    await input("Passwort").fill("ein-langes-passwort-1");
    await input("Passwort wiederholen").fill("ein-langes-passwort-1");
    await page.getByRole("button", { name: "Registrieren", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/handler/account-settings");
    await page.getByRole("heading", { name: "Kontoeinstellungen" }).waitFor();
  });

  runner.step("i18n: account settings' section navigation works by keyboard; dates are German", async () => {
    const nav = page.getByRole("navigation", { name: "Bereiche der Kontoeinstellungen" });
    for (const name of ["Profil", "Passwort", "Zwei-Faktor-Authentifizierung", "Sitzungen", "Letzte Aktivitäten", "Teams"]) {
      await nav.getByRole("link", { name, exact: true }).waitFor();
    }
    await nav.getByRole("link", { name: "Sitzungen", exact: true }).focus();
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => url.hash === "#stack-sessions-heading");
    await expectFocused(page.getByRole("heading", { name: "Sitzungen" }), "the link moves focus to its section's heading");

    await page
      .getByText(/Angemeldet am \d{1,2}\.\d{1,2}\.\d{4}/)
      .first()
      .waitFor();
    await page.getByRole("heading", { name: "Sitzungen" }).waitFor();
  });

  runner.step("i18n: in Arabic, account settings lay out right to left and pass axe", async () => {
    await speak(ARABIC);
    try {
      await page.goto(`${origin}/handler/account-settings`);
      await page.getByRole("heading", { name: "إعدادات الحساب" }).waitFor();
      await page.getByRole("navigation", { name: "أقسام إعدادات الحساب" }).getByRole("link", { name: "الجلسات" }).waitFor();
      assert.deepEqual(await direction(), { lang: "ar", dir: "rtl", card: "rtl" });
      await shot("i18n-02-account-settings-ar");
      assert.deepEqual(await checkPage(page, "/handler/account-settings (ar)"), []);
    } finally {
      await speak(null);
    }
  });

  runner.step("i18n: the Arabic sign-in page is right to left, hydrates in Arabic and passes axe", async () => {
    await page.goto(`${origin}/handler/sign-out`);
    await page.waitForURL((url) => url.pathname === "/handler/sign-in" || url.pathname === "/");
    await speak(ARABIC);
    try {
      await page.goto(`${origin}/handler/sign-in`);
      await page.getByRole("heading", { name: "سجّل الدخول إلى حسابك" }).waitFor();
      assert.deepEqual(await direction(), { lang: "ar", dir: "rtl", card: "rtl" });
      assert.match(await page.title(), /^تسجيل الدخول · Doorman$/);
      await shot("i18n-03-sign-in-ar");
      assert.deepEqual(await checkPage(page, "/handler/sign-in (ar)"), []);
      await input("البريد الإلكتروني").fill("ليس-بريدًا");
      await page.getByRole("button", { name: "تسجيل الدخول", exact: true }).click();
      await page.getByText("يُرجى إدخال عنوان بريد إلكتروني صالح.").waitFor();
      await shot("i18n-04-sign-in-ar-error");
    } finally {
      await speak(null);
    }
    // The browser's own language again (Chromium sends en-US): English, left to right.
    await page.goto(`${origin}/handler/sign-in`);
    await page.getByRole("heading", { name: "Sign in to your account" }).waitFor();
    assert.deepEqual(await direction(), { lang: "en", dir: "ltr", card: "ltr" });
  });
}
