import { describe, expect, it } from "vitest";
import { renderProblem } from "./render-error";

describe("renderProblem", () => {
  it("finds the file and line a render error points at", () => {
    expect(renderProblem("Syntax error in template.tsx at line 3: Unexpected token")).toMatchObject({ file: "template", line: 3 });
    expect(renderProblem("x is not defined (theme.tsx line 12)")).toMatchObject({ file: "theme", line: 12 });
    expect(renderProblem("Something else")).toEqual({ message: "Something else", file: null, line: null });
  });
});
