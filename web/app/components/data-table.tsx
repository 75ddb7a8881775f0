/**
 * The console's tables: a horizontal scroll box (wide tables scroll inside it, never the page),
 * an optional caption, and the empty state shown instead of a table without rows. The caller
 * writes thead and tbody; the area's class (user-table, email-table, …) keeps its look.
 *
 * Narrow screens (issue 26): long ids go in <IdCell>, which keeps them on one line and cuts them
 * with an ellipsis below 560 px (the full id in its title and its text), instead of wrapping
 * them a few characters per line into rows hundreds of pixels tall.
 */
import type { ReactNode } from "react";

export function DataTable(props: {
  /** The table's accessible name (aria-label), for a table without a caption. */
  label?: string;
  /** The caption naming the table. */
  caption?: ReactNode;
  /** The caption's class ("visually-hidden" for a caption only assistive tech reads). */
  captionClassName?: string;
  /** The area's table class, beside "data-table". */
  className?: string;
  /** True when there is no row: `empty` is shown instead of the table. */
  isEmpty?: boolean;
  /** What an empty table says instead (in <p className="empty">). */
  empty?: ReactNode;
  /**
   * Names the scroll box, which becomes a keyboard-reachable region: for a table with no control
   * inside it (a keyboard user scrolls it by focusing it).
   */
  scrollLabel?: string;
  /** Extra classes of the scroll box. */
  boxClassName?: string;
  children: ReactNode;
}) {
  if (props.isEmpty && props.empty !== undefined) return <p className="empty">{props.empty}</p>;
  const table = (
    <table className={props.className ? `data-table ${props.className}` : "data-table"} aria-label={props.label}>
      {props.caption !== undefined ? <caption className={props.captionClassName}>{props.caption}</caption> : null}
      {props.children}
    </table>
  );
  const box = props.boxClassName ? `table-scroll ${props.boxClassName}` : "table-scroll";
  if (props.scrollLabel)
    return (
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (the table holds no control).
      <section className={box} tabIndex={0} aria-label={props.scrollLabel}>
        {table}
      </section>
    );
  return <div className={box}>{table}</div>;
}

/** An id in a table cell: whole on wide screens; on narrow ones one line cut with an ellipsis (the full id in its title). */
export function IdText({ id, className }: { id: string; className?: string }) {
  return (
    <code className={className ? `cell-id ${className}` : "cell-id"} title={id}>
      {id}
    </code>
  );
}
