/**
 * The rate-limit rules and their defaults, "count/seconds" per fixed window. A deployment overrides
 * one with the worker var RATE_LIMIT_<RULE>, a project with `rate_limits` in its config ("0" turns a
 * rule off). No imports: the project config validates its field against these names.
 */
export const RATE_LIMIT_RULES = {
  SIGN_IN_PER_IP: "30/60",
  // Sign-in lockout per (account, address): 10 wrong passwords per 5 minutes from one address.
  // Only failures count (a successful sign-in gives its count back).
  SIGN_IN_PER_EMAIL_IP: "10/300",
  // Per account, from every address: NIST SP 800-63B allows at most 100 failed attempts. It is far
  // above the per-address rule, so wrong tries from elsewhere cannot lock the owner out. Failures only.
  SIGN_IN_PER_EMAIL: "100/3600",
  SIGN_UP_PER_IP: "20/3600",
  SIGN_UP_PER_EMAIL: "5/3600",
  // Anonymous users are created per visitor by apps, so higher than password sign-ups.
  ANONYMOUS_SIGN_UP_PER_IP: "30/3600",
  OTP_SEND_PER_IP: "20/600",
  OTP_SEND_PER_EMAIL: "5/600",
  RESET_SEND_PER_IP: "20/600",
  RESET_SEND_PER_EMAIL: "5/600",
  CODE_VERIFY_PER_IP: "60/600",
  // The purchase page's public code check: anyone may call it, so guesses are limited per address.
  PURCHASE_CODE_VALIDATE_PER_IP: "60/600",
  // CLI login: starting one is rare; polls come every 2 s.
  CLI_START_PER_IP: "30/3600",
  CLI_POLL_PER_IP: "60/60",
  // OAuth: each authorize stores a 10-minute state row; one per sign-in attempt is plenty.
  OAUTH_AUTHORIZE_PER_IP: "60/600",
  // The OpenID provider (issue 30): each authorize stores a 10-minute request row; open (RFC 7591)
  // registration stores a client, so anyone's registrations are few per address.
  OAUTH_PROVIDER_AUTHORIZE_PER_IP: "60/600",
  OAUTH_CLIENT_REGISTER_PER_IP: "20/3600",
  // Enterprise SSO (issue 31): each start stores a 10-minute request; each domain check is a DoH lookup
  // (an outbound call); SCIM clients are IdPs that batch, so their limit is per connection and generous.
  SSO_AUTHORIZE_PER_IP: "60/600",
  SSO_DOMAIN_CHECK_PER_TEAM: "30/600",
  SCIM_PER_CONNECTION: "1200/60",
  // Secret scanners report leaked keys in small bursts; anyone may call it, so keep it modest.
  CREDENTIAL_SCAN_REVOKE_PER_IP: "60/600",
  // The console assistant, per owner (or admin key) per project: each question is a paid model call.
  AI_CHAT_PER_OWNER: "20/60",
  // The owner's live email preview, per owner (or key) per project: the only render that runs on a request.
  EMAIL_RENDER_PER_OWNER: "60/60",
} as const;

export type RateLimitRule = keyof typeof RATE_LIMIT_RULES;

export const RATE_LIMIT_RULE_NAMES = Object.keys(RATE_LIMIT_RULES) as [RateLimitRule, ...RateLimitRule[]];

/** A rule's value in a project config or a var: "count/seconds", or "0" (off). */
export const RATE_LIMIT_VALUE = /^(0|[1-9]\d{0,5}\/[1-9]\d{0,5})$/;
