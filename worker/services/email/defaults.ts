/**
 * The built-in email themes and templates: TSX sources in the reference's format (a theme exports
 * `EmailTheme({ children, unsubscribeLink })`; a template exports `variablesSchema`,
 * `EmailTemplate({ user, project, variables })` with `<Subject>` and `<NotificationCategory>`),
 * under the reference's ids, so the reference's ids and variable names work against Doorman.
 * Every email Doorman sends renders through one of these, or the project's edited version. The
 * built-in templates' texts come from one catalogue in every locale (messages/); the config and the
 * editor hold the English sources, and an email to a reader of another locale renders that locale's
 * sources (builtInTemplateSource, builtInThemeSource) unless the project edited the template.
 */
import { messageRefPath, messageSlot, parseMessage } from "../../email-render/message-format";
import { DEFAULT_EMAIL_LOCALE, type EmailLocale, textDirection } from "./locale";
import { EMAIL_MESSAGES } from "./messages";

export type EmailThemeSource = { displayName: string; tsxSource: string };
/** `themeId`: a theme id; `false` = no theme; absent or null = the project's active theme. */
export type EmailTemplateSource = { displayName: string; tsxSource: string; themeId?: string | false | null };

export const DEFAULT_EMAIL_THEME_ID = "1df07ae6-abf3-4a40-83a5-a1a2cbe336ac";
export const DARK_EMAIL_THEME_ID = "a0172b5d-cff0-463b-83bb-85124697373a";

/**
 * What a built-in source is written for: a locale (its texts from messages/, its `lang` and `dir`),
 * or "probe", the build's form with a slot in place of every text (scripts/build-email-built-ins.mjs).
 */
export type SourceLocale = EmailLocale | "probe";

/** The theme's <Html>: English keeps react-email's defaults (lang="en" dir="ltr"), the others say theirs. */
function htmlTag(locale: SourceLocale): string {
  if (locale === "probe") return `<Html lang={${JSON.stringify(messageSlot("lang"))}} dir={${JSON.stringify(messageSlot("dir"))}}>`;
  return locale === DEFAULT_EMAIL_LOCALE ? "<Html>" : `<Html lang="${locale}" dir="${textDirection(locale)}">`;
}

function themeSource(body: string, card: string, muted: string, locale: SourceLocale = DEFAULT_EMAIL_LOCALE): string {
  return `import { Html, Head, Tailwind, Body, Container, Section, Link } from "@react-email/components";

export function EmailTheme({ children, unsubscribeLink }: { children: React.ReactNode; unsubscribeLink?: string }) {
  return (
    ${htmlTag(locale)}
      <Head />
      <Tailwind>
        <Body className="${body} font-sans text-base m-0 px-4 py-8">
          <Container className="${card} rounded-lg p-[40px] mx-auto max-w-[600px]">
            {children}
          </Container>
          {unsubscribeLink && (
            <Section className="text-center text-xs ${muted} p-4">
              <Link href={unsubscribeLink} className="${muted} underline">Unsubscribe</Link> from emails like this one.
            </Section>
          )}
        </Body>
      </Tailwind>
    </Html>
  );
}

EmailTheme.PreviewProps = { unsubscribeLink: "https://example.com/unsubscribe" };
`;
}

const THEME_STYLES: Readonly<Record<string, { displayName: string; colors: [body: string, card: string, muted: string] }>> = {
  [DEFAULT_EMAIL_THEME_ID]: { displayName: "Default Light", colors: ["bg-[#f5f6fa] text-[#1f2937]", "bg-white", "text-[#6b7280]"] },
  [DARK_EMAIL_THEME_ID]: { displayName: "Default Dark", colors: ["bg-[#1f2023] text-white", "bg-black", "text-[#9ca3af]"] },
};

/** A built-in theme's source for a locale (its <Html lang dir>); undefined for an id that is no built-in theme. */
export function builtInThemeSource(themeId: string, locale: SourceLocale): string | undefined {
  const style = Object.hasOwn(THEME_STYLES, themeId) ? THEME_STYLES[themeId] : undefined;
  return style ? themeSource(...style.colors, locale) : undefined;
}

