/**
 * The components' stylesheet: plain CSS scoped under `stack-` class names, injected by
 * `StackProvider` as one <style> element so the components look right in any React app
 * without a CSS loader. Colours and radii are CSS variables the host page can override.
 */
import { createElement } from "react";

export const stackCss = `
.stack-root{--stack-fg:#111827;--stack-muted:#4b5563;--stack-border:#d1d5db;--stack-bg:#fff;--stack-accent:#4338ca;--stack-accent-fg:#fff;--stack-danger:#b91c1c;--stack-ok:#047857;--stack-radius:10px;
 color:var(--stack-fg);font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:15px;line-height:1.5}
.stack-card{box-sizing:border-box;width:100%;max-width:420px;margin:48px auto;padding:32px;background:var(--stack-bg);border:1px solid #e5e7eb;border-radius:14px;box-shadow:0 1px 2px rgba(0,0,0,.04),0 8px 24px rgba(17,24,39,.06)}
.stack-card.stack-wide{max-width:640px}
.stack-card h1{font-size:1.5rem;margin:0 0 4px;font-weight:650;letter-spacing:-.01em}
.stack-card h2{font-size:1.05rem;margin:0 0 12px;font-weight:600}
.stack-subtitle{color:var(--stack-muted);margin:0 0 24px}
.stack-form{display:flex;flex-direction:column;gap:16px}
.stack-field{display:flex;flex-direction:column;gap:6px}
.stack-field label{font-weight:550;font-size:.9rem}
.stack-input{box-sizing:border-box;width:100%;padding:9px 12px;font:inherit;color:inherit;background:#fff;border:1px solid var(--stack-border);border-radius:var(--stack-radius)}
.stack-input:focus{outline:2px solid var(--stack-accent);outline-offset:1px;border-color:var(--stack-accent)}
.stack-input[aria-invalid=true]{border-color:var(--stack-danger)}
.stack-input[aria-invalid=true]:focus{outline-color:var(--stack-danger)}
.stack-input:read-only{background:#f9fafb;color:var(--stack-muted)}
.stack-field-error{color:var(--stack-danger);font-size:.85rem;margin:0}
.stack-hint{color:var(--stack-muted);font-size:.85rem;margin:0}
.stack-alert{padding:10px 12px;border-radius:var(--stack-radius);background:#fef2f2;border:1px solid #fecaca;color:var(--stack-danger);margin:0}
.stack-success{padding:10px 12px;border-radius:var(--stack-radius);background:#ecfdf5;border:1px solid #a7f3d0;color:var(--stack-ok);margin:0}
.stack-button{display:inline-flex;align-items:center;justify-content:center;gap:8px;padding:9px 16px;font:inherit;font-weight:600;border-radius:var(--stack-radius);border:1px solid var(--stack-accent);background:var(--stack-accent);color:var(--stack-accent-fg);cursor:pointer;text-decoration:none}
.stack-button:hover{filter:brightness(1.08)}
.stack-button:focus-visible{outline:2px solid var(--stack-accent);outline-offset:2px}
.stack-button:disabled{opacity:.6;cursor:not-allowed;filter:none}
.stack-button.stack-secondary{background:#fff;color:var(--stack-fg);border-color:var(--stack-border)}
.stack-button.stack-danger{background:#fff;color:var(--stack-danger);border-color:#fca5a5}
.stack-actions{display:flex;gap:8px;flex-wrap:wrap;align-items:center}
.stack-link-next{margin-top:16px}
.stack-footer{margin:24px 0 0;color:var(--stack-muted);text-align:center}
.stack-link{color:var(--stack-accent);font-weight:550}
.stack-section{padding:20px 0;border-top:1px solid #e5e7eb}
.stack-section:first-of-type{border-top:0;padding-top:8px}
.stack-loading{padding:48px 16px;text-align:center;color:var(--stack-muted);font-family:system-ui,sans-serif}
.stack-small{padding:5px 10px;font-size:.85rem}
.stack-small-link{font-size:.85rem;align-self:flex-end;margin-top:-8px}
.stack-team-settings{border:1px solid #e2e8f0;border-radius:var(--stack-radius);padding:0 16px;margin-top:16px;background:#fcfcfd}
.stack-team-settings .stack-section:first-child{border-top:0}
.stack-qr{display:block;margin:4px 0 12px;image-rendering:pixelated;border:1px solid #e2e8f0;border-radius:6px}
.stack-divider{display:flex;align-items:center;gap:12px;color:var(--stack-muted);font-size:.85rem;margin:4px 0 12px}
.stack-divider::before,.stack-divider::after{content:"";flex:1;border-top:1px solid #e2e8f0}
.stack-switch{background:none;border:0;padding:8px 0 0;cursor:pointer;font:inherit;display:block;margin:0 auto}
.stack-list{list-style:none;margin:0 0 12px;padding:0}
.stack-list-item{display:flex;justify-content:space-between;align-items:center;gap:12px;flex-wrap:wrap;padding:10px 0;border-bottom:1px solid #f1f5f9}
.stack-badge{display:inline-block;font-size:.75rem;font-weight:600;padding:2px 8px;border-radius:999px;background:#eef2ff;color:var(--stack-accent)}
.stack-badge-warn{background:#fffbeb;color:#b45309}
.stack-checkbox{display:flex;gap:8px;align-items:center;padding:6px 0}
.stack-activity-item{display:flex;flex-direction:column;gap:2px;padding:10px 0;border-bottom:1px solid #f1f5f9;overflow-wrap:anywhere}
.stack-activity-what{font-weight:550}
.stack-activity-ip{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.8rem}
.stack-activity-error{display:flex;justify-content:space-between;align-items:center;gap:8px;flex-wrap:wrap;margin-bottom:8px}
.stack-code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.85rem;background:#f3f4f6;padding:2px 6px;border-radius:6px;word-break:break-all}
.stack-nav ul{display:flex;flex-wrap:wrap;gap:6px 8px;list-style:none;margin:4px 0 8px;padding:0}
.stack-nav a{display:inline-block;padding:3px 10px;border:1px solid var(--stack-border);border-radius:999px;color:var(--stack-fg);font-size:.85rem;text-decoration:none}
.stack-nav a:hover{border-color:var(--stack-accent);color:var(--stack-accent)}
.stack-nav a:focus-visible{outline:2px solid var(--stack-accent);outline-offset:2px}
.stack-section h2{scroll-margin-top:16px}

`;

/**
 * The stylesheet as a <style> element (rendered by `StackProvider`).
 *
 * @example
 * <head><StackStyles /></head>
 */
export function StackStyles() {
  // As raw HTML: a text child would be escaped on the server ('"' as &quot;), which a <style>
  // element does not decode, so server and browser CSS would differ and hydration would fail.
  // biome-ignore lint/security/noDangerouslySetInnerHtml: a constant stylesheet of this module, no user input.
  return createElement("style", { "data-stack-styles": "", dangerouslySetInnerHTML: { __html: stackCss } });
}
