/** Types of test/doh-responder.mjs (the local DNS-over-HTTPS JSON responder with a control API). */
export declare function startDohResponder(
  port?: number,
): Promise<{ port: number; url: string; resolverUrl: string; stop: () => Promise<void> }>;
