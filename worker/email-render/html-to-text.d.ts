// html-to-text (bundled into the sandbox, and used by the built-in emails' fast path) ships no types:
// the part this code calls.
declare module "html-to-text" {
  export type HtmlToTextOptions = { selectors?: { selector: string; format?: string; options?: Record<string, unknown> }[] };
  export function compile(options?: HtmlToTextOptions): (html: string) => string;
  export function convert(html: string, options?: HtmlToTextOptions): string;
}
