/**
 * The Items section of the Payments page: the configured items with their default quantities,
 * and the editor to create, edit and delete one (deleting asks first and names the offers that
 * still include the item).
 */
import { formatCount, formatRepeat } from "../../lib/format";
import { ConfigEntriesPanel } from "./config-entries";
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
  const includedBy = (id: string) =>
    Object.entries(props.config.offers)
      .filter(([, o]) => id in o.includedItems)
      .map(([offerId]) => offerId);

  return (
    <ConfigEntriesPanel
      id="payments-items"
      title="Items"
      noun="item"
      intro="What customers hold and spend: credits, seats, API calls. Offers include items."
      entries={props.config.items}
      empty="No item yet."
      columns={[
        { header: "Display name", cell: (_, item) => item.displayName },
        { header: "Held by", cell: (_, item) => CUSTOMER_TYPE_LABELS[item.customerType] },
        { header: "Default", cell: (_, item) => describeDefault(item) },
      ]}
      deleteConsequence={(id, item) => {
        const offers = includedBy(id);
        return `Customers stop seeing ${item.displayName} and its quantities.${
          offers.length ? ` Offers that include it (${offers.join(", ")}) will no longer grant it.` : ""
        } The quantity changes already recorded are kept.`;
      }}
      onDelete={props.onDelete}
      editor={(e) => (
        <ItemForm
          itemId={e.entryId}
          initial={e.initial}
          takenIds={e.takenIds}
          onCancel={e.onCancel}
          onSave={(id, item) => e.onSaved((created) => props.onSave(id, item, created))}
        />
      )}
    />
  );
}
