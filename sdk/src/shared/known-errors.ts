/**
 * The known-error catalogue: every code of wire-protocol.md §3 with its HTTP status,
 * its wire `details` keys and its human message. Shared by the worker (which throws
 * and renders these) and the SDK (which rebuilds them from `{code, details}`).
 */

export type ErrorDetails = Record<string, unknown>;

/** A `details` object with (optionally) the keys `K`; absent keys render as null on the wire. */
export type DetailsOf<K extends string> = { [P in K]?: unknown };

export type CatalogueEntry<D extends readonly string[] = readonly string[]> = {
  status: number;
  /** Keys the wire `details` object carries (empty = no details). */
  details: D;
  /** Human message; may read from details. */
  message: (d: DetailsOf<D[number]>) => string;
  /** Abstract families the SDK can catch by (e.g. REFRESH_TOKEN_ERROR). */
  families?: readonly string[];
};

const m = (text: string) => () => text;
/**
 * One catalogue entry; `details` is kept literal so each code's details keys are typed.
 * (NoInfer: without it an entry with no details would take `readonly string[]` from the
 * `satisfies` below instead of `readonly []`.)
 */
function e<const D extends readonly string[] = readonly []>(
  status: number,
  message: string | ((d: DetailsOf<D[number]>) => string),
  details: D = [] as unknown as D,
  families: readonly string[] = [],
): CatalogueEntry<NoInfer<D>> {
  return { status, details, message: typeof message === "string" ? m(message) : message, families };
}

const PROJECT_AUTH = ["PROJECT_AUTHENTICATION_ERROR", "INVALID_PROJECT_AUTHENTICATION"];
const PROJECT_AUTH_REQUIRED = ["PROJECT_AUTHENTICATION_ERROR", "PROJECT_AUTHENTICATION_REQUIRED"];
const ADMIN_TOKEN = [...PROJECT_AUTH, "INVALID_ADMIN_ACCESS_TOKEN"];
const ACCESS_TOKEN = ["SESSION_AUTHENTICATION_ERROR", "INVALID_SESSION_AUTHENTICATION", "INVALID_ACCESS_TOKEN"];
const REFRESH = ["REFRESH_TOKEN_ERROR"];
const PASSWORD = ["PASSWORD_REQUIREMENTS_NOT_MET"];
const VERIFY = ["VERIFICATION_ERROR"];
const API_KEY = ["API_KEY_NOT_VALID"];
const str = (v: unknown) => (v === undefined || v === null ? "" : String(v));

/** The `details.message` of PASSWORD_REQUIREMENTS_NOT_MET for each of Doorman's password rules. */
export const PASSWORD_RULE_MESSAGES = {
  tooCommon: "This password is one of the most common passwords. Please choose one that is harder to guess.",
  contextWord: "This password contains the name or domain of this app, or part of your email address. Please choose another.",
} as const;

