/** The structural API-key types the React layer relies on (the SDK's `ApiKey` objects satisfy them). */

export type ReactApiKey = {
  readonly id: string;
  readonly description: string;
  readonly isPublic: boolean;
  readonly createdAt: Date;
  readonly expiresAt: Date | undefined;
  readonly manuallyRevokedAt: Date | null;
  readonly value: { lastFour: string };
  whyInvalid(): "expired" | "manually-revoked" | null;
  revoke(): Promise<unknown>;
};

/** The create response: the full key, shown once. */
export type ReactApiKeyFirstView = Omit<ReactApiKey, "value"> & { readonly value: string };

/** A user or a team: anything that lists and creates API keys. */
export type ReactApiKeyOwner = {
  createApiKey(options: { description: string; expiresAt: Date | null; isPublic?: boolean }): Promise<ReactApiKeyFirstView>;
  listApiKeys(): Promise<ReactApiKey[]>;
};
