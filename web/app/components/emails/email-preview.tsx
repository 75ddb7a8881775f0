/**
 * The live preview of an email: renders through the API's render-email (debounced while the
 * owner types) into a sandboxed frame (sandbox="" with srcdoc: no scripts, no same-origin), at
 * desktop or mobile width, with the subject, a loading state and the error (with its line) in a
 * live region. The last good render stays visible while there is an error. The frame is laid out at
 * the chosen width and scaled down to fit its panel (useFitScale), so a desktop-width email never
 * makes the panel scroll sideways.
 */

import type { EmailPreviewOptions, RenderedEmailPreview } from "@doorman/sdk";
import { type RefObject, useEffect, useId, useRef, useState } from "react";
import { errorMessage } from "../../lib/project-context";
import { type RenderProblem, renderProblem } from "./render-error";

/** How long typing must pause before the preview renders again. */
export const PREVIEW_DEBOUNCE_MS = 400;

/** The widths the frame is laid out at (a desktop mail client's reading pane, a phone), and its height. */
export const PREVIEW_WIDTHS = { desktop: 640, mobile: 375 } as const;
const FRAME_HEIGHT = 640;

/** The scale (at most 1) that fits `width` px into the box's own width, following its resizes. */
function useFitScale(box: RefObject<HTMLDivElement | null>, width: number, active: boolean): number {
  const [scale, setScale] = useState(1);
  useEffect(() => {
    const el = box.current;
    if (!el || !active) return;
    const measure = () => setScale(Math.min(1, el.clientWidth / width));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [box, width, active]);
  return scale;
}

type Renderer = { renderEmail(options: EmailPreviewOptions): Promise<RenderedEmailPreview> };

export function EmailPreview(props: {
  app: Renderer;
  /** What to render; null: nothing to render yet (the reason is shown by the caller). */
  options: EmailPreviewOptions | null;
  /** The subject the send will use instead of the rendered one (typed by the owner). */
  subjectOverride?: string;
  onProblem?: (problem: RenderProblem | null) => void;
}) {
  const id = useId();
  const [width, setWidth] = useState<"desktop" | "mobile">("desktop");
  const [result, setResult] = useState<RenderedEmailPreview | null>(null);
  const [problem, setProblem] = useState<RenderProblem | null>(null);
  const [busy, setBusy] = useState(false);
  const latest = useRef(0);
  const box = useRef<HTMLDivElement>(null);
  const frameWidth = PREVIEW_WIDTHS[width];
  const scale = useFitScale(box, frameWidth, result !== null);
  const onProblem = useRef(props.onProblem);
  onProblem.current = props.onProblem;
  const { app } = props;
  const key = props.options ? JSON.stringify(props.options) : null;

  useEffect(() => {
    if (key === null) {
      latest.current++;
      setBusy(false);
      return;
    }
    const seq = ++latest.current;
    setBusy(true);
    const timer = setTimeout(async () => {
      try {
        const rendered = await app.renderEmail(JSON.parse(key) as EmailPreviewOptions);
        if (seq !== latest.current) return;
        setResult(rendered);
        setProblem(null);
        onProblem.current?.(null);
      } catch (e) {
        if (seq !== latest.current) return;
        const p = renderProblem(errorMessage(e, "The email could not be rendered."));
        setProblem(p);
        onProblem.current?.(p);
      } finally {
        if (seq === latest.current) setBusy(false);
      }
    }, PREVIEW_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [key, app]);

  const subject = props.subjectOverride || result?.subject;
  return (
    <section className="email-preview" aria-labelledby={`${id}-title`}>
      <div className="email-preview-head">
        <h2 id={`${id}-title`}>Preview</h2>
        <fieldset className="segmented">
          <legend className="visually-hidden">Preview width</legend>
          <label>
            <input type="radio" name={`${id}-width`} checked={width === "desktop"} onChange={() => setWidth("desktop")} /> Desktop
          </label>
          <label>
            <input type="radio" name={`${id}-width`} checked={width === "mobile"} onChange={() => setWidth("mobile")} /> Mobile
          </label>
        </fieldset>
      </div>
      <p className="muted email-preview-status" role="status">
        {busy ? "Rendering…" : problem ? "" : result ? "Up to date." : ""}
      </p>
      <div aria-live="polite" className="email-preview-problem">
        {problem ? (
          <p className="alert">
            {problem.line !== null ? <strong>Line {problem.line}: </strong> : null}
            {problem.message}
          </p>
        ) : null}
      </div>
      {result ? (
        <>
          <p className="email-preview-subject">
            <span className="muted">Subject:</span> <strong data-testid="preview-subject">{subject || "(no subject)"}</strong>
          </p>
          {scale < 1 ? (
            <p className="muted email-preview-scale">
              Shown at {Math.round(scale * 100)}% of its {frameWidth} px width, to fit.
            </p>
          ) : null}
          <div ref={box} className={`email-preview-box email-preview-${width}`} style={{ height: Math.ceil(FRAME_HEIGHT * scale) + 2 }}>
            <iframe
              title={`Email preview, ${width === "desktop" ? "desktop" : "mobile"} width`}
              className="email-preview-frame"
              sandbox=""
              srcDoc={result.html}
              style={{
                width: frameWidth,
                height: FRAME_HEIGHT,
                transform: scale < 1 ? `scale(${scale})` : undefined,
                marginLeft: scale < 1 ? 0 : "auto",
              }}
            />
          </div>
          <details className="email-preview-text">
            <summary>Plain-text version</summary>
            <pre className="email-text">{result.text}</pre>
          </details>
        </>
      ) : busy || problem ? null : (
        <p className="muted">Nothing to preview yet.</p>
      )}
    </section>
  );
}
