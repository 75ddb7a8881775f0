/**
 * The built-in email themes and templates: TSX sources in the reference's format (a theme exports
 * `EmailTheme({ children, unsubscribeLink })`; a template exports `variablesSchema`,
 * `EmailTemplate({ user, project, variables })` with `<Subject>` and `<NotificationCategory>`),
 * under the reference's ids, so the reference's ids and variable names work against Doorman.
 * Every email Doorman sends renders through one of these, or the project's edited version.
 */

export type EmailThemeSource = { displayName: string; tsxSource: string };
/** `themeId`: a theme id; `false` = no theme; absent or null = the project's active theme. */
export type EmailTemplateSource = { displayName: string; tsxSource: string; themeId?: string | false | null };

export const DEFAULT_EMAIL_THEME_ID = "1df07ae6-abf3-4a40-83a5-a1a2cbe336ac";
export const DARK_EMAIL_THEME_ID = "a0172b5d-cff0-463b-83bb-85124697373a";

function themeSource(body: string, card: string, muted: string): string {
  return `import { Html, Head, Tailwind, Body, Container, Section, Link } from "@react-email/components";

export function EmailTheme({ children, unsubscribeLink }: { children: React.ReactNode; unsubscribeLink?: string }) {
  return (
    <Html>
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

export const DEFAULT_EMAIL_THEMES: Readonly<Record<string, EmailThemeSource>> = {
  [DEFAULT_EMAIL_THEME_ID]: {
    displayName: "Default Light",
    tsxSource: themeSource("bg-[#f5f6fa] text-[#1f2937]", "bg-white", "text-[#6b7280]"),
  },
  [DARK_EMAIL_THEME_ID]: { displayName: "Default Dark", tsxSource: themeSource("bg-[#1f2023] text-white", "bg-black", "text-[#9ca3af]") },
};

/** Older configs named the themes instead of giving their ids. */
export const LEGACY_THEME_NAMES: Readonly<Record<string, string>> = {
  "default-light": DEFAULT_EMAIL_THEME_ID,
  "default-dark": DARK_EMAIL_THEME_ID,
};

/** A new theme starts as a copy of the light theme (as in the reference). */
export const NEW_THEME_SOURCE = DEFAULT_EMAIL_THEMES[DEFAULT_EMAIL_THEME_ID]!.tsxSource;

/** The body every built-in template shares: heading, greeting, a paragraph, an optional action, and the footnote. */
function templateSource(o: {
  schema: string;
  subject: string;
  heading: string;
  paragraph: string;
  extra?: string;
  button?: { href: string; label: string };
  footnote?: string;
  preview: string;
}): string {
  const button = o.button
    ? `
          <Section className="text-center py-3">
            <Button href={${o.button.href}} className="bg-[#4338ca] text-white text-sm font-bold rounded-md px-5 py-3 no-underline">
              ${o.button.label}
            </Button>
          </Section>`
    : "";
  return `import { type } from "arktype";
import { Button, Section, Hr, Text, Heading } from "@react-email/components";
import { Subject, NotificationCategory, Props } from "@stackframe/emails";

export const variablesSchema = type(${o.schema});

export function EmailTemplate({ user, project, variables }: Props<typeof variablesSchema.infer>) {
  return (
    <>
      <Subject value={${o.subject}} />
      <NotificationCategory value="Transactional" />
      <Section>
        <Heading as="h2" className="text-xl font-bold text-center m-0 pb-4">
          {${o.heading}}
        </Heading>
        <Text className="text-sm text-center m-0 pb-4">
          Hi{user.displayName ? ", " + user.displayName : ""}! {${o.paragraph}}
        </Text>${o.extra ?? ""}${button}
        <Hr className="my-6 opacity-30" />
        <Text className="text-xs text-center opacity-70 m-0">
          ${o.footnote ?? "If you were not expecting this email, you can safely ignore it."}
        </Text>
      </Section>
    </>
  );
}

EmailTemplate.PreviewVariables = ${o.preview} satisfies typeof variablesSchema.infer;
`;
}

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
} as const;

export type BuiltInEmailKind = keyof typeof BUILT_IN_TEMPLATE_IDS;

export const DEFAULT_EMAIL_TEMPLATES: Readonly<Record<string, EmailTemplateSource>> = {
  [BUILT_IN_TEMPLATE_IDS.email_verification]: {
    displayName: "Email Verification",
    tsxSource: templateSource({
      schema: `{ emailVerificationLink: "string" }`,
      subject: `"Verify your email at " + project.displayName`,
      heading: `"Verify your email at " + project.displayName`,
      paragraph: `"Please confirm that this email address belongs to you."`,
      button: { href: "variables.emailVerificationLink", label: "Verify my email" },
      preview: `{ emailVerificationLink: "https://example.com/verify?code=preview" }`,
    }),
  },
  [BUILT_IN_TEMPLATE_IDS.password_reset]: {
    displayName: "Password Reset",
    tsxSource: templateSource({
      schema: `{ passwordResetLink: "string" }`,
      subject: `"Reset your password at " + project.displayName`,
      heading: `"Reset your password at " + project.displayName`,
      paragraph: `"Someone asked to reset your password. The link works once and expires."`,
      button: { href: "variables.passwordResetLink", label: "Reset my password" },
      preview: `{ passwordResetLink: "https://example.com/reset?code=preview" }`,
    }),
  },
  [BUILT_IN_TEMPLATE_IDS.magic_link]: {
    displayName: "Magic Link/OTP",
    tsxSource: templateSource({
      schema: `{ magicLink: "string", otp: "string" }`,
      subject: `"Sign in to " + project.displayName + ": Your code is " + variables.otp`,
      heading: `"Sign in to " + project.displayName`,
      paragraph: `"Your one-time code is below: type it to sign in, or use the button."`,
      extra: `
        <Text className="text-2xl font-mono font-bold text-center m-0 pb-4">{variables.otp}</Text>`,
      button: { href: "variables.magicLink", label: "Sign in" },
      preview: `{ magicLink: "https://example.com/magic?code=preview", otp: "3SLSWZ" }`,
    }),
  },
  [BUILT_IN_TEMPLATE_IDS.team_invitation]: {
    displayName: "Team Invitation",
    tsxSource: templateSource({
      schema: `{ teamDisplayName: "string", teamInvitationLink: "string" }`,
      subject: `"You have been invited to join " + variables.teamDisplayName`,
      heading: `"You are invited to " + variables.teamDisplayName`,
      paragraph: `"Click the button below to join the team " + variables.teamDisplayName + " on " + project.displayName + "."`,
      button: { href: "variables.teamInvitationLink", label: "Join team" },
      preview: `{ teamDisplayName: "My Team", teamInvitationLink: "https://example.com/invite?code=preview" }`,
    }),
  },
  [BUILT_IN_TEMPLATE_IDS.sign_in_invitation]: {
    displayName: "Sign In Invitation",
    tsxSource: templateSource({
      schema: `{ signInInvitationLink: "string", teamDisplayName: "string" }`,
      subject: `"You have been invited to " + project.displayName`,
      heading: `"You are invited to sign in to " + variables.teamDisplayName`,
      paragraph: `"Click the button below to sign in to your account."`,
      button: { href: "variables.signInInvitationLink", label: "Sign in" },
      preview: `{ signInInvitationLink: "https://example.com/sign-in", teamDisplayName: "My Team" }`,
    }),
  },
  [BUILT_IN_TEMPLATE_IDS.password_changed]: {
    displayName: "Password Changed",
    tsxSource: templateSource({
      schema: `{}`,
      subject: `"Your password at " + project.displayName + " was changed"`,
      heading: `"Your password was changed"`,
      paragraph: `"The password of your " + project.displayName + " account was just changed."`,
      footnote: "If you did not change it, reset your password now and review your account's active sessions.",
      preview: `{}`,
    }),
  },
  [BUILT_IN_TEMPLATE_IDS.new_sign_in]: {
    displayName: "New Sign-in From an Unknown Device",
    tsxSource: templateSource({
      schema: `{ signInDevice: "string", signInLocation: "string", signInTime: "string" }`,
      subject: `"New sign-in to your " + project.displayName + " account"`,
      heading: `"New sign-in to your account"`,
      paragraph: `"Your " + project.displayName + " account was signed in to from a device or place we have not seen before."`,
      extra: `
        <Text className="text-sm text-center m-0 pb-4">
          Device: {variables.signInDevice}<br />
          Location: {variables.signInLocation}<br />
          Time: {variables.signInTime}
        </Text>`,
      footnote: "If this was you, you can ignore this email. If not, change your password now and sign out of your other sessions.",
      preview: `{ signInDevice: "Chrome on macOS", signInLocation: "DE", signInTime: "2025-01-01 12:00 UTC" }`,
    }),
  },
  [BUILT_IN_TEMPLATE_IDS.sign_in_locked]: {
    displayName: "Password Sign-in Locked",
    tsxSource: templateSource({
      schema: `{ lockedUntil: "string" }`,
      subject: `"Too many wrong passwords for your " + project.displayName + " account"`,
      heading: `"Password sign-in is locked for now"`,
      paragraph: `"Someone typed a wrong password for your " + project.displayName + " account too many times, so signing in with the password is paused until " + variables.lockedUntil + ". You can still sign in with an emailed code, a passkey or a linked account."`,
      footnote: "If this was not you, your password was not accepted. Consider changing it to a long, unique one.",
      preview: `{ lockedUntil: "2025-01-01 13:00 UTC" }`,
    }),
  },
  [BUILT_IN_TEMPLATE_IDS.payment_receipt]: {
    displayName: "Payment Receipt",
    tsxSource: templateSource({
      schema: `{ productName: "string", quantity: "number", amount: "string", "receiptLink?": "string" }`,
      subject: `"Your receipt from " + project.displayName`,
      heading: `"Thanks for your purchase"`,
      paragraph: `"Your payment for " + variables.productName + " is complete."`,
      extra: `
        <Text className="text-base font-bold text-center m-0 pb-2">Total paid: {variables.amount}</Text>
        <Text className="text-sm text-center m-0 pb-4">Quantity: {variables.quantity}</Text>
        {variables.receiptLink ? (
          <Section className="text-center py-3">
            <Button href={variables.receiptLink} className="bg-[#4338ca] text-white text-sm font-bold rounded-md px-5 py-3 no-underline">
              View receipt
            </Button>
          </Section>
        ) : null}`,
      footnote: "Keep this email for your records.",
      preview: `{ productName: "Pro Plan", quantity: 1, amount: "USD 29.00", receiptLink: "https://example.com/receipt" }`,
    }),
  },
  [BUILT_IN_TEMPLATE_IDS.payment_failed]: {
    displayName: "Payment Failed",
    tsxSource: templateSource({
      schema: `{ productName: "string", amount: "string", "invoiceUrl?": "string", "failureReason?": "string" }`,
      subject: `"Payment failed for " + project.displayName`,
      heading: `"Your payment did not go through"`,
      paragraph: `"We could not collect the payment of " + variables.amount + " for " + variables.productName + "."`,
      extra: `
        {variables.failureReason ? <Text className="text-sm text-center m-0 pb-4">{variables.failureReason}</Text> : null}
        {variables.invoiceUrl ? (
          <Section className="text-center py-3">
            <Button href={variables.invoiceUrl} className="bg-[#4338ca] text-white text-sm font-bold rounded-md px-5 py-3 no-underline">
              Update payment
            </Button>
          </Section>
        ) : null}`,
      footnote: "Update your payment method to keep your subscription.",
      preview: `{ productName: "Pro Plan", amount: "USD 29.00", invoiceUrl: "https://example.com/invoice" }`,
    }),
  },
};

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
