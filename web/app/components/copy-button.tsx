/**
 * A button that copies a value to the clipboard and says so (politely, for screen readers).
 */
import { useState } from "react";

export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState<"yes" | "no" | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied("yes");
    } catch {
      setCopied("no"); // e.g. clipboard permission denied: the value is still selectable
    }
    setTimeout(() => setCopied(null), 2000);
  };
  return (
    <button type="button" className="btn btn-secondary btn-small" onClick={copy} aria-label={`Copy ${label}`}>
      <span aria-live="polite">{copied === "yes" ? "Copied" : copied === "no" ? "Copy failed" : "Copy"}</span>
    </button>
  );
}
