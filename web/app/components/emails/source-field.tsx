/** The labelled TSX editor of a page, with the line of the current render error marked. */
import { CodeEditor } from "./code-editor";
import { errorMark, type RenderProblem } from "./render-error";

export function SourceField(props: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The current render problem, marked when it names this file. */
  problem: RenderProblem | null;
  file: "template" | "theme";
}) {
  const mark = errorMark(props.problem, props.file, props.value.split("\n").length);
  return (
    <div className="field">
      <span id={`${props.id}-label`} className="editor-label">
        {props.label}
      </span>
      <p id={`${props.id}-hint`} className="muted editor-hint">
        TSX with React and @react-email/components. The preview renders as you type; an error is marked on its line.
      </p>
      <CodeEditor
        value={props.value}
        onChange={props.onChange}
        labelledBy={`${props.id}-label`}
        describedBy={`${props.id}-hint`}
        error={mark}
      />
    </div>
  );
}
