/** Types of test/hostile-http.mjs (the local server that hangs, redirects, floods and drips on purpose). */
export type HostileStats = { requests: number; bytesSent: number; finished: boolean; closedEarly: boolean };
export declare function startHostileHttp(port?: number): Promise<{ port: number; stop: () => Promise<void> }>;
