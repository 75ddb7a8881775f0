/**
 * Default email templates (clean HTML plus a text part, with the project's name). The one
 * place templates are looked up is `renderEmail`: owner-editable TSX templates replace it later.
 */
import type { ProjectRow } from "../db/queries/projects";

export type TemplateKind = "email_verification" | "password_reset" | "magic_link" | "team_invitation" | "sign_in_invitation";

export type TemplateVars = {
  link: string;
  otp?: string;
  teamDisplayName?: string;
  userDisplayName?: string | null;
};

/**
 * A rendered message. `secrets` marks the values that grant access (the emailed code, the OTP,
 * a link without a code): the email log stores the message with exactly these redacted.
 */
export type RenderedEmail = { subject: string; html: string; text: string; secrets?: string[] };

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

function layout(project: string, heading: string, paragraphs: string[], button: { label: string; href: string }, code?: string): string {
  const p = paragraphs.map((t) => `<p style="margin:0 0 16px;font-size:15px;line-height:1.5;color:#334155">${escapeHtml(t)}</p>`).join("");
  const otp = code
    ? `<p style="margin:0 0 16px;font-size:28px;letter-spacing:6px;font-weight:700;color:#0f172a;font-family:ui-monospace,monospace">${escapeHtml(code)}</p>`
    : "";
  return `<!doctype html><html><body style="margin:0;background:#f5f6fa;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="100%" style="max-width:480px;background:#ffffff;border-radius:12px;padding:32px" cellpadding="0" cellspacing="0"><tr><td>
<p style="margin:0 0 24px;font-size:14px;font-weight:600;color:#4338ca">${escapeHtml(project)}</p>
<h1 style="margin:0 0 16px;font-size:22px;color:#0f172a">${escapeHtml(heading)}</h1>
${p}${otp}
<p style="margin:24px 0"><a href="${escapeHtml(button.href)}" style="display:inline-block;background:#4338ca;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600">${escapeHtml(button.label)}</a></p>
<p style="margin:0;font-size:12px;color:#64748b">If the button does not work, open this link: <br><a href="${escapeHtml(button.href)}" style="color:#4338ca;word-break:break-all">${escapeHtml(button.href)}</a></p>
<p style="margin:24px 0 0;font-size:12px;color:#94a3b8">If you did not ask for this email, you can ignore it.</p>
</td></tr></table></td></tr></table></body></html>`;
}

function text(heading: string, paragraphs: string[], link: string, code?: string): string {
  return [
    heading,
    "",
    ...paragraphs,
    ...(code ? ["", `Your code: ${code}`] : []),
    "",
    link,
    "",
    "If you did not ask for this email, you can ignore it.",
    "",
  ].join("\n");
}

export function renderDefaultTemplate(projectName: string, kind: TemplateKind, v: TemplateVars): RenderedEmail {
  const hello = v.userDisplayName ? `Hi ${v.userDisplayName},` : "Hi,";
  switch (kind) {
    case "email_verification": {
      const body = [hello, `Please confirm that this email address belongs to you to finish setting up your ${projectName} account.`];
      return {
        subject: `Verify your email at ${projectName}`,
        html: layout(projectName, "Verify your email", body, { label: "Verify email", href: v.link }),
        text: text("Verify your email", body, v.link),
      };
    }
    case "password_reset": {
      const body = [hello, `Someone asked to reset the password of your ${projectName} account. The link works once and expires.`];
      return {
        subject: `Reset your password at ${projectName}`,
        html: layout(projectName, "Reset your password", body, { label: "Choose a new password", href: v.link }),
        text: text("Reset your password", body, v.link),
      };
    }
    case "magic_link": {
      const body = [hello, `Use this code or the button below to sign in to ${projectName}. It works once.`];
      return {
        subject: `Sign in to ${projectName}: Your code is ${v.otp ?? ""}`,
        html: layout(projectName, "Your sign-in code", body, { label: `Sign in to ${projectName}`, href: v.link }, v.otp),
        text: text("Your sign-in code", body, v.link, v.otp),
      };
    }
    case "team_invitation": {
      const team = v.teamDisplayName ?? "a team";
      const body = [hello, `You have been invited to join ${team} on ${projectName}.`];
      return {
        subject: `You have been invited to join ${team}`,
        html: layout(projectName, `Join ${team}`, body, { label: "Accept the invitation", href: v.link }),
        text: text(`Join ${team}`, body, v.link),
      };
    }
    case "sign_in_invitation": {
      const body = [hello, `You have been invited to ${projectName}.`];
      return {
        subject: `You have been invited to ${projectName}`,
        html: layout(projectName, `Welcome to ${projectName}`, body, { label: "Sign in", href: v.link }),
        text: text(`Welcome to ${projectName}`, body, v.link),
      };
    }
  }
}

/**
 * The secret values of a template's variables: the link's `code` (the link itself stays readable
 * in the log, with the code redacted) and the OTP. A link without a code is secret as a whole.
 */
export function secretValuesOf(vars: TemplateVars): string[] {
  let code: string | null = null;
  try {
    code = new URL(vars.link).searchParams.get("code");
  } catch {
    code = null;
  }
  return [code ?? vars.link, ...(vars.otp ? [vars.otp] : [])].filter((s) => s.length > 0);
}

/** The single lookup point for a project's email of a kind (default templates for now). */
export function renderEmail(project: ProjectRow, kind: TemplateKind, vars: TemplateVars): RenderedEmail {
  // A sign-in invitation links to the app's own page and grants nothing: the log keeps it readable.
  const secrets = kind === "sign_in_invitation" ? [] : secretValuesOf(vars);
  return { ...renderDefaultTemplate(project.displayName, kind, vars), secrets };
}
