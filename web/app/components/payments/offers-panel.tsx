/**
 * The Offers section of the Payments page: the configured offers with their prices and included
 * items, the editor to create, edit and delete one (deleting asks first), and a test checkout of
 * an offer for a chosen customer.
 */
import { useState } from "react";
import type { OwnedProject } from "../../lib/dashboard-types";
import { describePrice, formatCount, formatFreeTrial, formatRepeat } from "../../lib/format";
import { ConfigEntriesPanel } from "./config-entries";
import { OfferForm } from "./offer-form";
import { CUSTOMER_TYPE_LABELS, type OfferConfig, type PaymentsConfig } from "./payments-config";
import { TestCheckout } from "./test-checkout";

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
  app: OwnedProject["app"];
  config: PaymentsConfig;
  onSave: (id: string, offer: OfferConfig, newGroup: string | null, created: boolean) => Promise<void>;
  onDelete: (id: string) => Promise<void>;
}) {
  const [checkout, setCheckout] = useState<string | null>(null);
  const checkoutOffer = checkout === null ? undefined : props.config.offers[checkout];
  return (
    <ConfigEntriesPanel
      id="payments-offers"
      title="Offers"
      noun="offer"
      intro="What customers buy: plans and packs, with their prices and the items they include."
      entries={props.config.offers}
      empty="No offer yet."
      idExtra={(_, offer) => (offer.groupId ? <span className="muted payments-sub">group {offer.groupId}</span> : null)}
      columns={[
        {
          header: "Name",
          cell: (_, offer) => (
            <>
              {offer.displayName}
              <span className="payments-flags">
                {offer.stackable ? <span className="badge">stackable</span> : null}
                {offer.serverOnly ? <span className="badge badge-dev">server only</span> : null}
                {offer.freeTrial ? <span className="badge">{formatFreeTrial(offer.freeTrial)}</span> : null}
              </span>
            </>
          ),
        },
        { header: "Sold to", cell: (_, offer) => CUSTOMER_TYPE_LABELS[offer.customerType] },
        { header: "Prices", cell: (_, offer) => describePrices(offer) },
        { header: "Includes", cell: (_, offer) => describeIncluded(offer) },
      ]}
      deleteConsequence={(_, offer) =>
        `${offer.displayName} can no longer be offered through new purchase links. Customers who bought it keep their purchases.`
      }
      onDelete={props.onDelete}
      rowActions={(id, offer) =>
        offer.prices === "include-by-default" ? null : (
          <button
            type="button"
            className="btn btn-secondary btn-small"
            aria-label={`Test checkout of offer ${id}`}
            aria-expanded={checkout === id}
            onClick={() => setCheckout(checkout === id ? null : id)}
          >
            Test checkout
          </button>
        )
      }
      footer={
        checkout !== null && checkoutOffer ? (
          <TestCheckout
            key={checkout}
            app={props.app}
            offerId={checkout}
            offer={checkoutOffer}
            testMode={props.config.testMode}
            onClose={() => setCheckout(null)}
          />
        ) : null
      }
      editor={(e) => (
        <OfferForm
          offerId={e.entryId}
          initial={e.initial}
          takenIds={e.takenIds}
          items={props.config.items}
          groups={Object.keys(props.config.groups)}
          onCancel={e.onCancel}
          onSave={(id, offer, newGroup) => e.onSaved((created) => props.onSave(id, offer, newGroup, created))}
        />
      )}
    />
  );
}
