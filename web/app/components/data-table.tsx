/**
 * The console's tables: a horizontal scroll box (wide tables scroll inside it, never the page),
 * an optional caption, and the empty state shown instead of a table without rows. The caller
 * writes thead and tbody; the area's class (user-table, email-table, …) keeps its look.
 *
 * Narrow screens (issue 26): long ids go in <IdText>, which keeps them on one line and cuts them
 * with an ellipsis below 560 px (the full id in its title and its text), instead of wrapping
 * them a few characters per line into rows hundreds of pixels tall.
 *
 * With `stack` (issue 28: the column names, in order) each row becomes a card below 560 px: one
 * cell a line, named by its column (the cells get `data-label`, which the stylesheet shows), so a
 * row is as tall as its content instead of squeezed into columns a few characters wide.
 */
import { Children, cloneElement, isValidElement, type ReactElement, type ReactNode } from "react";

type CellProps = { "data-label"?: string; children?: ReactNode };

/** The rows' cells of a tbody, each given its column's name (`data-label`) unless it has one. */
function labelRows(children: ReactNode, columns: readonly string[]): ReactNode {
  return Children.map(children, (part) => {
    if (!isValidElement<CellProps>(part)) return part;
    if (part.type === "tbody") return cloneElement(part, {}, labelRows(part.props.children, columns));
    if (part.type !== "tr") return part;
    let index = 0;
    const cells = Children.map(part.props.children, (cell) => {
      if (!isValidElement<CellProps>(cell) || (cell.type !== "td" && cell.type !== "th")) return cell;
      const label = columns[index++];
      return label && cell.props["data-label"] === undefined
        ? cloneElement(cell as ReactElement<CellProps>, { "data-label": label })
        : cell;
    });
    return cloneElement(part, {}, cells);
  });
}

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
  /**
   * The column names in order: below 560 px each row is a card, a cell a line with its column's
   * name. Rows and cells written inline (not inside a row component) are labelled; a cell may set
   * its own `data-label` ("" for none, e.g. a cell of buttons).
   */
  stack?: readonly string[];
  children: ReactNode;
}) {
  if (props.isEmpty && props.empty !== undefined) return <p className="empty">{props.empty}</p>;
  const classes = ["data-table", props.stack ? "data-table-stack" : null, props.className].filter(Boolean).join(" ");
  const table = (
    <table className={classes} aria-label={props.label}>
      {props.caption !== undefined ? <caption className={props.captionClassName}>{props.caption}</caption> : null}
      {props.stack ? labelRows(props.children, props.stack) : props.children}
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
