// Replaces `@react-email/render` inside the sandbox (esbuild aliases it here). The published one
// streams through react-dom's async renderer (TextEncoder, streams, timers) and pulls in prettier;
// QuickJS has none of those, so this renders with React's synchronous legacy server renderer and
// keeps the published output: the same XHTML doctype and the same html-to-text selectors.
import { convert } from "html-to-text";
import { renderToStaticMarkup } from "react-dom-server-legacy";
import { plainTextSelectors } from "./plain-text-options.ts";

export { plainTextSelectors };

const DOCTYPE = '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">';

/** The element as an email document (doctype + markup). */
export function renderHtmlSync(element) {
  return DOCTYPE + renderToStaticMarkup(element).replace(/<!DOCTYPE.*?>/, "");
}

/** The plain-text alternative of rendered HTML, as `render(el, { plainText: true })` gives it. */
export function toPlainText(html, htmlToTextOptions) {
  return convert(html, { selectors: plainTextSelectors, ...htmlToTextOptions });
}

export function renderSync(element, options) {
  if (options?.plainText) return toPlainText(renderToStaticMarkup(element), options.htmlToTextOptions);
  return renderHtmlSync(element);
}

/** Same signature as the published `render` (a promise), for templates that call it themselves. */
export function render(element, options) {
  return Promise.resolve().then(() => renderSync(element, options));
}

export const renderAsync = render;
