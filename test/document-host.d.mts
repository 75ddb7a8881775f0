/** Types of test/document-host.mjs (the local server that serves documents a test stores). */
export declare function startDocumentHost(port?: number): Promise<{ port: number; stop: () => Promise<void> }>;
