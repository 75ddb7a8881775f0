// The local Stripe fake's API (web-standard Request → Response, no Node APIs): the few parts of
// Stripe's API Doorman calls (worker/services/payments/stripe-client.ts), with Stripe's JSON shapes
// and errors, state in memory. scripts/stripe-dev-server.mjs serves it over HTTP for `npm start`
// and the worker tests.
//   - Connect: POST /v1/accounts, GET /v1/accounts/:id, POST /v1/account_links, POST /v1/account_sessions;
//   - on a connected account (Stripe-Account header): POST /v1/checkout/sessions, GET/DELETE /v1/subscriptions/:id,
//     GET /v1/subscriptions?customer=, GET /v1/customers/:id, POST /v1/setup_intents, POST /v1/refunds,
//     GET /v1/payment_method_configurations, POST /v1/payment_method_configurations/:id;
//   - for payments the page confirms (Stripe Elements): POST /v1/customers, GET /v1/customers/search (metadata['k']:'v' AND …),
//     POST /v1/products, POST /v1/subscriptions (incomplete, with an open first invoice), POST /v1/subscriptions/:id
//     (new price on its item), POST /v1/payment_intents; `expand` of latest_invoice and pending_setup_intent;
//   - plan switches: POST /v1/customers/:id (invoice_settings[default_payment_method]); a subscription created or
//     updated with `payment_behavior=error_if_incomplete` and a `default_payment_method` is paid at once (active);
//   - pages a browser opens: GET/POST /setup/s/:account/:link (Stripe's onboarding URL shape; completes
//     the account's onboarding and returns to the link's return_url), GET /checkout/:session (takes no money).
// Idempotency-Key replays the first answer, as Stripe does. Only test keys (sk_test_…) are accepted;
// a key that starts with sk_test_hang never gets an answer (a hanging Stripe, for the timeout tests).

