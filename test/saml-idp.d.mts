/** Types of test/saml-idp.mjs (the samlify identity provider of the SAML SSO tests). */
export function startSamlIdp(port?: number): Promise<{ port: number; url: string; stop: () => Promise<void> }>;
