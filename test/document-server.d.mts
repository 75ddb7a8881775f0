/** Types of test/document-server.mjs (the local server of documents a test publishes: CIMD documents, jwks_uri). */
export declare function startDocumentServer(port?: number): Promise<{ port: number; stop: () => Promise<void> }>;
