/**
 * The Offers section of the Payments page: the configured offers with their prices and included
 * items, and the editor to create, edit and delete one (deleting asks first).
 */
import { useState } from "react";
import { describePrice, formatCount, formatFreeTrial, formatRepeat } from "../../lib/format";
import { ConfirmButton } from "../console-ui";
import { DataTable } from "../data-table";
import { OfferForm } from "./offer-form";
import { CUSTOMER_TYPE_LABELS, type OfferConfig, type PaymentsConfig } from "./payments-config";

function describePrices(offer: OfferConfig): string {
  if (offer.prices === "include-by-default") return "Included by default";
  const prices = Object.values(offer.prices);
  return prices.length ? prices.map((p) => describePrice(p as Record<string, unknown>)).join("; ") : "No price";
}

function describeIncluded(offer: OfferConfig): string {
  const entries = Object.entries(offer.includedItems);
  if (!entries.length) return "—";
  return entries
    .map(([id, i]) => {
      const repeat = formatRepeat(i.repeat);
      return `${formatCount(i.quantity)} ${id}${repeat ? ` ${repeat}` : ""}`;
    })
    .join(", ");
}

export function OffersPanel(props: {
  config: PaymentsConfig;
  onSave: (id: string, offer: OfferConfig, newGroup: string | null, created: boolean) => Promise<void>;
  onDelete: (id: string) => Promise<void>;
}) {
  const [editing, setEditing] = useState<string | "new" | null>(null);
  const offers = Object.entries(props.config.offers);

  return (
    <section className="panel" aria-labelledby="payments-offers-title">
      <div className="panel-heading">
        <h2 id="payments-offers-title">Offers</h2>
        {editing === null ? (
          <button type="button" className="btn btn-small" onClick={() => setEditing("new")}>
            New offer
          </button>
        ) : null}
      </div>
      <p className="muted">What customers buy: plans and packs, with their prices and the items they include.</p>
      <DataTable isEmpty={offers.length === 0} empty="No offer yet." className="payments-table">
        <thead>
          <tr>
            <th scope="col">Id</th>
            <th scope="col">Name</th>
            <th scope="col">Sold to</th>
            <th scope="col">Prices</th>
            <th scope="col">Includes</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {offers.map(([id, offer]) => (
            <tr key={id}>
              <td>
                <code>{id}</code>
                {offer.groupId ? <span className="muted payments-sub">group {offer.groupId}</span> : null}
              </td>
              <td>
                {offer.displayName}
                <span className="payments-flags">
                  {offer.stackable ? <span className="badge">stackable</span> : null}
                  {offer.serverOnly ? <span className="badge badge-dev">server only</span> : null}
                  {offer.freeTrial ? <span className="badge">{formatFreeTrial(offer.freeTrial)}</span> : null}
                </span>
              </td>
              <td>{CUSTOMER_TYPE_LABELS[offer.customerType]}</td>
              <td>{describePrices(offer)}</td>
              <td>{describeIncluded(offer)}</td>
              <td>
                <div className="payments-actions">
                  <button
                    type="button"
                    className="btn btn-secondary btn-small"
                    aria-label={`Edit offer ${id}`}
                    onClick={() => setEditing(id)}
                  >
                    Edit
                  </button>
                  <ConfirmButton
                    small
                    label="Delete"
                    ariaLabel={`Delete offer ${id}`}
                    title={`Delete offer ${id}?`}
                    consequence={`${offer.displayName} can no longer be offered through new purchase links. Customers who bought it keep their purchases.`}
                    confirmLabel="Delete offer"
                    onConfirm={() => props.onDelete(id)}
                  />
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </DataTable>
      {editing !== null ? (
        <OfferForm
          key={editing}
          offerId={editing === "new" ? null : editing}
          initial={editing === "new" ? null : (props.config.offers[editing] ?? null)}
          takenIds={Object.keys(props.config.offers)}
          items={props.config.items}
          groups={Object.keys(props.config.groups)}
          onCancel={() => setEditing(null)}
          onSave={async (id, offer, newGroup) => {
            await props.onSave(id, offer, newGroup, editing === "new");
            setEditing(null);
          }}
        />
      ) : null}
    </section>
  );
}
