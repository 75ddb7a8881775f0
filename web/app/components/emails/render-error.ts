/**
 * Where a render error points: the API answers EMAIL_RENDERING_ERROR with a message naming the
 * file and line, e.g. "Syntax error in template.tsx at line 3: Unexpected token" or
 * "x is not defined (theme.tsx line 12)".
 */
export type RenderProblem = { message: string; file: "template" | "theme" | null; line: number | null };

export function renderProblem(message: string): RenderProblem {
  const m = /\b(template|theme)\.tsx(?: at line |:| line )(\d+)/.exec(message);
  return m ? { message, file: m[1] as "template" | "theme", line: Number(m[2]) } : { message, file: null, line: null };
}
