/**
 * The API's own OpenAPI document, built once per isolate on first use, for the code that serves it
 * (GET /openapi.json) and for code that cannot import the app (the assistant's grounding). The docs
 * routes register how to build it (http/openapi.ts addApiDocs).
 */
type OperationLike = { summary?: string; "x-doorman-access"?: string[] };
type DocumentLike = { paths?: object };

let build: (() => DocumentLike) | null = null;
let document: DocumentLike | null = null;
let lines: string[] | null = null;

export function registerApiDocument(builder: () => DocumentLike): void {
  build = builder;
  document = null;
  lines = null;
}

/** The document (built on first use); null before registration. */
export function apiDocument(): DocumentLike | null {
  if (!document && build) document = build();
  return document;
}

const METHODS = ["get", "post", "put", "patch", "delete"];

/** One line per operation: `GET /users/me [client, server, admin]: summary`. */
export function apiSummaryLines(): string[] {
  if (lines) return lines;
  const doc = apiDocument();
  if (!doc) return [];
  const out: string[] = [];
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Record<string, unknown> | undefined>)) {
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