export const catalogue = {
  UNSUPPORTED_ERROR: e(500, (d) => `An error occurred that is not currently supported (possibly because it was added in a version of the SDK that is newer than this one): ${str(d.originalErrorCode)}`, ["originalErrorCode"]),
  BODY_PARSING_ERROR: e(400, "The request body could not be parsed."),
  SCHEMA_ERROR: e(400, (d) => str(d.message) || "The request did not match the expected schema.", ["message"]),
  ALL_OVERLOADS_FAILED: e(400, "This endpoint has multiple overloads, but they all failed to process the request.", ["overload_errors"]),
  PROJECT_KEY_WITHOUT_ACCESS_TYPE: e(400, "Either an API key or an admin access token was provided, but the x-stack-access-type header is missing. Set it to 'client', 'server', or 'admin' as appropriate.", [], PROJECT_AUTH),
  INVALID_ACCESS_TYPE: e(400, "The x-stack-access-type header must be 'client', 'server', or 'admin'.", [], PROJECT_AUTH),
  ACCESS_TYPE_WITHOUT_PROJECT_ID: e(400, (d) => `The x-stack-access-type header was '${str(d.request_type)}', but the x-stack-project-id header was not provided.`, ["request_type"], PROJECT_AUTH),
  ACCESS_TYPE_REQUIRED: e(400, "You must specify an access level for this Stack project. Make sure project API keys are provided (eg. x-stack-publishable-client-key) and you set the x-stack-access-type header to 'client', 'server', or 'admin'.", [], PROJECT_AUTH),
  INSUFFICIENT_ACCESS_TYPE: e(401, (d) => `The x-stack-access-type header must be ${(d.allowed_access_types as string[] | undefined)?.map((t) => `'${t}'`).join(" or ") ?? "higher"}, but was '${str(d.actual_access_type)}'.`, ["actual_access_type", "allowed_access_types"], PROJECT_AUTH),
  INVALID_PUBLISHABLE_CLIENT_KEY: e(401, (d) => `The publishable key is not valid for the project ${JSON.stringify(d.project_id)}. Does the project and/or the key exist?`, ["project_id"], PROJECT_AUTH),
  INVALID_SECRET_SERVER_KEY: e(401, (d) => `The secret server key is not valid for the project ${JSON.stringify(d.project_id)}. Does the project and/or the key exist?`, ["project_id"], PROJECT_AUTH),
  INVALID_SUPER_SECRET_ADMIN_KEY: e(401, (d) => `The super secret admin key is not valid for the project ${JSON.stringify(d.project_id)}. Does the project and/or the key exist?`, ["project_id"], PROJECT_AUTH),
  PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT: e(401, (d) => `Publishable client keys are required for this project${d.project_id ? ` (${str(d.project_id)})` : ""}. Create one in the dashboard, or disable the requirement.`, ["project_id"], PROJECT_AUTH),
  UNPARSABLE_ADMIN_ACCESS_TOKEN: e(401, "Admin access token is not parsable.", [], ADMIN_TOKEN),
  ADMIN_ACCESS_TOKEN_EXPIRED: e(401, "Admin access token has expired. Please refresh it and try again.", ["expired_at_millis"], ADMIN_TOKEN),
  INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN: e(401, "Admin access tokens must be created on the internal project.", [], ADMIN_TOKEN),
  ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN: e(401, "Admin access token does not have the required permissions to access this project.", [], ADMIN_TOKEN),
  CLIENT_AUTHENTICATION_REQUIRED: e(401, "The publishable client key must be provided.", [], PROJECT_AUTH_REQUIRED),
  SERVER_AUTHENTICATION_REQUIRED: e(401, "The secret server key must be provided.", [], PROJECT_AUTH_REQUIRED),
  CLIENT_OR_SERVER_AUTHENTICATION_REQUIRED: e(401, "Either the publishable client key or the secret server key must be provided.", [], PROJECT_AUTH_REQUIRED),
  CLIENT_OR_ADMIN_AUTHENTICATION_REQUIRED: e(401, "Either the publishable client key or the super secret admin key must be provided.", [], PROJECT_AUTH_REQUIRED),
  CLIENT_OR_SERVER_OR_ADMIN_AUTHENTICATION_REQUIRED: e(401, "Either the publishable client key, the secret server key, or the super secret admin key must be provided.", [], PROJECT_AUTH_REQUIRED),
  ADMIN_AUTHENTICATION_REQUIRED: e(401, "The super secret admin key must be provided.", [], PROJECT_AUTH_REQUIRED),
  EXPECTED_INTERNAL_PROJECT: e(401, "The project ID is expected to be internal.", [], PROJECT_AUTH),
  UNPARSABLE_ACCESS_TOKEN: e(401, "Access token is not parsable.", [], ACCESS_TOKEN),
  ACCESS_TOKEN_EXPIRED: e(401, (d) => `Access token has expired. Please refresh it and try again.${d.expired_at_millis ? ` (The access token expired at ${new Date(Number(d.expired_at_millis)).toISOString()}.)` : ""}`, ["expired_at_millis", "project_id", "user_id", "refresh_token_id"], ACCESS_TOKEN),
  INVALID_PROJECT_FOR_ACCESS_TOKEN: e(401, (d) => `The access token is not valid for this project. Expected project ID ${JSON.stringify(d.expected_project_id)}, but the token is for project ID ${JSON.stringify(d.actual_project_id)}.`, ["expected_project_id", "actual_project_id"], ACCESS_TOKEN),
  REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED: e(401, "Refresh token not found for this project, or the session has expired/been revoked.", [], REFRESH),
  CANNOT_DELETE_CURRENT_SESSION: e(400, "Cannot delete the current session.", [], REFRESH),
  PROVIDER_REJECTED: e(401, "The provider refused to refresh their token. This usually means that the provider used to authenticate the user no longer regards this session as valid, and the user must re-authenticate.", [], REFRESH),
  USER_EMAIL_ALREADY_EXISTS: e(409, (d) => `A user with email ${JSON.stringify(d.email)} already exists${d.would_work_if_email_was_verified ? " but the email is not verified. Please login to your existing account with the method you used to sign up, and then verify your email to sign in with this login method." : "."}`, ["email", "would_work_if_email_was_verified"]),
  EMAIL_NOT_VERIFIED: e(400, "The email is not verified."),
  CANNOT_GET_OWN_USER_WITHOUT_USER: e(400, "You have specified 'me' as a userId, but did not provide authentication for a user."),
  USER_ID_DOES_NOT_EXIST: e(400, (d) => `The given user with the ID ${str(d.user_id)} does not exist.`, ["user_id"]),
  USER_NOT_FOUND: e(404, "User not found."),
  USER_AUTHENTICATION_REQUIRED: e(401, "User authentication required for this endpoint."),
  RESTRICTED_USER_NOT_ALLOWED: e(403, (d) => `This user is restricted (${str((d.restricted_reason as { type?: string } | undefined)?.type)}) and cannot perform this action.`, ["restricted_reason"]),
  TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED: e(403, "Restricted users cannot accept team invitations. Please verify your email first.", ["restricted_reason"]),
  PROJECT_NOT_FOUND: e(404, (d) => `Project ${str(d.project_id)} not found or is not accessible with the current user.`, ["project_id"]),
  CURRENT_PROJECT_NOT_FOUND: e(400, (d) => `The current project with ID ${str(d.project_id)} was not found. Please check the value of the x-stack-project-id header.`, ["project_id"]),
  BRANCH_DOES_NOT_EXIST: e(400, (d) => `The branch with ID ${str(d.branch_id)} does not exist.`, ["branch_id"]),
  SIGN_UP_NOT_ENABLED: e(400, "Creation of new accounts is not enabled for this project. Please ask the project owner to enable it."),
  SIGN_UP_REJECTED: e(403, (d) => str(d.message) || "Your sign up was rejected by an administrator's sign-up rule.", ["message"]),
  BOT_CHALLENGE_REQUIRED: e(409, "An additional bot challenge is required before sign-up can continue."),
  BOT_CHALLENGE_FAILED: e(400, (d) => str(d.message) || "The bot challenge failed.", ["message"]),
  PASSWORD_AUTHENTICATION_NOT_ENABLED: e(400, "Password authentication is not enabled for this project."),
  PASSKEY_AUTHENTICATION_NOT_ENABLED: e(400, "Passkey authentication is not enabled for this project."),
  ANONYMOUS_ACCOUNTS_NOT_ENABLED: e(400, "Anonymous accounts are not enabled for this project."),
  ANONYMOUS_AUTHENTICATION_NOT_ALLOWED: e(401, "X-Stack-Access-Token is for an anonymous user, but anonymous users are not enabled. Set the X-Stack-Allow-Anonymous-User header of this request to 'true' to allow anonymous users."),
  EMAIL_PASSWORD_MISMATCH: e(400, "Wrong e-mail or password."),
  REDIRECT_URL_NOT_WHITELISTED: e(400, "Redirect URL not whitelisted. Did you forget to add this domain to the trusted domains list on the Stack Auth dashboard?"),
  // Abstract in the reference, but constructible there (status, message, details): Doorman sends it for the
  // common-password and context-word rules, with `details.message`, which the reference SDK rebuilds it from.
  PASSWORD_REQUIREMENTS_NOT_MET: e(400, (d) => str(d.message) || "The password does not meet the project's requirements.", ["message"]),
  PASSWORD_TOO_SHORT: e(400, (d) => `Password too short. Minimum length is ${str(d.min_length)}.`, ["min_length"], PASSWORD),
  PASSWORD_TOO_LONG: e(400, (d) => `Password too long. Maximum length is ${str(d.maxLength)}.`, ["maxLength"], PASSWORD),
  // Doorman's own (the reference has no breached-password check; issue 29): the new password is in a breach
  // corpus (a k-anonymity range API). In the PASSWORD family, so code that catches PASSWORD_REQUIREMENTS_NOT_MET catches it.
  PASSWORD_BREACHED: e(400, "This password has appeared in a data breach; choose another.", [], PASSWORD),
  USER_DOES_NOT_HAVE_PASSWORD: e(400, "This user does not have password authentication enabled."),
  VERIFICATION_CODE_NOT_FOUND: e(404, "The verification code does not exist for this project.", [], VERIFY),
  VERIFICATION_CODE_EXPIRED: e(400, "The verification code has expired.", [], VERIFY),
  VERIFICATION_CODE_ALREADY_USED: e(409, "The verification link has already been used.", [], VERIFY),
  VERIFICATION_CODE_MAX_ATTEMPTS_REACHED: e(400, "The verification code nonce has reached the maximum number of attempts. This code is not valid anymore.", [], VERIFY),
  PASSWORD_CONFIRMATION_MISMATCH: e(400, "Passwords do not match."),
  EMAIL_ALREADY_VERIFIED: e(409, "The e-mail is already verified."),
  EMAIL_NOT_ASSOCIATED_WITH_USER: e(400, "The e-mail is not associated with a user that could log in with that e-mail."),
  EMAIL_IS_NOT_PRIMARY_EMAIL: e(400, (d) => `The given e-mail (${str(d.email)}) must equal the user's primary e-mail (${str(d.primary_email)}).`, ["email", "primary_email"]),
  PASSKEY_REGISTRATION_FAILED: e(400, "Passkey registration failed."),
  PASSKEY_WEBAUTHN_ERROR: e(400, (d) => str(d.message) || "A WebAuthn error occurred.", ["message", "code"]),
  PASSKEY_AUTHENTICATION_FAILED: e(400, "Passkey authentication failed."),
  PERMISSION_NOT_FOUND: e(404, (d) => `Permission "${str(d.permission_id)}" not found. Make sure you created it on the dashboard.`, ["permission_id"]),
  WRONG_PERMISSION_SCOPE: e(404, (d) => `Permission ${JSON.stringify(d.permission_id)} not found in scope ${str(d.expected_scope)}; it exists in scope ${str(d.actual_scope)}.`, ["permission_id", "expected_scope", "actual_scope"]),
  CONTAINED_PERMISSION_NOT_FOUND: e(400, (d) => `Contained permission with ID "${str(d.permission_id)}" not found. Make sure you created it on the dashboard.`, ["permission_id"]),
  PERMISSION_ID_ALREADY_EXISTS: e(400, (d) => `Permission with ID "${str(d.permission_id)}" already exists. Choose a different ID.`, ["permission_id"]),
  TEAM_NOT_FOUND: e(404, (d) => `Team ${str(d.team_id)} not found.`, ["team_id"]),
  TEAM_ALREADY_EXISTS: e(409, (d) => `Team ${str(d.team_id)} already exists.`, ["team_id"]),
  TEAM_MEMBERSHIP_NOT_FOUND: e(404, (d) => `User ${str(d.user_id)} is not found in team ${str(d.team_id)}.`, ["team_id", "user_id"]),
  TEAM_MEMBERSHIP_ALREADY_EXISTS: e(409, "Team membership already exists."),
  EMAIL_TEMPLATE_ALREADY_EXISTS: e(409, "Email template already exists."),
  EMAIL_RENDERING_ERROR: e(400, (d) => `Failed to render email with theme: ${str(d.error)}`, ["error"]),
  TEMPLATE_SOURCE_REWRITE_ERROR: e(400, (d) => `Failed to rewrite the template source: ${str(d.error)}`, ["error"]),
  REQUIRES_CUSTOM_EMAIL_SERVER: e(400, "This action requires a custom SMTP server. Please edit your email server configuration and try again."),
  EMAIL_NOT_EDITABLE: e(
    400,
    (d) =>
      `Email with ID "${str(d.email_id)}" cannot be edited because it is in status "${str(d.status)}". Only emails in PAUSED, PREPARING, RENDERING, RENDER_ERROR, SCHEDULED, QUEUED, or SERVER_ERROR status can be edited.`,
    ["email_id", "status"],
  ),
  EMAIL_CAPACITY_BOOST_ALREADY_ACTIVE: e(409, "An email capacity boost is already active.", ["expires_at"]),
  OAUTH_CONNECTION_NOT_CONNECTED_TO_USER: e(400, "The OAuth connection is not connected to any user."),
  OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER: e(409, "The OAuth connection is already connected to another user."),
  OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE: e(400, "The OAuth connection does not have the required scope."),
  OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS: e(400, "Extra scopes are not available with shared OAuth keys. Please add your own OAuth keys on the Stack dashboard to use extra scopes."),
  OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS: e(400, "Access tokens are not available with shared OAuth keys. Please add your own OAuth keys on the Stack dashboard to use access tokens."),
  OAUTH_ACCESS_TOKEN_NOT_AVAILABLE: e(400, (d) => `Failed to retrieve an OAuth access token for the connected account (provider: ${str(d.provider)}). ${str(d.details)}`, ["provider", "details"]),
  INVALID_OAUTH_CLIENT_ID_OR_SECRET: e(400, (d) => `The OAuth client ID or secret is invalid.${d.client_id ? ` The client ID you provided is ${str(d.client_id)}.` : ""}`, ["client_id"]),
  INVALID_SCOPE: e(400, "The scope is not a valid OAuth scope for Stack."),
  USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION: e(409, "The user is already connected to another OAuth account. Did you maybe selected the wrong account?"),
  OUTER_OAUTH_TIMEOUT: e(408, "The OAuth flow has timed out. Please sign in again."),
  OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED: e(400, "The OAuth provider is not found or not enabled."),
  OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN: e(400, "A provider account with this account ID already exists and is used for sign-in."),
  OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE: e(503, "The OAuth provider is temporarily unavailable. Please try again later."),
  OAUTH_PROVIDER_ACCESS_DENIED: e(400, "The OAuth provider denied access to the user."),
  APPLE_BUNDLE_ID_NOT_CONFIGURED: e(
    400,
    "Apple Sign In is enabled, but no Bundle IDs are configured. Please add your app's Bundle ID in the Stack Auth dashboard under OAuth Providers > Apple > Apple Bundle IDs.",
  ),
  INVALID_APPLE_CREDENTIALS: e(400, "The Apple Sign In credentials could not be verified. Please try signing in again."),
  INVALID_SHARED_OAUTH_PROVIDER_ID: e(400, (d) => `The shared OAuth provider with ID ${str(d.provider_id)} is not valid.`, ["provider_id"]),
  INVALID_STANDARD_OAUTH_PROVIDER_ID: e(400, (d) => `The standard OAuth provider with ID ${str(d.provider_id)} is not valid.`, ["provider_id"]),
  INVALID_AUTHORIZATION_CODE: e(400, "The given authorization code is invalid."),
  MULTI_FACTOR_AUTHENTICATION_REQUIRED: e(400, "Multi-factor authentication is required for this user.", ["attempt_code", "enrollment_required", "passkey_required"]),
  INVALID_TOTP_CODE: e(400, "The TOTP code is invalid. Please try again."),
  PROJECT_PERMISSION_REQUIRED: e(401, (d) => `User ${str(d.user_id)} does not have permission ${str(d.permission_id)}.`, ["user_id", "permission_id"]),
  TEAM_PERMISSION_REQUIRED: e(401, (d) => `User ${str(d.user_id)} does not have permission ${str(d.permission_id)} in team ${str(d.team_id)}.`, ["team_id", "user_id", "permission_id"]),
  TEAM_PERMISSION_NOT_FOUND: e(401, (d) => `User ${str(d.user_id)} does not have permission ${str(d.permission_id)} in team ${str(d.team_id)}.`, ["team_id", "user_id", "permission_id"]),
  CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE: e(409, (d) => `This ${str(d.type)} ${d.contact_channel_value ? `"(${str(d.contact_channel_value)})" ` : ""}is already used for authentication by another account${d.would_work_if_email_was_verified ? " but the email is not verified. Please login to your existing account with the method you used to sign up, and then verify your email to sign in with this login method." : "."}`, ["type", "contact_channel_value", "would_work_if_email_was_verified"]),
  INVALID_POLLING_CODE: e(400, "The polling code is invalid or does not exist."),
  CLI_AUTH_ERROR: e(400, "CLI authentication failed."),
  CLI_AUTH_EXPIRED_ERROR: e(400, "CLI authentication request expired. Please try again."),
  CLI_AUTH_USED_ERROR: e(400, "This authentication token has already been used."),
  API_KEY_NOT_VALID: e(401, "API key not valid.", [], API_KEY),
  API_KEY_EXPIRED: e(401, "API key has expired.", [], API_KEY),
  API_KEY_REVOKED: e(401, "API key has been revoked.", [], API_KEY),
  WRONG_API_KEY_TYPE: e(400, (d) => `This endpoint is for ${str(d.expected_type)} API keys, but a ${str(d.actual_type)} API key was provided.`, ["expected_type", "actual_type"], API_KEY),
  API_KEY_NOT_FOUND: e(404, "API key not found.", [], API_KEY),
  PUBLIC_API_KEY_CANNOT_BE_REVOKED: e(400, "Public API keys cannot be revoked by the secretscanner endpoint.", [], API_KEY),
  ITEM_NOT_FOUND: e(404, (d) => `Item with ID "${str(d.item_id)}" not found.`, ["item_id"]),
  ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH: e(400, (d) => `The ${str(d.actual_customer_type)} "${str(d.customer_id)}" cannot hold item "${str(d.item_id)}" (it belongs to ${str(d.item_customer_type)} customers).`, ["item_id", "customer_id", "item_customer_type", "actual_customer_type"]),
  CUSTOMER_DOES_NOT_EXIST: e(400, (d) => `Customer with ID ${JSON.stringify(d.customer_id)} does not exist.`, ["customer_id"]),
  PRODUCT_DOES_NOT_EXIST: e(400, (d) => `Product with ID ${JSON.stringify(d.product_id)} does not exist.`, ["product_id", "context"]),
  PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH: e(400, (d) => `The ${str(d.actual_customer_type)} "${str(d.customer_id)}" cannot buy product "${str(d.product_id)}".`, ["product_id", "customer_id", "product_customer_type", "actual_customer_type"]),
  PRODUCT_ALREADY_GRANTED: e(400, (d) => `Product ${JSON.stringify(d.product_id)} is already granted to customer ${JSON.stringify(d.customer_id)}.`, ["product_id", "customer_id"]),
  ITEM_QUANTITY_INSUFFICIENT_AMOUNT: e(400, (d) => `The item ${JSON.stringify(d.item_id)} of customer ${JSON.stringify(d.customer_id)} has insufficient quantity (${str(d.quantity)}).`, ["item_id", "customer_id", "quantity"]),
  SUBSCRIPTION_INVOICE_NOT_FOUND: e(404, "Subscription invoice not found.", ["subscription_invoice_id"]),
  ONE_TIME_PURCHASE_NOT_FOUND: e(404, "One-time purchase not found.", ["one_time_purchase_id"]),
  SUBSCRIPTION_ALREADY_REFUNDED: e(400, "Subscription already refunded.", ["subscription_id"]),
  ONE_TIME_PURCHASE_ALREADY_REFUNDED: e(400, "One-time purchase already refunded.", ["one_time_purchase_id"]),
  TEST_MODE_PURCHASE_NON_REFUNDABLE: e(400, "Test-mode purchases cannot be refunded."),
  NEW_PURCHASES_BLOCKED: e(403, "New purchases are currently blocked for this project. Please contact support for more information."),
  // Doorman's own (the reference's test checkout answers a bare 403): the public test card never pays on a production project.
  TEST_MODE_NOT_ALLOWED_IN_PRODUCTION: e(403, "This project is in production mode, so the test checkout is off: no test card can pay here. The seller must turn test mode off (Payments) and take payments through Stripe."),
  STRIPE_ACCOUNT_INFO_NOT_FOUND: e(404, "Stripe account information not found."),
  DEFAULT_PAYMENT_METHOD_REQUIRED: e(400, "A default payment method is required.", ["customer_type", "customer_id"]),
  DATA_VAULT_STORE_DOES_NOT_EXIST: e(400, (d) => `Data vault store with ID ${str(d.store_id)} does not exist.`, ["store_id"]),
  DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST: e(
    400,
    (d) => `Data vault store with ID ${str(d.store_id)} does not contain a key with hash ${str(d.hashed_key)}.`,
    ["store_id", "hashed_key"],
  ),
  ANALYTICS_NOT_ENABLED: e(400, "Analytics is not enabled for this project."),
  ANALYTICS_QUERY_ERROR: e(400, (d) => `Analytics query failed: ${str(d.error)}`, ["error"]),
  ANALYTICS_QUERY_TIMEOUT: e(400, (d) => `Analytics query timed out after ${str(d.timeout_ms)} ms.`, ["timeout_ms"]),
  // Doorman's own (new-device verification, issue 29): a password sign-in from a device the user has not used
  // before waits for a code mailed to the user (as MULTI_FACTOR_AUTHENTICATION_REQUIRED waits for a TOTP).
  DEVICE_VERIFICATION_REQUIRED: e(400, "Enter the code we emailed to confirm this device.", ["attempt_code", "sent_to"]),
  DEVICE_VERIFICATION_CODE_INVALID: e(400, "Wrong device code."),
  // Doorman's own (hosted pages, issue 28): a project's custom domain for its hosted pages.
  CUSTOM_DOMAIN_INVALID: e(400, (d) => `${JSON.stringify(d.hostname)} is not a hostname a project can map: use a domain name such as auth.example.com (no scheme, port, path, IP address or localhost, and not Doorman's own host).`, ["hostname"]),
  CUSTOM_DOMAIN_TAKEN: e(409, (d) => `The hostname ${JSON.stringify(d.hostname)} is already mapped to another project.`, ["hostname"]),
  // OpenID provider: clients (Doorman's own, issue 30): the third-party apps an owner registers in /internal/oauth-clients.
  OAUTH_CLIENT_NOT_FOUND: e(404, (d) => `OAuth client ${JSON.stringify(d.client_id)} not found in this project.`, ["client_id"]),
  OAUTH_CLIENT_INVALID: e(400, (d) => `Invalid OAuth client ${str(d.field) || "metadata"}: ${str(d.message)}`, ["field", "message"]),
  // Doorman's own (OpenID provider: consent, issue 30): the consent page's API and the user's authorized apps.
  OAUTH_AUTHORIZATION_REQUEST_NOT_FOUND: e(404, "This authorization request does not exist, has expired or was already answered.", ["request_id"]),
  OAUTH_TEAM_REQUIRED: e(400, "This app asks for a team: choose one of your teams (team_id)."),
  OAUTH_REAUTHENTICATION_REQUIRED: e(403, "This app asks for a fresh sign-in: sign in again, then approve."),
  OAUTH_AUTHORIZED_APP_NOT_FOUND: e(404, (d) => `You have not authorized the app ${str(d.client_id)}.`, ["client_id"]),
  // Enterprise SSO: management (issue 31, ADMIN): a team's connections, domains, SCIM token and setup links.
  // (Not found answers FLOW's SSO_CONNECTION_NOT_FOUND, below.)
  SSO_CONNECTION_INVALID_CONFIG: e(400, (d) => `Invalid SSO connection ${str(d.field) || "settings"}: ${str(d.message)}`, ["field", "message"]),
  SSO_CONNECTION_MODIFIED: e(409, "The SSO connection was changed meanwhile. Reload it and try again.", ["connection_id"]),
  SSO_DOMAIN_NOT_FOUND: e(404, (d) => `SSO domain ${str(d.domain_id)} not found.`, ["domain_id"]),
  SSO_DOMAIN_INVALID: e(400, (d) => `${str(d.domain)} is not a domain a team can claim: ${str(d.message)}`, ["domain", "message"]),
  SSO_DOMAIN_ALREADY_CLAIMED: e(409, (d) => `This team already claims ${str(d.domain)}.`, ["domain"]),
  SSO_DOMAIN_ALREADY_VERIFIED: e(409, (d) => `${str(d.domain)} is verified by another team of this project.`, ["domain"]),
  SSO_DOMAIN_VERIFICATION_FAILED: e(400, (d) => d.reason === "resolver_unavailable" ? "The DNS lookup failed. Try again shortly." : `No TXT record ${str(d.record_name)} = ${str(d.record_value)} yet. DNS changes can take a while.`, ["domain", "reason", "record_name", "record_value"]),
  SSO_SETUP_LINK_INVALID: e(403, "This SSO setup link is invalid, expired or for another team."),
  // Doorman's own (the reference's assistant fails with a 500 when its model key is missing): the console's assistant.
  AI_PROVIDER_NOT_CONFIGURED: e(400, "The assistant has no model provider. Choose one in the project's Settings (Assistant), or set the deployment's Workers AI binding or AI_BASE_URL."),
  AI_PROVIDER_ERROR: e(502, (d) => `The assistant's model provider failed${d.provider_status ? ` (HTTP ${str(d.provider_status)})` : ""}: ${str(d.message)}`, ["provider_status", "message"]),
  AI_PROVIDER_TIMEOUT: e(504, (d) => `The assistant's model provider did not answer within ${str(d.timeout_ms)} ms.`, ["timeout_ms"]),
  // Enterprise SSO: SAML service provider (issue 31). One code for every refused SAMLResponse: the reason goes to the
  // sso.sign_in_refused event and the logs only (details that help an attacker tune a forgery stay out of the answer).
  SAML_RESPONSE_INVALID: e(400, "The identity provider's SAML response was refused. Try signing in again; if it keeps failing, ask your IT administrator to check the SSO connection."),
  SAML_METADATA_INVALID: e(400, (d) => `The identity provider metadata could not be read: ${str(d.why)}.`, ["why"]),
  // Enterprise SSO: the sign-in flow (Doorman's own, issue 31, FLOW): SSO routing, the SSO sign-in and its enforcement.
  SSO_REQUIRED: e(403, "Your organization requires single sign-on (SSO) for this email address.", ["connection_id"]),
  SSO_CONNECTION_NOT_FOUND: e(404, "SSO connection not found or disabled.", ["connection_id"]),
  SSO_NOT_CONFIGURED_FOR_EMAIL: e(400, "No single sign-on (SSO) is set up for this email address."),
  SSO_REQUEST_INVALID: e(400, "This SSO sign-in is invalid, expired or already used. Please start again."),
  SSO_USER_DEACTIVATED: e(403, "Your organization has deactivated this account."),
  SSO_IDP_ERROR: e(400, "Your organization's identity provider did not complete the sign-in."),
  SSO_IDP_UNAVAILABLE: e(502, "Your organization's identity provider could not be reached."),
  SSO_IDP_INITIATED_NOT_ALLOWED: e(403, "This SSO connection only accepts sign-ins started from the app."),
  SSO_PROTOCOL_NOT_SUPPORTED: e(400, "This SSO connection's protocol is not supported here.", ["protocol"]),
  SSO_IDENTITY_CONFLICT: e(409, "This account is linked to another identity of this SSO connection."),
  // Doorman's own (issue 32, sessions that survive a D1 outage): the database is failing or slow and no fallback can answer.
  DATABASE_TEMPORARILY_UNAVAILABLE: e(503, "The database is temporarily unavailable. Please try again shortly."),
} satisfies Record<string, CatalogueEntry>;

