/** Types of test/client-metadata-server.mjs (the local server of client ID metadata documents). */
export declare function startClientMetadataServer(port?: number): Promise<{ port: number; stop: () => Promise<void> }>;
