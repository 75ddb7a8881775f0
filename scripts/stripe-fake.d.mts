/** Types of scripts/stripe-fake.mjs (the local Stripe fake's API, web-standard). */
export type StripeFakeRequest = { method: string; path: string; headers: Headers; form: URLSearchParams };
export type StripeFake = {
  handle(request: Request): Promise<Response>;
  requests: StripeFakeRequest[];
  addSubscription(accountId: string, sub: Record<string, unknown> & { id: string }): void;
  refuseCheckouts(accountId: string): void;
  addCustomer(accountId: string, customer: { id: string; metadata?: Record<string, string> }): void;
  refundsOf(accountId: string): Record<string, unknown>[];
};
export declare function parseForm(params: URLSearchParams): Record<string, unknown>;
export declare function createStripeFake(options: { origin: string }): StripeFake;