export type KnownErrorCode = keyof typeof catalogue;

/** The wire `details` keys of `C` (never for a code without details). */
export type KnownErrorDetailsKey<C extends KnownErrorCode> = (typeof catalogue)[C]["details"][number];

/** What `new KnownError(code, details)` accepts: the code's keys only, or nothing for a code without details. */
export type KnownErrorDetails<C extends KnownErrorCode> = [KnownErrorDetailsKey<C>] extends [never]
  ? undefined
  : DetailsOf<KnownErrorDetailsKey<C>>;

export function isKnownErrorCode(code: unknown): code is KnownErrorCode {
  return typeof code === "string" && Object.hasOwn(catalogue, code);
}

/**
 * A known error: thrown by the worker, rendered as `{code, error, details?}` with the
 * `x-stack-known-error` header; rebuilt by the SDK from the same code and details.
 *
 * @example
 * throw new KnownError("USER_NOT_FOUND");
 * throw new KnownError("PASSWORD_TOO_SHORT", { min_length: 8 });
 * // Details keys are checked against the catalogue: { minLength: 8 } is a type error.
 */
// `C` only types the constructor's details; `code` stays the full union so that
// `error instanceof KnownError` (which instantiates `C` as any) keeps a typed code.
export class KnownError<C extends KnownErrorCode = KnownErrorCode> extends Error {
  readonly code: KnownErrorCode;
  readonly status: number;
  readonly details: ErrorDetails | undefined;