export const DEFAULT_EMAIL_THEMES: Readonly<Record<string, EmailThemeSource>> = Object.fromEntries(
  Object.entries(THEME_STYLES).map(([id, style]) => [id, { displayName: style.displayName, tsxSource: themeSource(...style.colors) }]),
);

/** Older configs named the themes instead of giving their ids. */
export const LEGACY_THEME_NAMES: Readonly<Record<string, string>> = {
  "default-light": DEFAULT_EMAIL_THEME_ID,
  "default-dark": DARK_EMAIL_THEME_ID,
};

/** A new theme starts as a copy of the light theme (as in the reference). */
export const NEW_THEME_SOURCE = DEFAULT_EMAIL_THEMES[DEFAULT_EMAIL_THEME_ID]!.tsxSource;

export const BUILT_IN_TEMPLATE_IDS = {
  email_verification: "e7d009ce-8d47-4528-b245-5bf119f2ffa3",
  password_reset: "a70fb3a4-56c1-4e42-af25-49d25603abd0",
  magic_link: "822687fe-8d0a-4467-a0d1-416b6e639478",
  team_invitation: "e84de395-2076-4831-9c19-8e9a96a868e4",
  sign_in_invitation: "066dd73c-36da-4fd0-b6d6-ebf87683f8bc",
  password_changed: "4758b098-9952-4083-816a-360d0aea53ef",
  new_sign_in: "dec2a601-c073-4367-b01c-2e616d2f9fa0",
  /** Doorman's own: password sign-in locked after too many wrong passwords. */
  sign_in_locked: "5f0c9a7e-3b1d-4e62-9a8f-2c7d41b6e0a3",
  /** A paid one-time purchase or subscription invoice (Stripe's webhook), as the reference. */
  payment_receipt: "70372aee-0441-4d80-974c-2e858e40123a",
  /** A subscription's invoice Stripe gave up collecting, as the reference. */
  payment_failed: "f64b1afe-27ec-4a28-a277-7178f3261f9a",
  /** Doorman's own (issue 29): the code a password sign-in from an unknown device waits for. */
  device_verification: "b3e1c2d4-6f7a-4b8c-9d0e-1f2a3b4c5d6e",
} as const;

export type BuiltInEmailKind = keyof typeof BUILT_IN_TEMPLATE_IDS;

/**
 * The texts a built-in email of a kind is written with in a locale, by the key of its slot: the
 * shared greeting and footnote, the kind's own texts, and the theme's `lang` and `dir`.
 */
export function builtInTexts(kind: BuiltInEmailKind, locale: EmailLocale): Record<string, string> {
  const m = EMAIL_MESSAGES[locale];
  return { lang: locale, dir: textDirection(locale), ...m.common, ...m[kind] };
}

/** A message as a JS string expression: "Sign in to {project}" → `"Sign in to " + project.displayName`. */
function messageExpression(message: string): string {
  const pieces = parseMessage(message)
    .map((part, i) => (i % 2 === 1 ? messageRefPath(part) : part === "" ? null : JSON.stringify(part)))
    .filter((p): p is string => p !== null);
  if (pieces.length === 0) return '""';
  return pieces.length === 1 && !pieces[0]!.startsWith('"') ? `String(${pieces[0]})` : pieces.join(" + ");
}

const BUTTON_CLASS = "bg-[#4338ca] text-white text-sm font-bold rounded-md px-5 py-3 no-underline";

/** How a built-in template is laid out; its texts come from the catalogue (messages/) by key. */
type TemplateShape = {
  displayName: string;
  schema: string;
  preview: string;
  /** The action button's link (its label is the `button` text). */
  buttonHref?: string;
  /** The kind has a `footnote` text of its own (else the shared `ignore`). */
  ownFootnote?: boolean;
  /** More body after the paragraph; `t(key)` is a text's expression. */
  extra?: (t: (key: string) => string) => string;
};

