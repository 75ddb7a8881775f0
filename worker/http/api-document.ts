/**
 * The API's own description for code that cannot import the app (the assistant's grounding): app.ts
 * registers how to build the OpenAPI document, and the lines are drawn from it once per isolate.
 */
type OperationLike = { summary?: string; "x-doorman-access"?: string[] };
type DocumentLike = { paths?: object };

let build: (() => DocumentLike) | null = null;
let lines: string[] | null = null;

export function registerApiDocument(builder: () => DocumentLike): void {
  build = builder;
  lines = null;
}

const METHODS = ["get", "post", "put", "patch", "delete"];

/** One line per operation: `GET /users/me [client, server, admin]: summary`. */
export function apiSummaryLines(): string[] {
  if (lines) return lines;
  if (!build) return [];
  const out: string[] = [];
  for (const [path, item] of Object.entries((build().paths ?? {}) as Record<string, Record<string, unknown> | undefined>)) {
    for (const method of METHODS) {
      const op = item?.[method] as OperationLike | undefined;
      if (!op) continue;
      const access = op["x-doorman-access"]?.join(", ") ?? "";
      out.push(`${method.toUpperCase()} /api/v1${path} [${access}]: ${op.summary ?? ""}`);
    }
  }
  lines = out;
  return out;
}
