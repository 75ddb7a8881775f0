/** Types of scripts/oidc-dev-server.mjs (the bundled dev/test OpenID provider). */
export declare const MOCK_CLIENT_ID: "MOCK";
export declare const SSO_CLIENT_ID: "DOORMAN-SSO";
export declare const SSO_CLIENT_SECRET: string;
export declare function subjectOf(email: string): string;
export declare function startOidcDevServer(options?: { port?: number; host?: string; issuerHost?: string }): Promise<{
  issuer: string;
  port: number;
  close: () => Promise<void>;
}>;
