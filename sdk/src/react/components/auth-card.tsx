/**
 * The card every handler page sits in: a heading, an optional subtitle, the body
 * and an optional footer line (e.g. the link to the other auth form).
 */
import type { ReactNode } from "react";
import { useTranslation } from "../i18n/context";

export type AuthCardProps = {
  title: string;
  subtitle?: ReactNode;
  footer?: ReactNode;
  wide?: boolean;
  children?: ReactNode;
};

/**
 * @example
 * <AuthCard title="Sign in" footer={<a href="/handler/sign-up">Create an account</a>}>…</AuthCard>
 */
export function AuthCard({ title, subtitle, footer, wide, children }: AuthCardProps) {
  // The card carries its language and direction, so it reads right in any page (Arabic: right to left).
  const { locale, dir } = useTranslation();
  return (
    <main className={wide ? "stack-root stack-card stack-wide" : "stack-root stack-card"} lang={locale} dir={dir}>
      <h1>{title}</h1>
      {subtitle ? <p className="stack-subtitle">{subtitle}</p> : null}
      {children}
      {footer ? <p className="stack-footer">{footer}</p> : null}
    </main>
  );
}
