/**
 * Managing a team's enterprise SSO (issue 31): its connections (SAML or OIDC), email domains, SCIM
 * token, setup links and SSO events, as camelCase objects over any requester: the admin app's
 * (`admin.getTeamSso(teamId)`), a team admin's own session (`team.getSso()`, with `$update_team`),
 * or a setup link's token (`app.openSsoSetupLink(token)`, the hosted sso-setup page).
 */
import type { RequestOptions } from "../interface/http";
import { SSO_SETUP_TOKEN_HEADER } from "../shared/sso-paths";
import type { EventListJson } from "../shared/wire-events";
import type {
  SsoConnectionJson,
  SsoDomainJson,
  SsoOidcSettingsInputJson,
  SsoSamlSettingsInputJson,
  SsoScimTokenJson,
  SsoSetupLinkInfoJson,
  SsoSetupLinkJson,
  SsoSpMetadataJson,
} from "../shared/wire-sso";
import { camelKeys, snakeKeys } from "./case";

type Request = <T>(path: string, options?: RequestOptions) => Promise<T>;

/** The keys of a wire object in camelCase (one level), `*_at_millis` as `*At` dates. */
type Dated<T> = Omit<T, "createdAt" | "updatedAt" | "verifiedAt" | "checkedAt">;

export type SsoProtocol = SsoConnectionJson["protocol"];
export type SsoAttributeMapping = { email: string | null; name: string | null; groups: string | null };
/** SCIM groups → team permissions (only the project's owners and server code set it). */
export type SsoGroupMapping = { group: string; permissionIds: string[] }[];

export type SsoConnection = {
  id: string;
  teamId: string;
  protocol: SsoProtocol;
  displayName: string;
  enabled: boolean;
  /** False while the IdP settings are incomplete (a draft): it cannot be enabled until they are. */
  isComplete: boolean;
  allowIdpInitiated: boolean;
  saml: {
    idpEntityId: string | null;
    idpSsoUrl: string | null;
    idpCertificates: string[];
    requireSignedResponse: boolean;
    requireEncryptedAssertions: boolean;
    signAuthnRequests: boolean;
    clockSkewSeconds: number;
  } | null;
  /** The client secret is write-only: `hasClientSecret` says whether one is stored. */
  oidc: { issuer: string | null; clientId: string | null; hasClientSecret: boolean; scopes: string[] } | null;
  attributeMapping: SsoAttributeMapping;
  /** SAML: what the IdP is told about Doorman. */
  serviceProvider: { entityId: string; acsUrl: string; metadataUrl: string; certificate: string | null } | null;
  /** OIDC: the redirect URI to register at the IdP. */
  oidcRedirectUri: string | null;
  scim: { baseUrl: string; tokenPrefix: string | null; groupMapping: SsoGroupMapping };
  createdAt: Date;
  updatedAt: Date;
};

