/**
 * The shape of the built-in emails' texts, one object per locale (messages/<locale>.ts): every
 * locale must give every key, so a missing translation fails `npm run check` (tsc). `{ref}` marks a
 * value: `{name}` the user's display name, `{project}` the project's, any other the template's
 * variable of that name (email-render/message-format.ts); each locale uses the same refs as English
 * (test/worker/email-locale.test.ts checks it). A built-in kind without its key here fails tsc where
 * defaults.ts reads `messages[kind]`.
 */
type Action = { subject: string; heading: string; paragraph: string; button: string };
type Notice = { subject: string; heading: string; paragraph: string; footnote: string };

export type EmailMessages = {
  /** Shared by every template: the greeting with and without the user's name, the footnote of the action emails. */
  common: { greeting: string; greetingNamed: string; ignore: string };
  email_verification: Action;
  password_reset: Action;
  magic_link: Action;
  team_invitation: Action;
  sign_in_invitation: Action;
  password_changed: Notice;
  new_sign_in: Notice & { device: string; location: string; time: string };
  sign_in_locked: Notice;
  payment_receipt: Notice & { total: string; quantity: string; button: string };
  payment_failed: Notice & { button: string };
  /** New-device verification (issue 29): the emailed code, no link (it is typed where the sign-in waits). */
  device_verification: Notice;
  /** Values filled in when the sender has none. */
  fallbacks: { unknownDevice: string; unknownLocation: string; purchase: string; subscription: string };
};
