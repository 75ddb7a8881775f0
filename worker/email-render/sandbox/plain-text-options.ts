// The html-to-text options of an email's plain-text part, as `render(el, { plainText: true })` of
// @react-email/render gives it. Shared by the sandbox (react-email-render.js, bundled into QuickJS)
// and the built-in emails' fast path (built-in-fast.ts, in the worker), so both write the same text.
export const plainTextSelectors = [
  { selector: "img", format: "skip" },
  { selector: "[data-skip-in-text=true]", format: "skip" },
  { selector: "a", options: { linkBrackets: false } },
];
