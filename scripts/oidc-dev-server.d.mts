/** Types of scripts/oidc-dev-server.mjs (the bundled dev/test OpenID provider). */
export declare const MOCK_CLIENT_ID: "MOCK";
export declare function subjectOf(email: string): string;
export declare function startOidcDevServer(options?: { port?: number; host?: string; issuerHost?: string }): Promise<{
  issuer: string;
  port: number;
  close: () => Promise<void>;
}>;