const TEMPLATE_SHAPES: Readonly<Record<BuiltInEmailKind, TemplateShape>> = {
  email_verification: {
    displayName: "Email Verification",
    schema: `{ emailVerificationLink: "string" }`,
    buttonHref: "variables.emailVerificationLink",
    preview: `{ emailVerificationLink: "https://example.com/verify?code=preview" }`,
  },
  password_reset: {
    displayName: "Password Reset",
    schema: `{ passwordResetLink: "string" }`,
    buttonHref: "variables.passwordResetLink",
    preview: `{ passwordResetLink: "https://example.com/reset?code=preview" }`,
  },
  magic_link: {
    displayName: "Magic Link/OTP",
    schema: `{ magicLink: "string", otp: "string" }`,
    extra: () => `
        <Text className="text-2xl font-mono font-bold text-center m-0 pb-4">{variables.otp}</Text>`,
    buttonHref: "variables.magicLink",
    preview: `{ magicLink: "https://example.com/magic?code=preview", otp: "3SLSWZ" }`,
  },
  team_invitation: {
    displayName: "Team Invitation",
    schema: `{ teamDisplayName: "string", teamInvitationLink: "string" }`,
    buttonHref: "variables.teamInvitationLink",
    preview: `{ teamDisplayName: "My Team", teamInvitationLink: "https://example.com/invite?code=preview" }`,
  },
  sign_in_invitation: {
    displayName: "Sign In Invitation",
    schema: `{ signInInvitationLink: "string", teamDisplayName: "string" }`,
    buttonHref: "variables.signInInvitationLink",
    preview: `{ signInInvitationLink: "https://example.com/sign-in", teamDisplayName: "My Team" }`,
  },
  password_changed: {
    displayName: "Password Changed",
    schema: `{}`,
    ownFootnote: true,
    preview: `{}`,
  },
  new_sign_in: {
    displayName: "New Sign-in From an Unknown Device",
    schema: `{ signInDevice: "string", signInLocation: "string", signInTime: "string" }`,
    extra: (t) => `
        <Text className="text-sm text-center m-0 pb-4">
          {${t("device")}}<br />
          {${t("location")}}<br />
          {${t("time")}}
        </Text>`,
    ownFootnote: true,
    preview: `{ signInDevice: "Chrome on macOS", signInLocation: "DE", signInTime: "2025-01-01 12:00 UTC" }`,
  },
  device_verification: {
    displayName: "New Device Verification Code",
    schema: `{ otp: "string" }`,
    extra: () => `
        <Text className="text-2xl font-mono font-bold text-center m-0 pb-4">{variables.otp}</Text>`,
    ownFootnote: true,
    preview: `{ otp: "3SLSWZ" }`,
  },
  sign_in_locked: {
    displayName: "Password Sign-in Locked",
    schema: `{ lockedUntil: "string" }`,
    ownFootnote: true,
    preview: `{ lockedUntil: "2025-01-01 13:00 UTC" }`,
  },
  payment_receipt: {
    displayName: "Payment Receipt",
    schema: `{ productName: "string", quantity: "number", amount: "string", "receiptLink?": "string" }`,
    extra: (t) => `
        <Text className="text-base font-bold text-center m-0 pb-2">{${t("total")}}</Text>
        <Text className="text-sm text-center m-0 pb-4">{${t("quantity")}}</Text>
        {variables.receiptLink ? (
          <Section className="text-center py-3">
            <Button href={variables.receiptLink} className="${BUTTON_CLASS}">
              {${t("button")}}
            </Button>
          </Section>
        ) : null}`,
    ownFootnote: true,
    preview: `{ productName: "Pro Plan", quantity: 1, amount: "USD 29.00", receiptLink: "https://example.com/receipt" }`,
  },
  payment_failed: {
    displayName: "Payment Failed",
    schema: `{ productName: "string", amount: "string", "invoiceUrl?": "string", "failureReason?": "string" }`,
    extra: (t) => `
        {variables.failureReason ? <Text className="text-sm text-center m-0 pb-4">{variables.failureReason}</Text> : null}
        {variables.invoiceUrl ? (
          <Section className="text-center py-3">
            <Button href={variables.invoiceUrl} className="${BUTTON_CLASS}">
              {${t("button")}}
            </Button>
          </Section>
        ) : null}`,
    ownFootnote: true,
    preview: `{ productName: "Pro Plan", amount: "USD 29.00", invoiceUrl: "https://example.com/invoice" }`,
  },
};

/**
 * A built-in template's TSX in a locale: heading, greeting, a paragraph, an optional action, and the
 * footnote, each text a JS string expression written from the catalogue (or, for "probe", its slot).
 */
