/**
 * An assistant reply rendered as markdown (react-markdown, CommonMark): raw HTML in the reply stays
 * text (the library's default), links open in a new tab without the opener, images become links,
 * and each code block has a "Copy" button.
 */

import { CopyButton } from "@doorman/sdk/react";
import Markdown, { type Components } from "react-markdown";

type HastNode = { type: string; value?: string; tagName?: string; properties?: Record<string, unknown>; children?: HastNode[] };

/** The text of a syntax-tree node (a code block's source). */
function textOf(node: HastNode | undefined): string {
  if (!node) return "";
  if (node.type === "text") return node.value ?? "";
  return (node.children ?? []).map(textOf).join("");
}

/** "language-ts" on the block's <code> → "ts". */
function languageOf(pre: HastNode | undefined): string | null {
  const code = pre?.children?.find((c) => c.tagName === "code");
  const classes = code?.properties?.className;
  const found = Array.isArray(classes) ? classes.map(String).find((c) => c.startsWith("language-")) : undefined;
  return found ? found.slice("language-".length) : null;
}

const components: Components = {
  // Why: a reply's links lead off the console; the new page gets no handle on this one, nor its URL.
  a: ({ node: _node, children, ...props }) => (
    <a {...props} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  ),
  // Why: an image loads without a click, so a reply could send what it read to any host in the URL.
  img: ({ src, alt }) =>
    typeof src === "string" && src ? (
      <a href={src} target="_blank" rel="noopener noreferrer">
        {alt || "Image"}
      </a>
    ) : null,
  pre: ({ node, children }) => {
    const language = languageOf(node as HastNode | undefined);
    return (
      <div className="assistant-code">
        <div className="assistant-code-bar">
          <span className="assistant-code-language">{language ?? "code"}</span>
          <CopyButton
            value={textOf(node as HastNode | undefined).replace(/\n$/, "")}
            label="code"
            className="btn btn-secondary btn-small"
          />
        </div>
        {/* Focusable: a long line scrolls sideways, and keyboard users must reach it. */}
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region needs focus to scroll by keyboard */}
        <pre tabIndex={0}>{children}</pre>
      </div>
    );
  },
};

export function AssistantMarkdown({ text }: { text: string }) {
  return (
    <div className="assistant-markdown">
      <Markdown components={components}>{text}</Markdown>
    </div>
  );
}
