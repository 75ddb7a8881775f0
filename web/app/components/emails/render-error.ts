/**
 * Where a render error points: the API answers EMAIL_RENDERING_ERROR with a message naming the
 * file and line, e.g. "Syntax error in template.tsx at line 3: Unexpected token" or
 * "x is not defined (theme.tsx line 12)" (after "Failed to render email with theme: " when a theme
 * was used). The worker's lines are the owner's source lines, 1-based as the editor counts them
 * (sucrase keeps lines, the sandbox's module wrapper adds none: test/worker/email-render.test.ts).
 */
export type RenderProblem = { message: string; file: "template" | "theme" | null; line: number | null };

export function renderProblem(message: string): RenderProblem {
  const m = /\b(template|theme)\.tsx(?: at line |:| line )(\d+)/.exec(message);
  return m ? { message, file: m[1] as "template" | "theme", line: Number(m[2]) } : { message, file: null, line: null };
}

/**
 * The line an editor of `file` marks for a problem: the problem's line, clamped to the document's
 * `lineCount` lines; null when it names another file or no line. `stamp` identifies one render
 * result: the editor marks again for every new result, even at the same line and message, because
 * edits since the last one may have moved or erased the old mark.
 */
export function errorMark(
  problem: RenderProblem | null,
  file: "template" | "theme",
  lineCount: number,
): { line: number; message: string; stamp: RenderProblem } | null {
  if (!problem || problem.file !== file || problem.line === null || lineCount < 1) return null;
  return { line: Math.min(Math.max(problem.line, 1), lineCount), message: problem.message, stamp: problem };
}
