/**
 * The wire JSON shapes the SDK reads (wire-protocol.md §2), derived from the zod schemas in
 * sdk/src/shared/wire*.ts: one set of wire types for the worker and the SDK. Type-only imports,
 * so zod never reaches a browser bundle through the SDK.
 *
 * Where one SDK reader serves both access levels (the client and the server view of a user or
 * a team), the shape is the client view plus the server-only fields as optional.
 */

import type { z } from "zod";
import type {
  KeySetJson,
  TeamClientJson,
  TeamServerJson,
  UserClientJson,
  UserServerJson,
  ContactChannelJson as WireContactChannelJson,
  TeamInvitationJson as WireTeamInvitationJson,
} from "../shared/wire";
import type { EmailLogEntryJson } from "../shared/wire-misc";
import type {
  checkoutSessionSchema,
  ownedProductsSchema,
  purchaseListSchema,
  purchaseSessionSchema,
  stripeAccountInfoSchema,
  testModePurchaseSchema,
} from "../shared/wire-payments";

export type {
  BotChallengeClientJson,
  ConnectedAccountJson,
  KeySetJson,
  ListJson,
  OAuthProviderJson,
  ProjectAdminJson,
  ProjectClientJson,
  SessionJson,
  TeamMemberProfileJson,
  TokensJson,
} from "../shared/wire";
export type {
  CliSessionStateJson,
  OAuthLocationJson,
  OAuthTokenJson,
  RefreshedTokensJson,
  SignInCodeSentJson,
  SignInTokensJson,
} from "../shared/wire-auth";
export type { TeamApiKeyJson, UserApiKeyJson } from "../shared/wire-keys";
export type { NotificationPreferenceJson, ProviderAccessTokenJson } from "../shared/wire-misc";
export type { InvitationCodeDetailsJson, PermissionDefinitionJson } from "../shared/wire-teams";

/** The fields of a server view that its client view lacks, as optional. */
type ServerOnly<Server, Client> = Partial<Omit<Server, keyof Client>>;

/** A team as a client or a server app reads it. */
export type TeamJson = TeamClientJson & ServerOnly<TeamServerJson, TeamClientJson>;

/** A user as a client or a server app reads it (linked providers carry account ids in the server view). */
export type UserJson = Omit<UserClientJson, "selected_team" | "oauth_providers"> &
  ServerOnly<UserServerJson, UserClientJson> & {
    selected_team: TeamJson | null;
    oauth_providers: (UserClientJson["oauth_providers"][number] & Partial<UserServerJson["oauth_providers"][number]>)[];
  };

/** A key of a key set after creation: only its last four characters. */
export type LastFour = Exclude<NonNullable<KeySetJson["publishable_client_key"]>, string>;

/** A contact channel; the SDK knows email channels only (the schema says `type: string`). */
export type ContactChannelJson = WireContactChannelJson & { type: "email" };

/** A team invitation; the SDK's invitations always have a recipient (the schema allows null). */
export type TeamInvitationJson = WireTeamInvitationJson & { recipient_email: string };

/** One email of the project's log; the SDK names its three states (the schema says `status: string`). */
export type SentEmailJson = EmailLogEntryJson & { status: "queued" | "sent" | "failed" };

// --- payments (issue 15) ---
export type {
  Currency,
  CustomerType,
  CustomerView as CustomerViewJson,
  InlineOffer as InlineOfferJson,
  Interval,
  ItemWire as ItemJson,
  PurchaseWire as PurchaseJson,
  ValidatedCode as ValidatedCodeJson,
} from "../shared/wire-payments";
/** GET /payments/products/{customer_type}/{customer_id}. */
export type OwnedProductsJson = z.infer<typeof ownedProductsSchema>;
/** GET /payments/purchases/{customer_type}/{customer_id}. */
export type PurchaseListJson = z.infer<typeof purchaseListSchema>;
/** GET /internal/payments/stripe/account-info. */
export type StripeAccountInfoJson = z.infer<typeof stripeAccountInfoSchema>;
/** POST /payments/purchases/purchase-session (live mode). */
export type PurchaseSessionJson = z.infer<typeof purchaseSessionSchema>;
/** POST /payments/purchases/checkout-session (live mode, hosted Stripe Checkout; Doorman extension). */
export type CheckoutSessionJson = z.infer<typeof checkoutSessionSchema>;
/** POST /payments/purchases/test-mode-purchase. */
export type TestModePurchaseJson = z.infer<typeof testModePurchaseSchema>;
