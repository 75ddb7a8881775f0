/**
 * Built-in emails in the reader's language (issue 28): the locale picked from Accept-Language, the
 * catalogue's texts using the same values in every locale, and end to end through the SMTP sink: a
 * request in German gets a German email, Arabic a right-to-left one, an unsupported language the
 * project's default (`doorman.emails.defaultLocale`, English unless set), and an edited template its own text.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { messageRefs } from "../../worker/email-render/message-format";
import { EMAIL_LOCALES, localizedUtcTime, pickEmailLocale } from "../../worker/services/email/locale";
import { EMAIL_MESSAGES } from "../../worker/services/email/messages";
import { call, createProjectWithKeys, signUp, uniqueEmail } from "../helpers/api";
import { codeFrom, sinkEmailConfig, waitForMail } from "../helpers/mail";
import { workerFetch } from "../helpers/worker-fetch";

const CALLBACK = "http://localhost:3000/handler/callback";
const VERIFICATION = "e7d009ce-8d47-4528-b245-5bf119f2ffa3";

describe("pickEmailLocale", () => {
  it("takes the best supported language by quality, by tag then by language", () => {
    expect(pickEmailLocale("de-AT,de;q=0.9,en;q=0.8")).toBe("de");
    expect(pickEmailLocale("en-US,en;q=0.9")).toBe("en");
    expect(pickEmailLocale("fr-CA")).toBe("fr");
    expect(pickEmailLocale("es-419,es;q=0.9")).toBe("es");
    expect(pickEmailLocale("PT-br")).toBe("pt-BR");
    expect(pickEmailLocale("pt-PT")).toBe("pt-BR");
    expect(pickEmailLocale("pt")).toBe("pt-BR");
    expect(pickEmailLocale("zh-CN")).toBe("zh-CN");
    expect(pickEmailLocale("zh")).toBe("zh-CN");
    expect(pickEmailLocale("zh-Hans-HK")).toBe("zh-CN");
    expect(pickEmailLocale("ar-EG,ar;q=0.9")).toBe("ar");
    expect(pickEmailLocale("ja-JP")).toBe("ja");
    expect(pickEmailLocale("ko-KR")).toBe("ko");
    // Quality beats order; q=0 is "not this one"; ties keep the header's order.
    expect(pickEmailLocale("en;q=0.5, ja;q=0.8")).toBe("ja");
    expect(pickEmailLocale("de;q=0, nl")).toBe("nl");
    expect(pickEmailLocale("tr, pl")).toBe("tr");
    // An unsupported language is skipped for the next one.
    expect(pickEmailLocale("sv-SE,sv;q=0.9,it;q=0.5")).toBe("it");
  });

  it("gives Traditional Chinese no Simplified text unless the header asks for zh too", () => {
    expect(pickEmailLocale("zh-TW")).toBeNull();
    expect(pickEmailLocale("zh-Hant")).toBeNull();
    expect(pickEmailLocale("zh-HK,en;q=0.8")).toBe("en");
    expect(pickEmailLocale("zh-TW,zh;q=0.9")).toBe("zh-CN");
  });

  it("answers null for nothing usable", () => {
    for (const header of [null, undefined, "", "*", "sv", "x-klingon", "en;q=0", ";;;,,,", "de-\u00e9", "a".repeat(5000)])
      expect(pickEmailLocale(header), String(header).slice(0, 20)).toBeNull();
  });
});

describe("localizedUtcTime", () => {
  it("writes a notice's UTC time with Intl in the reader's locale, still saying UTC", () => {
    const t = "2025-01-01 13:05 UTC";
    expect(localizedUtcTime(t, "en")).toMatch(/^Jan 1, 2025, 1:05\sPM UTC$/);
    expect(localizedUtcTime(t, "de")).toBe("1. Jan. 2025, 13:05 UTC");
    expect(localizedUtcTime(t, "ja")).toBe("2025年1月1日 13:05 UTC");
    for (const locale of EMAIL_LOCALES) expect(localizedUtcTime(t, locale), locale).toContain("UTC");
    // Anything that is not such a time comes back as it is.
    for (const other of ["", "soon", "2025-13-45 99:99 UTC", "2025-01-01T13:05:00Z"]) expect(localizedUtcTime(other, "de")).toBe(other);
  });
});

describe("the catalogue", () => {
  it("every locale's text uses the same values as the English one", () => {
    const en = EMAIL_MESSAGES.en as unknown as Record<string, Record<string, string>>;
    for (const locale of EMAIL_LOCALES) {
      const texts = EMAIL_MESSAGES[locale] as unknown as Record<string, Record<string, string>>;
      expect(Object.keys(texts).sort(), locale).toEqual(Object.keys(en).sort());
      for (const [group, keys] of Object.entries(en))
        for (const [key, english] of Object.entries(keys)) {
          const text = texts[group]![key]!;
          expect(text.trim().length, `${locale} ${group}.${key}`).toBeGreaterThan(0);
          expect(messageRefs(text).sort(), `${locale} ${group}.${key}`).toEqual(messageRefs(english).sort());
          if (locale !== "en" && !["button"].includes(key)) expect(text, `${locale} ${group}.${key} is not translated`).not.toBe(english);
        }
    }
  });
});

async function projectWithUser(defaultLocale?: string) {
  const p = await createProjectWithKeys({ email_config: sinkEmailConfig(), magic_link_enabled: true });
  if (defaultLocale) {
    const res = await call("/internal/config/override/environment", {
      ...p.admin,
      method: "PATCH",
      body: { config_override_string: JSON.stringify({ "doorman.emails.defaultLocale": defaultLocale }) },
    });
    expect(res.status, res.text).toBe(200);
  }
  const user = await signUp(p.client);
  return { p, user, as: { ...p.client, accessToken: user.accessToken } };
}

const outboxLocale = async (projectId: string) =>
  (
    await env.DB.prepare("SELECT locale FROM email_outbox WHERE project_id = ? ORDER BY created_at DESC LIMIT 1")
      .bind(projectId)
      .first<{ locale: string | null }>()
  )?.locale;

describe("built-in emails in the request's language (through the SMTP sink)", () => {
  it("Accept-Language: de-AT gets a German verification email, text and HTML, that still verifies", async () => {
    const { p, user, as } = await projectWithUser();
    const sent = await call("/contact-channels/send-verification-code", {
      ...as,
      headers: { "accept-language": "de-AT,de;q=0.9,en;q=0.8" },
      body: { email: user.email, callback_url: CALLBACK },
    });
    expect(sent.status, sent.text).toBe(200);
    expect(await outboxLocale(p.projectId)).toBe("de");
    const [mail] = await waitForMail(user.email);
    expect(mail!.subject).toBe("Bestätigen Sie Ihre E-Mail-Adresse bei Test project");
    expect(mail!.html).toContain('<html dir="ltr" lang="de">');
    expect(mail!.html).toContain("Bitte bestätigen Sie, dass diese E-Mail-Adresse Ihnen gehört.");
    expect(mail!.text).toContain("Hallo!");
    // The plain text as the sandbox writes it: the heading upper-cased, the button's label above its link.
    expect(mail!.text).toContain("BESTÄTIGEN SIE IHRE E-MAIL-ADRESSE BEI TEST PROJECT");
    expect(mail!.text).toMatch(/E-Mail-Adresse bestätigen\r?\nhttp:\/\/localhost:3000\/handler\/callback\?code=/);
    expect(mail!.text).toContain("Wenn Sie diese E-Mail nicht erwartet haben");
    expect((await call("/contact-channels/verify", { ...p.client, body: { code: codeFrom(mail!) } })).status).toBe(200);
  });

  it("Accept-Language: ar gets a right-to-left Arabic sign-in code", async () => {
    const { p, user, as } = await projectWithUser();
    // A sign-in code goes only to a verified address.
    await call("/contact-channels/send-verification-code", { ...as, body: { email: user.email, callback_url: CALLBACK } });
    const [verify] = await waitForMail(user.email);
    expect(verify!.subject).toBe("Verify your email at Test project");
    expect((await call("/contact-channels/verify", { ...p.client, body: { code: codeFrom(verify!) } })).status).toBe(200);

    await call("/auth/otp/send-sign-in-code", {
      ...p.client,
      headers: { "accept-language": "ar-SA,ar;q=0.9" },
      body: { email: user.email, callback_url: CALLBACK },
    });
    const mail = (await waitForMail(user.email, 2))[1]!;
    expect(mail.subject).toMatch(/^تسجيل الدخول إلى Test project: رمزك هو [A-Z0-9]{6}$/);
    expect(mail.html).toContain('<html dir="rtl" lang="ar">');
    expect(mail.html).toMatch(/>[A-Z0-9]{6}<\/p>/);
    expect(mail.text).toContain("رمزك الصالح لمرة واحدة أدناه");
  });

  it("an unsupported language falls back to the project's default: English, or doorman.emails.defaultLocale", async () => {
    const english = await projectWithUser();
    await call("/auth/password/send-reset-code", {
      ...english.p.client,
      headers: { "accept-language": "sv-SE,sv;q=0.9" },
      body: { email: english.user.email, callback_url: CALLBACK },
    });
    expect(await outboxLocale(english.p.projectId)).toBeNull();
    const [reset] = await waitForMail(english.user.email);
    expect(reset!.subject).toBe("Reset your password at Test project");

    const japanese = await projectWithUser("ja");
    await call("/auth/password/send-reset-code", {
      ...japanese.p.client,
      headers: { "accept-language": "sv-SE, zh-TW" },
      body: { email: japanese.user.email, callback_url: CALLBACK },
    });
    const [mail] = await waitForMail(japanese.user.email);
    expect(mail!.subject).toBe("Test project のパスワードを再設定してください");
    expect(mail!.html).toContain('<html dir="ltr" lang="ja">');
    // A supported language still wins over the project's default.
    await call("/auth/password/send-reset-code", {
      ...japanese.p.client,
      headers: { "accept-language": "pt-PT" },
      body: { email: japanese.user.email, callback_url: CALLBACK },
    });
    const pt = (await waitForMail(japanese.user.email, 2))[1]!;
    expect(pt.subject).toBe("Redefina sua senha em Test project");
  });

  it("refuses an unknown default locale, as any bad config value", async () => {
    const p = await createProjectWithKeys();
    const res = await call("/internal/config/override/environment", {
      ...p.admin,
      method: "PATCH",
      body: { config_override_string: JSON.stringify({ "doorman.emails.defaultLocale": "tlh" }) },
    });
    expect(res.status).toBe(400);
    expect(res.text).toContain("doorman.emails.defaultLocale");
    const branch = await call("/internal/config/override/branch", {
      ...p.admin,
      method: "PATCH",
      body: { config_override_string: JSON.stringify({ "doorman.emails.defaultLocale": "fr" }) },
    });
    expect(branch.status, branch.text).toBe(200);
  });

  it("an owner's edited template keeps its own text and gets the locale as a prop; the theme still says the language", async () => {
    const { p, user, as } = await projectWithUser();
    const edited = `import { Subject, NotificationCategory } from "@stackframe/emails";
export const variablesSchema = (v) => v;
export function EmailTemplate({ project, variables, locale }) {
  return <><Subject value={"Confirm your address for " + project.displayName + " (" + locale + ")"} /><NotificationCategory value="Transactional" /><a href={variables.emailVerificationLink}>Confirm it</a></>;
}`;
    expect(
      (await call(`/internal/email-templates/${VERIFICATION}`, { ...p.admin, method: "PATCH", body: { tsx_source: edited } })).status,
    ).toBe(200);
    await call("/contact-channels/send-verification-code", {
      ...as,
      headers: { "accept-language": "ko" },
      body: { email: user.email, callback_url: CALLBACK },
    });
    const [mail] = await waitForMail(user.email);
    // Its own text, with the reader's locale as its `locale` prop.
    expect(mail!.subject).toBe("Confirm your address for Test project (ko)");
    expect(mail!.html).toContain('<html dir="ltr" lang="ko">');
  });

  it("team invitations follow the inviting request's language", async () => {
    const p = await createProjectWithKeys({ email_config: sinkEmailConfig() });
    const team = await call("/teams", { ...p.server, body: { display_name: "Rocket Crew" } });
    const invitee = uniqueEmail("invitee");
    const sent = await call("/team-invitations/send-code", {
      ...p.server,
      headers: { "accept-language": "fr-FR,fr;q=0.9" },
      body: { team_id: team.body.id, email: invitee, callback_url: CALLBACK },
    });
    expect(sent.status, sent.text).toBe(200);
    const [mail] = await waitForMail(invitee);
    expect(mail!.subject).toBe("Vous êtes invité à rejoindre Rocket Crew");
    expect(mail!.text).toContain("Rejoindre l’équipe");
  });

  it("the new-sign-in notice follows the sign-in's language, its time written with Intl", async () => {
    const p = await createProjectWithKeys({ email_config: sinkEmailConfig() });
    const user = await signUp(p.client);
    const signIn = (headers: Record<string, string>, country?: string) =>
      workerFetch("http://localhost/api/v1/auth/password/sign-in", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-stack-project-id": p.projectId,
          "x-stack-access-type": "client",
          "x-stack-publishable-client-key": p.client.publishableClientKey,
          ...headers,
        },
        body: JSON.stringify({ email: user.email, password: user.password }),
        ...(country ? { cf: { country } } : {}),
      } as RequestInit);
    // The same device as the sign-up: no notice.
    expect((await signIn({})).status).toBe(200);
    const res = await signIn({ "user-agent": "Firefox/128.0 (ko test)", "accept-language": "ko-KR,ko;q=0.9" }, "KR");
    expect(res.status).toBe(200);
    const [notice] = await waitForMail(user.email);
    expect(notice!.subject).toBe("Test project 계정에 새로운 로그인이 있습니다");
    expect(notice!.text).toContain("기기: Firefox/128.0 (ko test)");
    expect(notice!.text).toContain("위치: KR");
    expect(notice!.text).toMatch(/시간: \d{4}년 \d{1,2}월 \d{1,2}일 (오전|오후) \d{1,2}:\d{2} UTC/);
  });
});