  constructor(code: C, details?: KnownErrorDetails<C>, message?: string) {
    const entry: CatalogueEntry = catalogue[code];
    const normalised = normaliseDetails(entry, details);
    super(message ?? entry.message(normalised ?? {}));
    this.name = "KnownError";
    this.code = code;
    this.status = entry.status;
    this.details = normalised;
  }

  /** True if this error is `code` or belongs to the abstract family `code`. */
  is(codeOrFamily: string): boolean {
    const entry: CatalogueEntry = catalogue[this.code];
    return this.code === codeOrFamily || (entry.families ?? []).includes(codeOrFamily);
  }

  toJSON(): { code: string; error: string; details?: ErrorDetails } {
    return this.details ? { code: this.code, error: this.message, details: this.details } : { code: this.code, error: this.message };
  }
}

/** Keeps only the catalogued details keys; absent keys become null (as the reference does). */
function normaliseDetails(entry: CatalogueEntry, details?: ErrorDetails): ErrorDetails | undefined {
  if (entry.details.length === 0) return undefined;
  const out: ErrorDetails = {};
  for (const key of entry.details) out[key] = details?.[key] ?? null;
  return out;
}

/** Header names (both prefixes are always written and read). */
export const KNOWN_ERROR_HEADERS = ["x-stack-known-error", "x-hexclave-known-error"] as const;
export const ACTUAL_STATUS_HEADERS = ["x-stack-actual-status", "x-hexclave-actual-status"] as const;
