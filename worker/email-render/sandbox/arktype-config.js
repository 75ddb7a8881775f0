// Runs before arktype loads (the entry imports it first): variables a schema does not declare are
// dropped, as in the reference's renderer.
import { configure } from "arktype/config";

configure({ onUndeclaredKey: "delete" });
