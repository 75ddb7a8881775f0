/**
 * Security headers of every page and data response of the web app (handler pages and the
 * dashboard). The CSP allows scripts from this origin and Remix's inline scripts by nonce only.
 */

/** A fresh 128-bit nonce, base64. */
export function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/**
 * The Content-Security-Policy of a document. Why: `frame-ancestors 'none'` (with X-Frame-Options)
 * stops clickjacking of pages such as cli-auth-confirm; scripts need this origin or the nonce.
 */
export function contentSecurityPolicy(nonce: string, options: { dev?: boolean; turnstileOrigin?: string } = {}): string {
  // The sign-in and sign-up pages may render a Turnstile widget: its script, its iframe, and (the local fake) its token endpoint.
  const turnstile = options.turnstileOrigin ? ` ${options.turnstileOrigin}` : "";
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${turnstile}`,
    `frame-src 'self'${turnstile}`,
    // Inline style attributes (React `style` props) are used across the pages; styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    // Project logos are URLs of the owners' choosing.
    "img-src 'self' data: https:",
    "font-src 'self' data:",
    `connect-src 'self'${options.dev ? " ws: wss:" : ""}${turnstile}`,
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The headers every response of the web app carries (CSP is added for documents, which have a nonce). */
export function setSecurityHeaders(headers: Headers, requestUrl: string): void {
  headers.set("X-Frame-Options", "DENY");
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  // Why: HSTS only means something over https (browsers ignore it on http, and localhost must stay usable).
  if (new URL(requestUrl).protocol === "https:") headers.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
}
