import { describe, expect, it } from "vitest";
import { errorMark, renderProblem } from "./render-error";

describe("renderProblem", () => {
  it("finds the file and line a render error points at", () => {
    expect(renderProblem("Syntax error in template.tsx at line 3: Unexpected token")).toMatchObject({ file: "template", line: 3 });
    expect(renderProblem("x is not defined (theme.tsx line 12)")).toMatchObject({ file: "theme", line: 12 });
    expect(renderProblem("Something else")).toEqual({ message: "Something else", file: null, line: null });
  });

  it("reads the API's messages as they come, after the theme prefix (lines as the worker counts them, 1-based)", () => {
    // The exact answers of POST /emails/render-email for an error on line 5 of the editor (seen in Chromium).
    expect(
      renderProblem("Failed to render email with theme: TypeError: cannot read property 'boom' of null (template.tsx line 5)"),
    ).toMatchObject({ file: "template", line: 5 });
    expect(
      renderProblem('Failed to render email with theme: Syntax error in template.tsx at line 5: Unexpected token, expected ","'),
    ).toMatchObject({
      file: "template",
      line: 5,
    });
  });
});

describe("errorMark", () => {
  const problem = renderProblem("Syntax error in template.tsx at line 5: Unexpected token");

  it("marks the reported line in the editor of that file only", () => {
    expect(errorMark(problem, "template", 10)).toEqual({ line: 5, message: problem.message, stamp: problem });
    expect(errorMark(problem, "theme", 10)).toBeNull();
    expect(errorMark(null, "template", 10)).toBeNull();
    expect(errorMark(renderProblem("Rendering was stopped"), "template", 10)).toBeNull();
  });

  it("clamps a line past the end (an error at the end of the file) to the last line", () => {
    expect(errorMark(renderProblem("Syntax error in template.tsx at line 12: Unexpected token"), "template", 7)?.line).toBe(7);
  });

  it("is a new mark for every render result, even at the same line and message", () => {
    // The editor marks again on each new result: edits since the last one may have moved or erased its mark.
    const again = renderProblem("Syntax error in template.tsx at line 5: Unexpected token");
    expect(errorMark(again, "template", 10)?.stamp).not.toBe(errorMark(problem, "template", 10)?.stamp);
    expect(errorMark(problem, "template", 10)?.stamp).toBe(errorMark(problem, "template", 11)?.stamp);
  });
});
