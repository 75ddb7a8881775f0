// Bundled by scripts/gen-api-doc.mjs for Node (cloudflare:* modules stubbed): the document and its table.
import { openApiDocument } from "../worker/app";
import { renderApiTable } from "../worker/http/api-table";

export function build() {
  const doc = openApiDocument();
  return { doc, markdown: renderApiTable(doc as never) };
}
