/**
 * The emails Doorman sends on its own (verification, reset, sign-in code, invitations, password
 * changed, new sign-in): the project's template of the kind (edited, or the built-in), in its theme,
 * in the reader's locale. The built-in template and themes are written in that locale (their texts
 * from messages/, the theme's <Html lang dir>); an owner's edited template or theme keeps its own
 * text. A built-in template in a built-in theme comes from its precompiled form
 * (email-render/built-in-fast.ts, a few ms, in every locale); anything else renders in the sandbox. A
 * project's broken template never stops a sign-in email: the built-in source in the default theme is
 * the fallback.
 */
import type { ProjectRow } from "../../db/queries/projects";
import { renderBuiltInFast } from "../../email-render/built-in-fast";
import type { EmailRenderInput } from "../../email-render/render";
import type { Deps } from "../deps";
import { readEmailSettings } from "./config";
import {
  BUILT_IN_TEMPLATE_IDS,
  builtInTemplateSource,
  builtInTexts,
  builtInThemeSource,
  DEFAULT_EMAIL_TEMPLATES,
  DEFAULT_EMAIL_THEME_ID,
  DEFAULT_EMAIL_THEMES,
} from "./defaults";
import { type EmailLocale, localizedUtcTime } from "./locale";
import { EMAIL_MESSAGES } from "./messages";
import { type Rendered, type RenderFailure, renderSources, themeSourceFor } from "./rendering";
import { type RenderedEmail, secretValuesOf, type TemplateKind, type TemplateVars } from "./templates";

/** The template's variables of a kind, under the reference's names. */
function templateVariables(project: ProjectRow, kind: TemplateKind, v: TemplateVars, locale: EmailLocale): Record<string, unknown> {
  const link = v.link ?? "";
  const fallbacks = EMAIL_MESSAGES[locale].fallbacks;
  switch (kind) {
    case "email_verification":
      return { emailVerificationLink: link };
    case "password_reset":
      return { passwordResetLink: link };
    case "magic_link":
      return { magicLink: link, otp: v.otp ?? "" };
    case "team_invitation":
      return { teamDisplayName: v.teamDisplayName ?? "", teamInvitationLink: link };
    case "sign_in_invitation":
      return { signInInvitationLink: link, teamDisplayName: v.teamDisplayName ?? project.displayName };
    case "password_changed":
      return {};
    case "new_sign_in":
      return {
        signInDevice: v.device ?? fallbacks.unknownDevice,
        signInLocation: v.location ?? fallbacks.unknownLocation,
        signInTime: localizedUtcTime(v.time ?? "", locale),
      };
    case "device_verification":
      return { otp: v.otp ?? "" };
    case "sign_in_locked":
      return { lockedUntil: localizedUtcTime(v.time ?? "", locale) };
    case "payment_receipt":
      return {
        productName: v.productName ?? fallbacks.purchase,
        quantity: v.quantity ?? 1,
        amount: v.amount ?? "",
        ...(v.receiptLink ? { receiptLink: v.receiptLink } : {}),
      };
    case "payment_failed":
      return {
        productName: v.productName ?? fallbacks.subscription,
        amount: v.amount ?? "",
        ...(v.invoiceUrl ? { invoiceUrl: v.invoiceUrl } : {}),
        ...(v.failureReason ? { failureReason: v.failureReason } : {}),
      };
  }
}

function usable(result: Rendered | RenderFailure): result is Rendered {
  return result.ok && result.subject.length > 0;
}

/** The id of the built-in theme whose (English) source this is, or null (an owner's theme, or none). */
function builtInThemeIdOf(themeSource: string | null): string | null {
  if (themeSource === null) return null;
  for (const [id, theme] of Object.entries(DEFAULT_EMAIL_THEMES)) if (theme.tsxSource === themeSource) return id;
  return null;
}

/**
 * Renders `input` (the sources as the project has them: English built-ins or the owner's own) in
 * `locale`: from the precompiled form with the locale's texts when there is one, else in the sandbox
 * with the built-in sources written in the locale (an edited template or theme is rendered as it is).
 */
async function render(deps: Deps, kind: TemplateKind, input: EmailRenderInput, locale: EmailLocale): Promise<Rendered | RenderFailure> {
  const fast = renderBuiltInFast(input, builtInTexts(kind, locale));
  if (fast?.ok) return fast;
  const builtInTemplate = input.templateSource === DEFAULT_EMAIL_TEMPLATES[BUILT_IN_TEMPLATE_IDS[kind]]!.tsxSource;
  const themeId = builtInThemeIdOf(input.themeSource);
  return renderSources(deps, {
    ...input,
    templateSource: builtInTemplate ? builtInTemplateSource(kind, locale) : input.templateSource,
    themeSource: themeId ? builtInThemeSource(themeId, locale)! : input.themeSource,
  });
}

/**
 * Renders a built-in email of a kind for a project in `locale` (the outbox row's, else the
 * project's default email locale), with `secrets` marking what the log must redact, and
 * `fallbackError` when the project's template failed and the built-in one was used.
 * Throws only if even the built-in template cannot render (a bug, not an owner's edit).
 */
export async function renderBuiltInEmail(
  deps: Deps,
  project: ProjectRow,
  kind: TemplateKind,
  vars: TemplateVars,
  locale?: EmailLocale | null,
): Promise<RenderedEmail> {
  const id = BUILT_IN_TEMPLATE_IDS[kind];
  const settings = readEmailSettings(project);
  const lang = locale ?? settings.defaultLocale;
  const template = settings.templates[id] ?? DEFAULT_EMAIL_TEMPLATES[id]!;
  const input = {
    variables: templateVariables(project, kind, vars, lang),
    user: { displayName: vars.userDisplayName ?? null },
    project: { displayName: project.displayName },
    locale: lang,
  };
  let result = await render(
    deps,
    kind,
    { ...input, themeSource: themeSourceFor(settings, template.themeId), templateSource: template.tsxSource },
    lang,
  );
  let fallbackError: string | undefined;
  if (!usable(result)) {
    fallbackError = result.ok ? "The template rendered no subject." : result.error;
    console.error(`project ${project.id}: the ${kind} template failed to render; sending the built-in one`, fallbackError);
    result = await render(
      deps,
      kind,
      {
        ...input,
        themeSource: DEFAULT_EMAIL_THEMES[DEFAULT_EMAIL_THEME_ID]!.tsxSource,
        templateSource: DEFAULT_EMAIL_TEMPLATES[id]!.tsxSource,
      },
      lang,
    );
    if (!usable(result)) throw new Error(`the built-in ${kind} email does not render: ${result.ok ? "no subject" : result.error}`);
  }
  // A sign-in invitation links to the app's own page and grants nothing: the log keeps it readable.
  const secrets = kind === "sign_in_invitation" ? [] : secretValuesOf(vars);
  return { subject: result.subject, html: result.html, text: result.text, secrets, ...(fallbackError ? { fallbackError } : {}) };
}