export function builtInTemplateSource(kind: BuiltInEmailKind, locale: SourceLocale): string {
  const shape = TEMPLATE_SHAPES[kind];
  const texts = locale === "probe" ? null : builtInTexts(kind, locale);
  const t = (key: string) => {
    if (!texts) return JSON.stringify(messageSlot(key));
    const text = texts[key];
    if (text === undefined) throw new Error(`the ${kind} email has no text "${key}"`);
    return messageExpression(text);
  };
  const button = shape.buttonHref
    ? `
        <Section className="text-center py-3">
          <Button href={${shape.buttonHref}} className="${BUTTON_CLASS}">
            {${t("button")}}
          </Button>
        </Section>`
    : "";
  return `import { type } from "arktype";
import { Button, Section, Hr, Text, Heading } from "@react-email/components";
import { Subject, NotificationCategory, Props } from "@stackframe/emails";

export const variablesSchema = type(${shape.schema});

export function EmailTemplate({ user, project, variables }: Props<typeof variablesSchema.infer>) {
  return (
    <>
      <Subject value={${t("subject")}} />
      <NotificationCategory value="Transactional" />
      <Section>
        <Heading as="h2" className="text-xl font-bold text-center m-0 pb-4">
          {${t("heading")}}
        </Heading>
        <Text className="text-sm text-center m-0 pb-2">
          {user.displayName ? ${t("greetingNamed")} : ${t("greeting")}}
        </Text>
        <Text className="text-sm text-center m-0 pb-4">
          {${t("paragraph")}}
        </Text>${shape.extra?.(t) ?? ""}${button}
        <Hr className="my-6 opacity-30" />
        <Text className="text-xs text-center opacity-70 m-0">
          {${t(shape.ownFootnote ? "footnote" : "ignore")}}
        </Text>
      </Section>
    </>
  );
}

EmailTemplate.PreviewVariables = ${shape.preview} satisfies typeof variablesSchema.infer;
`;
}

/** The built-in templates by id, in English: what the config holds and the template editor shows. */
export const DEFAULT_EMAIL_TEMPLATES: Readonly<Record<string, EmailTemplateSource>> = Object.fromEntries(
  (Object.entries(BUILT_IN_TEMPLATE_IDS) as [BuiltInEmailKind, string][]).map(([kind, id]) => [
    id,
    { displayName: TEMPLATE_SHAPES[kind].displayName, tsxSource: builtInTemplateSource(kind, DEFAULT_EMAIL_LOCALE) },
  ]),
);

/** Rendered with a theme to check it when it is saved (the reference checks a theme the same way). */
export const THEME_CHECK_TEMPLATE_SOURCE = `import { Subject, NotificationCategory } from "@stackframe/emails";

export const variablesSchema = (v: unknown) => v;

export function EmailTemplate({ project }: { project: { displayName: string } }) {
  return (
    <>
      <Subject value={"Theme preview for " + project.displayName} />
      <NotificationCategory value="Transactional" />
      <h2>Header text</h2>
      <p>Body text content with some additional information.</p>
    </>
  );
}
`;

/** A new template's (and a new draft's) source. */
export const NEW_TEMPLATE_SOURCE = `import { type } from "arktype";
import { Section, Text } from "@react-email/components";
import { Subject, NotificationCategory, Props } from "@stackframe/emails";

export const variablesSchema = type({});

export function EmailTemplate({ user, project }: Props<typeof variablesSchema.infer>) {
  return (
    <>
      <Subject value={"News from " + project.displayName} />
      <NotificationCategory value="Marketing" />
      <Section>
        <Text className="font-bold">Hi{user.displayName ? " " + user.displayName : ""}!</Text>
        <Text>Write your message here.</Text>
      </Section>
    </>
  );
}

EmailTemplate.PreviewVariables = {} satisfies typeof variablesSchema.infer;
`;

/** A template whose body is the given HTML (send-email with `html`). */
export function templateSourceFromHtml(html: string): string {
  return `export const variablesSchema = (v: unknown) => v;

export function EmailTemplate() {
  return <div dangerouslySetInnerHTML={{ __html: ${JSON.stringify(html)} }} />;
}
`;
}
