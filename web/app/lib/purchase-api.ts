/**
 * The purchase page's calls to the public payments routes (no keys: the purchase code is the
 * credential): validate the code, pay in test mode with the test card, or open a live checkout.
 * The browser calls them on its own origin (the Pages function forwards /api/* to the API); the
 * page's loader passes a `send` that goes through the API service binding instead.
 */
import type { ValidatedCode } from "@doorman/shared/wire-payments";

export type { ValidatedCode };

/** A known error answered by the API (`{ code, error }`), or a network failure (code null). */
export class PurchaseApiError extends Error {
  constructor(
    message: string,
    readonly code: string | null,
    readonly status: number,
  ) {
    super(message);
  }
}

/** Sends a prepared request (fetch in the browser, the service binding on the server). */
export type Send = (request: Request) => Promise<Response>;

const browserSend: Send = (request) => fetch(request);

async function post<T>(origin: string, path: string, body: unknown, send: Send): Promise<T> {
  const request = new Request(new URL(`/api/v1/payments/purchases/${path}`, origin), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  let res: Response;
  try {
    res = await send(request);
  } catch {
    throw new PurchaseApiError("Could not reach the server. Check your connection and try again.", null, 0);
  }
  const text = await res.text().catch(() => "");
  let json: (T & { code?: string; error?: string }) | null = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  if (!res.ok || json === null) {
    // Known errors are JSON ({ code, error }); other refusals (4xx) are a plain-text sentence meant for people.
    const plain = res.status >= 400 && res.status < 500 && json === null && text.length > 0 && text.length < 300 ? text : null;
    throw new PurchaseApiError(json?.error ?? plain ?? "Something went wrong. Try again in a moment.", json?.code ?? null, res.status);
  }
  return json;
}

/** What the code is for: the offer, the project selling it, the customer, test or live mode. */
export function validatePurchaseCode(
  args: { origin: string; fullCode: string; returnUrl?: string | null },
  send: Send = browserSend,
): Promise<ValidatedCode> {
  const body = { full_code: args.fullCode, ...(args.returnUrl ? { return_url: args.returnUrl } : {}) };
  return post<ValidatedCode>(args.origin, "validate-code", body, send);
}

/** Test mode: the test card completes the purchase at once. */
export function payInTestMode(args: {
  origin: string;
  fullCode: string;
  priceId: string;
  quantity: number;
  cardNumber: string;
}): Promise<{ success: true; purchase_id: string }> {
  return post(
    args.origin,
    "test-mode-purchase",
    { full_code: args.fullCode, price_id: args.priceId, quantity: args.quantity, card_number: args.cardNumber },
    browserSend,
  );
}

/** Live mode: a Stripe Checkout session; the browser goes to its `url`. */
export function startPurchaseSession(args: {
  origin: string;
  fullCode: string;
  priceId: string;
  quantity: number;
}): Promise<{ url: string; client_secret: string | null }> {
  return post(args.origin, "checkout-session", { full_code: args.fullCode, price_id: args.priceId, quantity: args.quantity }, browserSend);
}

/** A refusal of the card itself (the test checkout declines every card but the test card). */
export function isCardDeclined(error: unknown): boolean {
  return error instanceof PurchaseApiError && error.code === null && error.status === 400 && /card/i.test(error.message);
}

/** Why a code cannot be used, from the known error validate-code answered. */
export type CodeProblem = "unknown" | "expired" | "used" | "return_url" | "unavailable";

export function codeProblemOf(error: unknown): CodeProblem {
  if (!(error instanceof PurchaseApiError)) return "unavailable";
  if (error.code === "VERIFICATION_CODE_EXPIRED") return "expired";
  if (error.code === "VERIFICATION_CODE_ALREADY_USED") return "used";
  if (error.code === "VERIFICATION_CODE_NOT_FOUND" || error.code === "SCHEMA_ERROR") return "unknown";
  if (error.code === "REDIRECT_URL_NOT_WHITELISTED") return "return_url";
  return "unavailable";
}
