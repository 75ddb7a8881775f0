/**
 * The per-response CSP nonce, handed from entry.server.tsx to the document shell (root.tsx), which
 * puts it on Remix's inline scripts. In the browser it is empty: the scripts have already run.
 */
import { createContext, useContext } from "react";

export const NonceContext = createContext<string>("");

export function useNonce(): string {
  return useContext(NonceContext);
}
