/** Types of scripts/stripe-dev-server.mjs (the local Stripe fake over HTTP). */
import type { StripeFake } from "./stripe-fake.mjs";

export declare const STRIPE_DEV_SECRET_KEY: string;
export declare const STRIPE_DEV_WEBHOOK_SECRET: string;
export declare function startStripeDevServer(options?: { port?: number; host?: string }): Promise<{
  url: string;
  fake: StripeFake;
  close: () => Promise<void>;
}>;
