/**
 * A delivery's message id (the `webhook-id` header): Svix's shape, `msg_` and 27 base62 characters,
 * so consumers and tools written for Svix (the reference's webhooks) parse it. Derived from the
 * event's UUID, so every delivery of one event, and every retry, carries the same id.
 */
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function messageIdOf(uuid: string): string {
  let n = BigInt(`0x${uuid.replace(/-/g, "")}`);
  let out = "";
  while (n > 0n) {
    out = ALPHABET[Number(n % 62n)] + out;
    n /= 62n;
  }
  // 128 bits take at most 22 base62 digits; left-padding to 27 keeps the mapping one-to-one.
  return `msg_${out.padStart(27, "0")}`;
}
