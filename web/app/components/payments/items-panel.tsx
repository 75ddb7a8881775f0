/**
 * The Items section of the Payments page: the configured items with their default quantities,
 * and the editor to create, edit and delete one (deleting asks first and names the offers that
 * still include the item).
 */
import { useState } from "react";
import { formatCount, formatRepeat } from "../../lib/format";
import { ConfirmButton } from "../console-ui";
import { DataTable } from "../data-table";
import { ItemForm } from "./item-form";
import { CUSTOMER_TYPE_LABELS, type ItemConfig, type PaymentsConfig } from "./payments-config";

function describeDefault(item: ItemConfig): string {
  const d = item.default;
  if (!d) return "0";
  const repeat = formatRepeat(d.repeat);
  return `${formatCount(d.quantity)}${repeat ? ` ${repeat}` : ""}${repeat && d.expires === "when-repeated" ? " (resets)" : ""}`;
}

export function ItemsPanel(props: {
  config: PaymentsConfig;
  onSave: (id: string, item: ItemConfig, created: boolean) => Promise<void>;
  onDelete: (id: string) => Promise<void>;
}) {
  const [editing, setEditing] = useState<string | "new" | null>(null);
  const items = Object.entries(props.config.items);
  const includedBy = (id: string) =>
    Object.entries(props.config.offers)
      .filter(([, o]) => id in o.includedItems)
      .map(([offerId]) => offerId);

  return (
    <section className="panel" aria-labelledby="payments-items-title">
      <div className="panel-heading">
        <h2 id="payments-items-title">Items</h2>
        {editing === null ? (
          <button type="button" className="btn btn-small" onClick={() => setEditing("new")}>
            New item
          </button>
        ) : null}
      </div>
      <p className="muted">What customers hold and spend: credits, seats, API calls. Offers include items.</p>
      <DataTable isEmpty={items.length === 0} empty="No item yet." className="payments-table">
        <thead>
          <tr>
            <th scope="col">Id</th>
            <th scope="col">Display name</th>
            <th scope="col">Held by</th>
            <th scope="col">Default</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map(([id, item]) => {
            const offers = includedBy(id);
            return (
              <tr key={id}>
                <td>
                  <code>{id}</code>
                </td>
                <td>{item.displayName}</td>
                <td>{CUSTOMER_TYPE_LABELS[item.customerType]}</td>
                <td>{describeDefault(item)}</td>
                <td>
                  <div className="payments-actions">
                    <button
                      type="button"
                      className="btn btn-secondary btn-small"
                      aria-label={`Edit item ${id}`}
                      onClick={() => setEditing(id)}
                    >
                      Edit
                    </button>
                    <ConfirmButton
                      small
                      label="Delete"
                      ariaLabel={`Delete item ${id}`}
                      title={`Delete item ${id}?`}
                      consequence={`Customers stop seeing ${item.displayName} and its quantities.${
                        offers.length ? ` Offers that include it (${offers.join(", ")}) will no longer grant it.` : ""
                      } The quantity changes already recorded are kept.`}
                      confirmLabel="Delete item"
                      onConfirm={() => props.onDelete(id)}
                    />
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </DataTable>
      {editing !== null ? (
        <ItemForm
          key={editing}
          itemId={editing === "new" ? null : editing}
          initial={editing === "new" ? null : (props.config.items[editing] ?? null)}
          takenIds={Object.keys(props.config.items)}
          onCancel={() => setEditing(null)}
          onSave={async (id, item) => {
            await props.onSave(id, item, editing === "new");
            setEditing(null);
          }}
        />
      ) : null}
    </section>
  );
}
