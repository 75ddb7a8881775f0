/** A button that copies a value to the clipboard and says so (politely, for screen readers). */
import { useEffect, useState } from "react";
import { useTranslation } from "../i18n/context";

/**
 * @example
 * <CopyButton value={apiKey} label="API key" />
 */
export function CopyButton({
  value,
  label,
  className = "stack-button stack-secondary stack-small",
}: {
  value: string;
  label: string;
  /** The button's classes (the dashboard uses its own). */
  className?: string;
}) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState<"yes" | "no" | null>(null);
  useEffect(() => {
    if (copied === null) return;
    const timer = setTimeout(() => setCopied(null), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied("yes");
    } catch {
      setCopied("no"); // e.g. clipboard permission denied: the value is still selectable
    }
  };
  return (
    // The name follows the visible text (WCAG 2.5.3, label in name): "Copied …" while it says Copied.
    <button
      type="button"
      className={className}
      onClick={copy}
      aria-label={
        copied === "yes"
          ? t("copy.copiedLabel", { label })
          : copied === "no"
            ? t("copy.failedLabel", { label })
            : t("copy.label", { label })
      }
    >
      <span aria-live="polite">{copied === "yes" ? t("copy.copied") : copied === "no" ? t("copy.failed") : t("copy.copy")}</span>
    </button>
  );
}
