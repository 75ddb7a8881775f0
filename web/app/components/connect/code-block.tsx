/**
 * A block of code or configuration on the Connect page: its name (a file path or "Terminal"), the
 * text in a scrollable, keyboard-reachable box, and one Copy button for the whole block.
 */
import { CopyButton } from "@doorman/sdk/react";
import { useId } from "react";

export function CodeBlock(props: { name: string; code: string; copyLabel: string; testId?: string }) {
  const nameId = useId();
  return (
    <figure className="code-block" aria-labelledby={nameId}>
      <figcaption className="code-block-head">
        <code id={nameId} className="code-block-name">
          {props.name}
        </code>
        <CopyButton value={props.code} label={props.copyLabel} className="btn btn-secondary btn-small" />
      </figcaption>
      {/* Focusable: a box that scrolls sideways must be reachable by keyboard (WCAG 2.1.1). */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region gets keyboard focus */}
      <pre tabIndex={0} data-testid={props.testId}>
        <code>{props.code.replace(/\n$/, "")}</code>
      </pre>
    </figure>
  );
}
