/**
 * CodeMirror 6 for the email editors, loaded only in the browser (code-editor.tsx imports this
 * module with import() after mount, so the server render never loads CodeMirror): TSX
 * highlighting, line numbers, an accessible name on the editable area, and the render error's
 * line marked as a lint diagnostic.
 */
import { javascript } from "@codemirror/lang-javascript";
import { type Diagnostic, lintGutter, setDiagnostics } from "@codemirror/lint";
import { EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { basicSetup } from "codemirror";

export type EditorOptions = {
  doc: string;
  onChange: (value: string) => void;
  /** The editable area's accessible name: the id of a visible label, or a text. */
  labelledBy?: string;
  label?: string;
  describedBy?: string;
};

const look = EditorView.theme({
  "&": { fontSize: "13px", border: "1px solid #d1d5db", borderRadius: "10px", background: "#fff" },
  "&.cm-focused": { outline: "2px solid #4338ca", outlineOffset: "1px" },
  // No height limit: the editor grows with the source (lines wrap), so it is never a scroll box of its own that keyboards cannot reach.
  ".cm-scroller": { fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace", minHeight: "320px" },
  ".cm-gutters": { borderTopLeftRadius: "10px", borderBottomLeftRadius: "10px" },
});

export function createEditor(parent: HTMLElement, options: EditorOptions): EditorView {
  const attributes: Record<string, string> = { spellcheck: "false", autocapitalize: "off", autocorrect: "off" };
  if (options.labelledBy) attributes["aria-labelledby"] = options.labelledBy;
  else if (options.label) attributes["aria-label"] = options.label;
  if (options.describedBy) attributes["aria-describedby"] = options.describedBy;
  return new EditorView({
    parent,
    state: EditorState.create({
      doc: options.doc,
      extensions: [
        basicSetup,
        javascript({ jsx: true, typescript: true }),
        lintGutter(),
        look,
        EditorView.lineWrapping,
        EditorView.contentAttributes.of(attributes),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) options.onChange(update.state.doc.toString());
        }),
      ],
    }),
  });
}

/** Replaces the text (a reload or a reset from outside), keeping the editor's history. */
export function replaceDoc(view: EditorView, doc: string): void {
  if (view.state.doc.toString() === doc) return;
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: doc } });
}

/** Marks one line (1-based) with the error, or clears the marks when line is null. */
export function markErrorLine(view: EditorView, line: number | null, message: string): void {
  const diagnostics: Diagnostic[] = [];
  if (line !== null && view.state.doc.lines > 0) {
    const at = view.state.doc.line(Math.min(Math.max(line, 1), view.state.doc.lines));
    diagnostics.push({ from: at.from, to: at.to, severity: "error", message });
  }
  view.dispatch(setDiagnostics(view.state, diagnostics));
}
