/**
 * The Customers section of the Payments page: pick a user, team or custom id, then see its items
 * and quantities, its purchases and subscriptions, the recent ledger changes, and change a
 * quantity by hand (admin: getPaymentsCustomer; the server item's increase/decreaseQuantity).
 */

import type { PaymentsCustomerView } from "@doorman/sdk";
import { useCallback, useEffect, useState } from "react";
import type { OwnedProject } from "../../lib/dashboard-types";
import { formatCount, formatDateTime } from "../../lib/format";
import { errorMessage } from "../../lib/project-context";
import { DataTable } from "../data-table";
import { CustomerPicker, type PickedCustomer } from "./customer-picker";
import { GrantForm } from "./grant-form";
import type { PaymentsConfig } from "./payments-config";

const SOURCES = { test_mode: "Test checkout", stripe: "Stripe", api_grant: "Grant" } as const;

/**
 * A table box that scrolls sideways on small screens. Its tables hold no link or button, so the
 * box itself takes keyboard focus: keyboard users can scroll it too (WCAG 2.1.1).
 */
export function CustomersPanel(props: { project: OwnedProject; config: PaymentsConfig; toast: (m: string) => void }) {
  const app = props.project.app;
  const [customer, setCustomer] = useState<PickedCustomer | null>(null);
  const [view, setView] = useState<PaymentsCustomerView | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(
    async (c: PickedCustomer) => {
      const next = await app.getPaymentsCustomer({ customerType: c.customerType, customerId: c.customerId });
      setView(next);
    },
    [app],
  );

  useEffect(() => {
    if (!customer) return;
    let live = true;
    setView(null);
    setError(null);
    app
      .getPaymentsCustomer({ customerType: customer.customerType, customerId: customer.customerId })
      .then((v) => live && setView(v))
      .catch((e: unknown) => live && setError(errorMessage(e, "Could not load the customer.")));
    return () => {
      live = false;
    };
  }, [app, customer]);

  const typeItems = Object.entries(props.config.items)
    .filter(([, i]) => i.customerType === customer?.customerType)
    .map(([id, i]) => ({ id, displayName: i.displayName }));

  return (
    <section className="panel" aria-labelledby="payments-customers-title">
      <h2 id="payments-customers-title">Customers</h2>
      <CustomerPicker app={app} onPick={setCustomer} />
      {customer ? (
        <section className="payments-customer" aria-labelledby="payments-customer-title">
          <h3 id="payments-customer-title">
            {customer.label} <span className="muted payments-sub">{customer.customerType}</span>
          </h3>
          {error ? (
            <p className="alert" role="alert">
              {error}
            </p>
          ) : view === null ? (
            <p className="muted" role="status">
              Loading the customer…
            </p>
          ) : (
            <>
              <h4>Items</h4>
              <DataTable
                isEmpty={view.items.length === 0}
                empty="No item for this kind of customer."
                className="payments-table"
                label={`Items of ${customer.label}`}
                scrollLabel={`Items of ${customer.label}`}
              >
                <thead>
                  <tr>
                    <th scope="col">Item</th>
                    <th scope="col">Quantity</th>
                  </tr>
                </thead>
                <tbody>
                  {view.items.map((i) => (
                    <tr key={i.id}>
                      <th scope="row">
                        {i.displayName} <code className="muted">{i.id}</code>
                      </th>
                      <td data-testid={`quantity-${i.id}`}>{formatCount(i.quantity)}</td>
                    </tr>
                  ))}
                </tbody>
              </DataTable>
              <h4>Purchases and subscriptions</h4>
              <DataTable
                isEmpty={view.purchases.length === 0}
                empty="No purchase yet."
                className="payments-table"
                label={`Purchases of ${customer.label}`}
                scrollLabel={`Purchases of ${customer.label}`}
              >
                <thead>
                  <tr>
                    <th scope="col">Offer</th>
                    <th scope="col">Kind</th>
                    <th scope="col">Status</th>
                    <th scope="col">Quantity</th>
                    <th scope="col">From</th>
                    <th scope="col">Bought</th>
                  </tr>
                </thead>
                <tbody>
                  {view.purchases.map((p) => (
                    <tr key={p.id}>
                      <td>
                        {p.offer.displayName}{" "}
                        {p.offerId ? <code className="muted">{p.offerId}</code> : <span className="muted">(inline)</span>}
                      </td>
                      <td>{p.kind === "subscription" ? "Subscription" : "One-time"}</td>
                      <td>
                        {p.status}
                        {p.cancelAtPeriodEnd ? <span className="muted payments-sub">ends at period end</span> : null}
                        {p.currentPeriodEnd ? (
                          <span className="muted payments-sub">until {formatDateTime(p.currentPeriodEnd, "en-US")}</span>
                        ) : null}
                      </td>
                      <td>{p.quantity}</td>
                      <td>{SOURCES[p.source]}</td>
                      <td>{formatDateTime(p.createdAt, "en-US")}</td>
                    </tr>
                  ))}
                </tbody>
              </DataTable>
              <h4>Recent changes</h4>
              <DataTable
                isEmpty={view.changes.length === 0}
                empty="No manual change yet."
                className="payments-table"
                label={`Quantity changes of ${customer.label}`}
                scrollLabel={`Quantity changes of ${customer.label}`}
              >
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Item</th>
                    <th scope="col">Change</th>
                    <th scope="col">Description</th>
                    <th scope="col">Expires</th>
                  </tr>
                </thead>
                <tbody>
                  {view.changes.map((c) => (
                    <tr key={c.id}>
                      <td>{formatDateTime(c.createdAt, "en-US")}</td>
                      <td>
                        <code>{c.itemId}</code>
                      </td>
                      <td>{c.delta > 0 ? `+${c.delta}` : c.delta}</td>
                      <td>{c.description ?? ""}</td>
                      <td>{c.expiresAt ? formatDateTime(c.expiresAt, "en-US") : "Never"}</td>
                    </tr>
                  ))}
                </tbody>
              </DataTable>
              <GrantForm
                key={`${customer.customerType}:${customer.customerId}`}
                app={app}
                customer={customer}
                items={typeItems}
                onDone={async (message) => {
                  await load(customer);
                  props.toast(message);
                }}
              />
            </>
          )}
        </section>
      ) : (
        <p className="muted">Choose a customer to see its items and purchases.</p>
      )}
    </section>
  );
}
