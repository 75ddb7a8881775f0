/**
 * The TSX code editor of themes, templates and drafts: CodeMirror 6, loaded in the browser after
 * mount (the server render shows the source read-only until then). The editable area is named by
 * a visible label; a render error's line is marked in the gutter and underlined.
 */
import type { EditorView } from "@codemirror/view";
import { useEffect, useRef, useState } from "react";

type Setup = typeof import("./codemirror-setup");

/** Null in the server build, so the server bundle does not carry CodeMirror at all. */
const loadSetup: (() => Promise<Setup>) | null = import.meta.env.SSR ? null : () => import("./codemirror-setup");

export function CodeEditor(props: {
  value: string;
  onChange: (value: string) => void;
  /** The id of the visible label naming the editor. */
  labelledBy: string;
  describedBy?: string;
  /**
   * The current render error, if it is in this editor's file: its line (1-based) and message.
   * Marked again whenever this object changes (each render result is a new one), so a mark that
   * edits moved or erased is put back on the reported line.
   */
  error?: { line: number; message: string; stamp: unknown } | null;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const setup = useRef<Setup | null>(null);
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;
  const initial = useRef(props.value);
  /** The last text the editor reported: a value prop equal to it is the editor's own echo, not a reset. */
  const emitted = useRef(props.value);
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState(false);

  // Props read once: the editor is created with the first value and label; later values go through replaceDoc.
  const { labelledBy, describedBy } = props;
  useEffect(() => {
    let live = true;
    if (!loadSetup) return;
    loadSetup()
      .then((mod) => {
        if (!live || !host.current) return;
        setup.current = mod;
        view.current = mod.createEditor(host.current, {
          doc: initial.current,
          onChange: (v) => {
            emitted.current = v;
            onChange.current(v);
          },
          labelledBy,
          describedBy,
        });
        setReady(true);
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
      view.current?.destroy();
      view.current = null;
    };
  }, [labelledBy, describedBy]);

  useEffect(() => {
    if (!ready || !view.current || !setup.current || props.value === emitted.current) return;
    emitted.current = props.value;
    setup.current.replaceDoc(view.current, props.value);
  }, [ready, props.value]);

  // Marked once per render result (its stamp), not on every keystroke: in between, the mark moves with the edited text.
  const error = useRef(props.error ?? null);
  error.current = props.error ?? null;
  const stamp = props.error?.stamp ?? null;
  useEffect(() => {
    const e = stamp === null ? null : error.current;
    if (ready && view.current && setup.current) setup.current.markErrorLine(view.current, e?.line ?? null, e?.message ?? "");
  }, [ready, stamp]);

  return (
    <div className="code-editor">
      <div ref={host} className="code-editor-host" />
      {failed ? (
        // Without CodeMirror (the chunk did not load) the source is still editable as plain text.
        <textarea
          className="input code-editor-fallback"
          aria-labelledby={labelledBy}
          aria-describedby={describedBy}
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
          spellCheck={false}
          rows={20}
        />
      ) : ready ? null : (
        <>
          <p className="muted" role="status">
            Loading the editor…
          </p>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: until the editor loads, this scrollable copy of the source must be reachable by keyboard (axe scrollable-region-focusable). */}
          <pre className="code-editor-loading" tabIndex={0}>
            {props.value}
          </pre>
        </>
      )}
    </div>
  );
}
