/** Types of test/webhook-receiver.mjs (the local webhook receiver that verifies with svix). */
export type ReceivedWebhook = {
  headers: Record<string, string>;
  body: string;
  verified: boolean;
  error: string | null;
  answered: number;
  receivedAt: number;
};
export declare function startWebhookReceiver(port?: number): Promise<{ port: number; stop: () => Promise<void> }>;