const html = (status, body) =>
  new Response(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Stripe fake</title></head><body>${body}</body></html>`, {
    status,
    headers: { "content-type": "text/html; charset=utf-8" },
  });
const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const json = (value, status = 200) => Response.json(value, { status, headers: { "request-id": `req_fake${Date.now()}` } });
/** Stripe's error body: {error: {type, message, code?, param?}}. */
const stripeError = (status, message, extra = {}) => json({ error: { type: "invalid_request_error", message, ...extra } }, status);
const missing = (what, id) => stripeError(404, `No such ${what}: '${id}'`, { code: "resource_missing", param: "id" });

/** The payment methods a new account's default configuration lists (Stripe's `display_preference` shape). */
const DEFAULT_METHODS = {
  card: { available: true, on: true },
  link: { available: true, on: true },
  apple_pay: { available: true, on: true },
  google_pay: { available: true, on: true },
  cashapp: { available: true, on: false },
  klarna: { available: true, on: false },
  affirm: { available: true, on: false },
  us_bank_account: { available: true, on: false },
  ideal: { available: false, on: false },
  sepa_debit: { available: false, on: false },
};

/** The key of `Authorization: Bearer <key>` or Basic `<key>:` (Stripe takes both; curl -u sends Basic). */
function apiKeyOf(authorization) {
  const bearer = /^Bearer (\S+)$/.exec(authorization);
  if (bearer) return bearer[1];
  const basic = /^Basic (\S+)$/.exec(authorization);
  try {
    return basic ? atob(basic[1]).split(":")[0] : "";
  } catch {
    return "";
  }
}

/** Stripe's bracketed form fields (`a[b][0][c]=1`) as a nested object (arrays stay index-keyed objects). */
export function parseForm(params) {
  const out = {};
  for (const [key, value] of params) {
    const path = key.replace(/\]/g, "").split("[");
    let node = out;
    for (const [i, part] of path.entries()) {
      if (i === path.length - 1) node[part] = value;
      else node = node[part] ??= {};
    }
  }
  return out;
}

/** A fresh fake; `origin` is where its pages are served (the onboarding and checkout URLs it hands out). */
export function createStripeFake({ origin }) {
  let counter = 0;
  const id = (prefix) => `${prefix}_fake${Date.now().toString(36)}${(++counter).toString(36).padStart(4, "0")}`;
  const now = () => Math.floor(Date.now() / 1000);
  const accounts = new Map();
  const links = new Map();
  /** Objects that live on a connected account: account id → { sessions, subscriptions, methodConfigs }. */
  const onAccount = new Map();
  const idempotent = new Map();
  const requests = [];
  const refusing = new Set();

  const scope = (accountId) => {
    let s = onAccount.get(accountId);
    if (!s) {
      s = {
        sessions: new Map(),
        subscriptions: new Map(),
        methodConfigs: new Map(),
        customers: new Map(),
        products: new Map(),
        invoices: new Map(),
        setupIntents: new Map(),
        paymentIntents: new Map(),
        refunds: new Map(),
      };
      onAccount.set(accountId, s);
    }
    return s;
  };

  function defaultMethodConfig(accountId) {
    const config = {
      id: id("pmc"),
      object: "payment_method_configuration",
      active: true,
      application: null,
      is_default: true,
      livemode: false,
      name: "Default",
      parent: null,
    };
    for (const [method, { available, on }] of Object.entries(DEFAULT_METHODS)) {
      const preference = on ? "on" : "off";
      config[method] = { available, display_preference: { overridable: true, preference, value: preference } };
    }
    scope(accountId).methodConfigs.set(config.id, config);
    return config;
  }

  const secretOf = (objectId) => `${objectId}_secret_${id("s").slice(2)}`;
  /** The values of a bracketed form list (`expand[0]=…&expand[1]=…`). */
  const listOf = (v) => (v && typeof v === "object" ? Object.values(v) : v === undefined ? [] : [v]);

  function newPaymentIntent(account, { amount, currency, customer, metadata }) {
    const intentId = id("pi");
    const intent = {
      id: intentId,
      object: "payment_intent",
      amount,
      currency,
      customer: customer ?? null,
      status: "requires_payment_method",
      client_secret: secretOf(intentId),
      automatic_payment_methods: { enabled: true },
      metadata: metadata ?? {},
      created: now(),
      livemode: false,
    };
    scope(account).paymentIntents.set(intent.id, intent);
    return intent;
  }

  /** A subscription item's price from `price_data` (Stripe requires an existing product id there). */
  function priceOf(account, data, param) {
    if (!data || typeof data !== "object") return { error: stripeError(400, `Missing required param: ${param}.`, { param }) };
    if (!scope(account).products.has(data.product))
      return { error: stripeError(400, `No such product: '${data.product}'`, { code: "resource_missing", param: `${param}[product]` }) };
    const recurring = data.recurring ?? {};
    if (!["day", "week", "month", "year"].includes(recurring.interval))
      return {
        error: stripeError(400, `Missing required param: ${param}[recurring][interval].`, { param: `${param}[recurring][interval]` }),
      };
    return {
      price: {
        id: id("price"),
        object: "price",
        currency: data.currency,
        unit_amount: Number(data.unit_amount),
        product: data.product,
        recurring: { interval: recurring.interval, interval_count: Number(recurring.interval_count ?? 1) },
        type: "recurring",
      },
    };
  }

  /** The invoice a subscription asks to pay now (open, with the payment's client secret), or a paid $0 one during a trial. */
  function newInvoice(account, sub, amount) {
    const invoiceId = id("in");
    const due = sub.status === "trialing" ? 0 : amount;
    // Charged to the default payment method at once (a plan switch): paid, nothing left to confirm.
    const charged = sub.status === "active" && sub.default_payment_method;
    const currency = sub.items.data[0].price.currency;
    // The invoice's payment, which the page confirms with the invoice's confirmation secret.
    const intent = due === 0 ? null : newPaymentIntent(account, { amount: due, currency, customer: sub.customer, metadata: {} });
    if (intent && charged) intent.status = "succeeded";
    const invoice = {
      id: invoiceId,
      object: "invoice",
      customer: sub.customer,
      currency,
      amount_due: due,
      status: due === 0 || charged ? "paid" : "open",
      confirmation_secret: intent && !charged ? { type: "payment_intent", client_secret: intent.client_secret } : null,
      parent: { type: "subscription_details", subscription_details: { subscription: sub.id, metadata: sub.metadata } },
      created: now(),
      livemode: false,
    };
    scope(account).invoices.set(invoice.id, invoice);
    return invoice;
  }

  /** A subscription as Stripe answers it, with the `expand`ed fields as objects. */
  function renderSubscription(account, sub, expand) {
    const s = scope(account);
    const wants = listOf(expand).map(String);
    const out = { ...sub };
    if (wants.some((e) => e.startsWith("latest_invoice")) && sub.latest_invoice) out.latest_invoice = s.invoices.get(sub.latest_invoice);
    if (wants.includes("pending_setup_intent") && sub.pending_setup_intent)
      out.pending_setup_intent = s.setupIntents.get(sub.pending_setup_intent);
    return out;
  }

  /** A subscription write charged at once to a default payment method (`error_if_incomplete`): paid, so active. */
  const paidAtOnce = (form) => form.payment_behavior === "error_if_incomplete" && typeof form.default_payment_method === "string";

  const routes = [
    [
      "POST",
      /^\/v1\/accounts$/,
      (_m, form) => {
        const account = {
          id: id("acct"),
          object: "account",
          type: "custom",
          country: form.country ?? "US",
          created: now(),
          charges_enabled: false,
          details_submitted: false,
          payouts_enabled: false,
          capabilities: Object.fromEntries(Object.keys(form.capabilities ?? {}).map((c) => [c, "inactive"])),
          controller: form.controller ?? null,
          metadata: form.metadata ?? {},
          livemode: false,
        };
        accounts.set(account.id, account);
        defaultMethodConfig(account.id);
        return json(account);
      },
    ],
    [
      "GET",
      /^\/v1\/accounts\/([^/]+)$/,
      ([accountId]) => (accounts.has(accountId) ? json(accounts.get(accountId)) : missing("account", accountId)),
    ],
    [
      "POST",
      /^\/v1\/account_links$/,
      (_m, form) => {
        if (!accounts.has(form.account)) return missing("account", form.account);
        if (!form.return_url || !form.refresh_url) return stripeError(400, "Missing required param: return_url.", { param: "return_url" });
        const linkId = id("acctlink");
        links.set(linkId, { account: form.account, returnUrl: form.return_url, refreshUrl: form.refresh_url, used: false });
        return json({
          object: "account_link",
          created: now(),
          expires_at: now() + 300,
          url: `${origin}/setup/s/${form.account}/${linkId}`,
        });
      },
    ],
    [
      "POST",
      /^\/v1\/account_sessions$/,
      (_m, form) => {
        if (!accounts.has(form.account)) return missing("account", form.account);
        return json({
          object: "account_session",
          account: form.account,
          client_secret: `accs_secret__${id("fake")}`,
          components: form.components ?? {},
          expires_at: now() + 1800,
          livemode: false,
        });
      },
    ],
    [
      "POST",
      /^\/v1\/checkout\/sessions$/,
      (_m, form, account) => {
        if (refusing.has(account)) return stripeError(400, "This account cannot currently make live charges.");
        const session = {
          id: `cs_test_${id("cs").slice(3)}`,
          object: "checkout.session",
          mode: form.mode ?? "payment",
          status: "open",
          payment_status: "unpaid",
          metadata: form.metadata ?? {},
          success_url: form.success_url ?? null,
          cancel_url: form.cancel_url ?? null,
          client_secret: null,
          created: now(),
          livemode: false,
        };
        session.url = `${origin}/checkout/${session.id}`;
        scope(account).sessions.set(session.id, session);
        return json(session);
      },
    ],
    [
      "POST",
      /^\/v1\/customers$/,
      (_m, form, account) => {
        const customer = {
          id: id("cus"),
          object: "customer",
          metadata: form.metadata ?? {},
          email: form.email ?? null,
          invoice_settings: { default_payment_method: null },
          created: now(),
          livemode: false,
        };
        scope(account).customers.set(customer.id, customer);
        return json(customer);
      },
    ],
    [
      "POST",
      /^\/v1\/customers\/([^/]+)$/,
      ([customerId], form, account) => {
        const customer = scope(account).customers.get(customerId);
        if (!customer) return missing("customer", customerId);
        const method = form.invoice_settings?.default_payment_method;
        if (method !== undefined) {
          if (!/^pm_\w+$/.test(method))
            return stripeError(400, `No such PaymentMethod: '${method}'`, {
              code: "resource_missing",
              param: "invoice_settings[default_payment_method]",
            });
          customer.invoice_settings = { ...customer.invoice_settings, default_payment_method: method };
        }
        if (form.metadata) customer.metadata = { ...customer.metadata, ...form.metadata };
        return json(customer);
      },
    ],
    [
      "POST",
      /^\/v1\/products$/,
      (_m, form, account) => {
        if (!form.name) return stripeError(400, "Missing required param: name.", { param: "name" });
        const product = { id: id("prod"), object: "product", name: form.name, active: true, created: now(), livemode: false };
        scope(account).products.set(product.id, product);
        return json(product);
      },
    ],
    [
      "POST",
      /^\/v1\/subscriptions$/,
      (_m, form, account) => {
        const s = scope(account);
        if (!s.customers.has(form.customer))
          return stripeError(400, `No such customer: '${form.customer}'`, { code: "resource_missing", param: "customer" });
        const item = form.items?.[0];
        const { price, error } = priceOf(account, item?.price_data, "items[0][price_data]");
        if (error) return error;
        const quantity = Number(item.quantity ?? 1);
        const trialDays = Number(form.trial_period_days ?? 0);
        const start = now();
        const end = start + (trialDays ? trialDays * 86400 : 30 * 86400);
        const sub = {
          id: id("sub"),
          object: "subscription",
          customer: form.customer,
          status: trialDays ? "trialing" : paidAtOnce(form) ? "active" : "incomplete",
          default_payment_method: form.default_payment_method ?? null,
          items: {
            object: "list",
            data: [{ id: id("si"), object: "subscription_item", price, quantity, current_period_start: start, current_period_end: end }],
          },
          metadata: form.metadata ?? {},
          cancel_at_period_end: false,
          trial_end: trialDays ? end : null,
          latest_invoice: null,
          pending_setup_intent: null,
          created: start,
          livemode: false,
        };
        sub.latest_invoice = newInvoice(account, sub, price.unit_amount * quantity).id;
        if (trialDays) {
          const setupId = id("seti");
          s.setupIntents.set(setupId, {
            id: setupId,
            object: "setup_intent",
            status: "requires_payment_method",
            client_secret: secretOf(setupId),
          });
          sub.pending_setup_intent = setupId;
        }
        s.subscriptions.set(sub.id, sub);
        return json(renderSubscription(account, sub, form.expand));
      },
    ],
    [
      "POST",
      /^\/v1\/subscriptions\/([^/]+)$/,
      ([subId], form, account) => {
        const sub = scope(account).subscriptions.get(subId);
        if (!sub) return missing("subscription", subId);
        if (sub.status === "canceled")
          return stripeError(400, `A canceled subscription can only update its cancellation_details and metadata.`);
        for (const [i, change] of Object.entries(form.items ?? {})) {
          const item = sub.items.data.find((it) => it.id === change.id);
          if (!item) return stripeError(400, `Invalid subscription item: '${change.id}'`, { param: `items[${i}][id]` });
          if (change.price_data) {
            const { price, error } = priceOf(account, change.price_data, `items[${i}][price_data]`);
            if (error) return error;
            item.price = price;
          }
          if (change.quantity !== undefined) item.quantity = Number(change.quantity);
        }
        if (form.metadata) sub.metadata = { ...sub.metadata, ...form.metadata };
        if (form.default_payment_method) sub.default_payment_method = form.default_payment_method;
        if (paidAtOnce(form)) sub.status = "active";
        if (form.items) {
          const item = sub.items.data[0];
          sub.latest_invoice = newInvoice(account, sub, item.price.unit_amount * item.quantity).id;
        }
        return json(renderSubscription(account, sub, form.expand));
      },
    ],
    [
      "POST",
      /^\/v1\/payment_intents$/,
      (_m, form, account) => {
        const amount = Number(form.amount);
        if (!Number.isInteger(amount) || amount < 1)
          return stripeError(400, "Invalid integer: amount must be at least 1.", { param: "amount" });
        if (!form.currency) return stripeError(400, "Missing required param: currency.", { param: "currency" });
        if (form.customer && !scope(account).customers.has(form.customer))
          return stripeError(400, `No such customer: '${form.customer}'`, { code: "resource_missing", param: "customer" });
        return json(newPaymentIntent(account, { amount, currency: form.currency, customer: form.customer, metadata: form.metadata }));
      },
    ],
    [
      "GET",
      /^\/v1\/subscriptions\/([^/]+)$/,
      ([subId], form, account) => {
        const sub = scope(account).subscriptions.get(subId);
        return sub ? json(renderSubscription(account, sub, form.expand)) : missing("subscription", subId);
      },
    ],
    [
      "DELETE",
      /^\/v1\/subscriptions\/([^/]+)$/,
      ([subId], _f, account) => {
        const sub = scope(account).subscriptions.get(subId);
        if (!sub) return missing("subscription", subId);
        if (sub.status === "canceled")
          return stripeError(400, `A canceled subscription can only update its cancellation_details and metadata.`);
        Object.assign(sub, { status: "canceled", canceled_at: now(), ended_at: now() });
        return json(sub);
      },
    ],
    [
      "GET",
      /^\/v1\/customers\/search$/,
      (_m, form, account) => {
        // Stripe's search syntax, the part Doorman sends: metadata['key']:'value' clauses joined by AND.
        const clauses = [...String(form.query ?? "").matchAll(/metadata\['([^']+)'\]:'((?:[^'\\]|\\.)*)'/g)].map(([, key, value]) => [
          key,
          value.replace(/\\(.)/g, "$1"),
        ]);
        const data = [...scope(account).customers.values()].filter((c) => clauses.every(([key, value]) => c.metadata?.[key] === value));
        return json({ object: "search_result", data, has_more: false, next_page: null, url: "/v1/customers/search" });
      },
    ],
    [
      "POST",
      /^\/v1\/setup_intents$/,
      (_m, form, account) => {
        if (form.customer && !scope(account).customers.has(form.customer)) return missing("customer", form.customer);
        const intentId = id("seti");
        return json({
          id: intentId,
          object: "setup_intent",
          client_secret: `${intentId}_secret_${id("x").slice(2)}`,
          customer: form.customer ?? null,
          status: "requires_payment_method",
          usage: form.usage ?? "off_session",
          created: now(),
          livemode: false,
        });
      },
    ],
    [
      "GET",
      /^\/v1\/customers\/([^/]+)$/,
      ([customerId], _f, account) => {
        const customer = scope(account).customers.get(customerId);
        return customer ? json(customer) : missing("customer", customerId);
      },
    ],
    [
      "GET",
      /^\/v1\/subscriptions$/,
      (_m, form, account) => {
        const all = [...scope(account).subscriptions.values()];
        const data = all.filter((sub) => !form.customer || sub.customer === form.customer);
        return json({ object: "list", data, has_more: false, url: "/v1/subscriptions" });
      },
    ],
    [
      "POST",
      /^\/v1\/refunds$/,
      (_m, form, account) => {
        if (!form.payment_intent && !form.charge)
          return stripeError(400, "One of the following params should be provided for this request: payment_intent or charge.");
        const amount = form.amount === undefined ? null : Number(form.amount);
        if (amount !== null && (!Number.isInteger(amount) || amount < 1))
          return stripeError(400, "Invalid positive integer", { param: "amount" });
        // The fake knows no payment intents paid outside it (events a test posts): it refunds any pi_… it is given.
        const refund = {
          id: id("re"),
          object: "refund",
          amount,
          charge: form.charge ?? null,
          payment_intent: form.payment_intent ?? null,
          currency: "usd",
          metadata: form.metadata ?? {},
          status: "succeeded",
          created: now(),
        };
        scope(account).refunds.set(refund.id, refund);
        return json(refund);
      },
    ],
    [
      "GET",
      /^\/v1\/payment_method_configurations$/,
      (_m, _f, account) => {
        const configs = [...scope(account).methodConfigs.values()];
        return json({ object: "list", data: configs, has_more: false, url: "/v1/payment_method_configurations" });
      },
    ],
    [
      "POST",
      /^\/v1\/payment_method_configurations\/([^/]+)$/,
      ([configId], form, account) => {
        const config = scope(account).methodConfigs.get(configId);
        if (!config) return missing("payment_method_configuration", configId);
        for (const [method, change] of Object.entries(form)) {
          const preference = change?.display_preference?.preference;
          if (preference === undefined) continue;
          if (!config[method]) return stripeError(400, `Received unknown parameter: ${method}`, { param: method });
          if (preference !== "on" && preference !== "off")
            return stripeError(400, `Invalid ${method}[display_preference][preference]: must be one of on or off`, { param: method });
          const pref = config[method].display_preference;
          pref.preference = preference;
          if (pref.overridable) pref.value = preference;
        }
        return json(config);
      },
    ],
  ];

  /** A browser's page: onboarding (GET shows it, POST completes it) and the checkout page. */
  function page(method, path, form) {
    const onboarding = /^\/setup\/s\/([^/]+)\/([^/]+)$/.exec(path);
    if (onboarding) {
      const link = links.get(onboarding[2]);
      if (!link) return html(404, "<p>This onboarding link does not exist (the Stripe fake forgets everything when it restarts).</p>");
      // Account links are single-use, as Stripe's: a used or reloaded one goes to refresh_url for a new one.
      if (link.used) return Response.redirect(link.refreshUrl, 303);
      if (method === "POST" && form.get("complete") === "yes") {
        link.used = true;
        Object.assign(accounts.get(link.account), { charges_enabled: true, details_submitted: true, payouts_enabled: true });
        return Response.redirect(link.returnUrl, 303);
      }
      return html(
        200,
        `<h1>Stripe fake: onboarding</h1><p>Account <code>${escapeHtml(link.account)}</code>. Nothing leaves this machine; no money moves.</p>
<form method="post"><input type="hidden" name="complete" value="yes"><button type="submit">Complete onboarding</button></form>`,
      );
    }
    const checkout = /^\/checkout\/([^/]+)$/.exec(path);
    if (checkout && method === "GET") {
      const session = [...onAccount.values()].map((s) => s.sessions.get(checkout[1])).find(Boolean);
      if (!session) return html(404, "<p>No such checkout session.</p>");
      const back = session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url)}">Back</a></p>` : "";
      return html(
        200,
        `<h1>Stripe fake: checkout</h1><p>The local Stripe fake takes no payments: use the project's test mode to buy offers.</p>${back}`,
      );
    }
    return null;
  }

  async function handle(request) {
    const url = new URL(request.url);
    const body = request.method === "GET" ? "" : await request.text();
    const params = new URLSearchParams(request.method === "GET" ? url.search : body);
    const record = { method: request.method, path: url.pathname, headers: request.headers, form: params };
    requests.push(record);
    if (!url.pathname.startsWith("/v1/")) return page(request.method, url.pathname, params) ?? html(404, "<p>Not found.</p>");
    // Only test keys: the fake must never be mistaken for a place a live key belongs.
    const key = apiKeyOf(request.headers.get("authorization") ?? "");
    if (!key.startsWith("sk_test_")) return stripeError(401, "Invalid API Key provided (the Stripe fake takes test keys, sk_test_…).");
    if (key.startsWith("sk_test_hang")) return new Promise(() => {});
    const account = request.headers.get("stripe-account");
    if (account && !accounts.has(account))
      return stripeError(403, `The provided key does not have access to account '${account}' (or that account does not exist).`, {
        code: "account_invalid",
      });
    const idemKey = request.method === "POST" ? request.headers.get("idempotency-key") : null;
    const idemId = idemKey ? `${key} ${account ?? ""} ${idemKey}` : null;
    if (idemId && idempotent.has(idemId)) {
      const first = idempotent.get(idemId);
      if (first.path !== url.pathname || first.body !== body)
        return stripeError(400, `Keys for idempotent requests can only be used with the same parameters they were first used with.`, {
          type: "idempotency_error",
        });
      return json(first.value, first.status);
    }
    for (const [method, pattern, run] of routes) {
      const m = method === request.method ? pattern.exec(url.pathname) : null;
      if (!m) continue;
      const res = run(m.slice(1).map(decodeURIComponent), parseForm(params), account ?? "");
      if (idemId && res.status < 500)
        idempotent.set(idemId, { path: url.pathname, body, status: res.status, value: await res.clone().json() });
      return res;
    }
    return stripeError(404, `Unrecognized request URL (${request.method}: ${url.pathname}).`);
  }

  return {
    handle,
    /** Every request, oldest first. */
    requests,
    /** Stripe knows this customer on `account` (`{id, metadata}`). */
    addCustomer: (accountId, customer) => scope(accountId).customers.set(customer.id, { object: "customer", ...customer }),
    /** The refunds made on `account`, oldest first. */
    refundsOf: (accountId) => [...scope(accountId).refunds.values()],
    /** Stripe knows this subscription on `account`. */
    addSubscription: (accountId, sub) => scope(accountId).subscriptions.set(sub.id, sub),
    /** Checkout Sessions on this account are refused, as for an account that cannot take charges. */
    refuseCheckouts: (accountId) => refusing.add(accountId),
  };
}
