/**
 * TSX → CommonJS for the sandbox, with sucrase (TypeScript, JSX with React's automatic runtime,
 * imports → require). Sucrase keeps line numbers, so the sandbox's stack traces point at the
 * owner's source lines. Type-only imports (Props, ThemeProps) are dropped.
 */
import { transform } from "sucrase";

export type Compiled = { ok: true; code: string } | { ok: false; error: string; line?: number };

export function compileTsx(source: string, file: string): Compiled {
  try {
    const { code } = transform(source, {
      transforms: ["typescript", "jsx", "imports"],
      jsxRuntime: "automatic",
      production: true,
      filePath: file,
    });
    return { ok: true, code };
  } catch (error) {
    const err = error as Error & { loc?: { line: number; column: number } };
    // "Error transforming template.tsx: Unexpected token (3:23)" → "Syntax error in template.tsx at line 3: Unexpected token"
    const message = String(err.message ?? error)
      .replace(/^Error transforming [^:]+: /, "")
      .replace(/ \(\d+:\d+\)$/, "");
    const where = err.loc ? ` at line ${err.loc.line}` : "";
    return { ok: false, error: `Syntax error in ${file}${where}: ${message}`, line: err.loc?.line };
  }
}