/** SAML settings to set: the fields, or the IdP's metadata XML (`idpMetadataXml`) instead of the three IdP fields. */
export type SsoSamlSettingsInput = { [K in keyof SsoSamlSettingsInputJson as CamelCase<K & string>]?: SsoSamlSettingsInputJson[K] };
/** OIDC settings to set; `clientSecret: null` removes the secret (a public client, PKCE only). */
export type SsoOidcSettingsInput = { [K in keyof SsoOidcSettingsInputJson as CamelCase<K & string>]?: SsoOidcSettingsInputJson[K] };
type CamelCase<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<CamelCase<T>>}` : S;

export type SsoConnectionUpdate = {
  displayName?: string;
  enabled?: boolean;
  allowIdpInitiated?: boolean;
  saml?: SsoSamlSettingsInput;
  oidc?: SsoOidcSettingsInput;
  attributeMapping?: Partial<SsoAttributeMapping>;
  scimGroupMapping?: SsoGroupMapping;
};
/** Without the IdP settings the connection is a disabled draft (its SP values can be handed to the IdP first). */
export type SsoConnectionCreate = SsoConnectionUpdate & { protocol: SsoProtocol; displayName: string };

export type SsoDomain = {
  id: string;
  teamId: string;
  domain: string;
  status: SsoDomainJson["status"];
  connectionId: string | null;
  enforceSso: boolean;
  autoJoin: boolean;
  /** The DNS TXT record to publish. */
  txtRecord: { name: string; value: string };
  verifiedAt: Date | null;
  checkedAt: Date | null;
  createdAt: Date;
};
export type SsoDomainUpdate = { enforceSso?: boolean; autoJoin?: boolean; connectionId?: string | null };

/** An event of the team's "Enterprise SSO" log (or a connection's SCIM call). */
export type SsoEvent = {
  id: string;
  type: string;
  createdAt: Date;
  actor: { type: string; id: string | null };
  userId: string | null;
  ip: string | null;
  data: Record<string, unknown> | null;
};

const date = (ms: number | null) => (ms === null ? null : new Date(ms));

function connectionOf(json: SsoConnectionJson): SsoConnection {
  const { createdAtMillis, updatedAtMillis, ...rest } = camelKeys<
    Dated<SsoConnection> & { createdAtMillis: number; updatedAtMillis: number }
  >(json);
  return { ...rest, createdAt: new Date(createdAtMillis), updatedAt: new Date(updatedAtMillis) };
}

function domainOf(json: SsoDomainJson): SsoDomain {
  const { createdAtMillis, verifiedAtMillis, checkedAtMillis, ...rest } = camelKeys<
    Dated<SsoDomain> & { createdAtMillis: number; verifiedAtMillis: number | null; checkedAtMillis: number | null }
  >(json);
  return { ...rest, verifiedAt: date(verifiedAtMillis), checkedAt: date(checkedAtMillis), createdAt: new Date(createdAtMillis) };
}

function eventOf(e: EventListJson["items"][number]): SsoEvent {
  return { id: e.id, type: e.type, createdAt: new Date(e.created_at_millis), actor: e.actor, userId: e.user_id, ip: e.ip, data: e.data };
}

const enc = encodeURIComponent;

/** A team's SSO, managed through `request` (whose credentials decide what it may do). */
export function teamSsoManagement(request: Request, teamId: string) {
  const team = `team_id=${enc(teamId)}`;
  const connection = (id: string) => `/sso/connections/${enc(id)}`;
  const domain = (id: string) => `/sso/domains/${enc(id)}`;
  return {
    teamId,
    /** The team's connections, oldest first. */
    async listConnections(): Promise<SsoConnection[]> {
      return (await request<{ items: SsoConnectionJson[] }>(`/sso/connections?${team}`)).items.map(connectionOf);
    },
    /** Creates a connection (a SAML one gets its own SP key pair). */
    async createConnection(options: SsoConnectionCreate): Promise<SsoConnection> {
      return connectionOf(await request("/sso/connections", { body: { ...snakeKeys<Record<string, unknown>>(options), team_id: teamId } }));
    },
    async getConnection(id: string): Promise<SsoConnection> {
      return connectionOf(await request(connection(id)));
    },
    /** Changes the given fields (the protocol is fixed); concurrent changes of other fields are kept. */
    async updateConnection(id: string, update: SsoConnectionUpdate): Promise<SsoConnection> {
      return connectionOf(await request(connection(id), { method: "PATCH", body: snakeKeys(update) }));
    },
    /** Deletes a connection: its identities go, its users and their memberships stay. */
    async deleteConnection(id: string): Promise<void> {
      await request(connection(id), { method: "DELETE" });
    },
    /** A SAML connection's SP metadata XML to hand the IdP (also for a draft). */
    async getSpMetadata(id: string): Promise<{ metadataXml: string; metadataUrl: string }> {
      const json = await request<SsoSpMetadataJson>(`${connection(id)}/sp-metadata`);
      return { metadataXml: json.metadata_xml, metadataUrl: json.metadata_url };
    },
    /** A new SCIM bearer token: in this answer only (the old one stops working at once). */
    async rotateScimToken(id: string): Promise<{ token: string; tokenPrefix: string; baseUrl: string }> {
      const json = await request<SsoScimTokenJson>(`${connection(id)}/scim-token`, { method: "POST", body: {} });
      return { token: json.scim_token, tokenPrefix: json.scim_token_prefix, baseUrl: json.scim_base_url };
    },
    /** The connection's last SCIM calls, newest first. */
    async listScimCalls(id: string, options: { limit?: number } = {}): Promise<SsoEvent[]> {
      const q = options.limit ? `?limit=${options.limit}` : "";
      return (await request<{ items: EventListJson["items"] }>(`${connection(id)}/scim-calls${q}`)).items.map(eventOf);
    },
    async listDomains(): Promise<SsoDomain[]> {
      return (await request<{ items: SsoDomainJson[] }>(`/sso/domains?${team}`)).items.map(domainOf);
    },
    /** Claims an email domain: pending until its TXT record (`txtRecord`) is published and verified. */
    async claimDomain(name: string): Promise<SsoDomain> {
      return domainOf(await request("/sso/domains", { body: { team_id: teamId, domain: name } }));
    },
    /** Looks the TXT record up now; rejects with SSO_DOMAIN_VERIFICATION_FAILED while it is not found. */
    async verifyDomain(id: string): Promise<SsoDomain> {
      return domainOf(await request(`${domain(id)}/verify`, { method: "POST", body: {} }));
    },
    async updateDomain(id: string, update: SsoDomainUpdate): Promise<SsoDomain> {
      return domainOf(await request(domain(id), { method: "PATCH", body: snakeKeys(update) }));
    },
    async removeDomain(id: string): Promise<void> {
      await request(domain(id), { method: "DELETE" });
    },
    /** A link for the team's IT admin to set SSO up without an account (7 days unless `expiresInMillis`, 30 at most). */
    async createSetupLink(options: { expiresInMillis?: number } = {}): Promise<{ url: string; expiresAt: Date }> {
      const json = await request<SsoSetupLinkJson>("/sso/setup-links", {
        body: { team_id: teamId, expires_in_millis: options.expiresInMillis },
      });
      return { url: json.url, expiresAt: new Date(json.expires_at_millis) };
    },
    /** The team's enterprise SSO events, newest first. */
    async listEvents(options: { cursor?: string; limit?: number } = {}): Promise<{ items: SsoEvent[]; nextCursor: string | null }> {
      const q = new URLSearchParams({ team_id: teamId });
      if (options.cursor) q.set("cursor", options.cursor);
      if (options.limit) q.set("limit", String(options.limit));
      const page = await request<EventListJson>(`/sso/events?${q}`);
      return { items: page.items.map(eventOf), nextCursor: page.pagination.next_cursor };
    },
  };
}

export type TeamSsoManagement = ReturnType<typeof teamSsoManagement>;

/** What a setup link opens: its team, until when, and the team's SSO through the link's token. */
export type SsoSetupLink = { teamId: string; teamDisplayName: string; expiresAt: Date; sso: TeamSsoManagement };

/** Opens a setup link's token (from the link's `#token=` fragment) over a client requester. */
export async function openSsoSetupLink(request: Request, token: string): Promise<SsoSetupLink> {
  const withToken: Request = (path, options = {}) =>
    request(path, { ...options, headers: { ...options.headers, [SSO_SETUP_TOKEN_HEADER]: token } });
  const info = await withToken<SsoSetupLinkInfoJson>("/sso/setup-links/current");
  return {
    teamId: info.team_id,
    teamDisplayName: info.team_display_name,
    expiresAt: new Date(info.expires_at_millis),
    sso: teamSsoManagement(withToken, info.team_id),
  };
}
