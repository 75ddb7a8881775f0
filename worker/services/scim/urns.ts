/** The schema and message URNs of SCIM 2.0 (RFC 7643 §8.7, RFC 7644 §3) that Doorman's SCIM server speaks. */
export const USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User";
export const ENTERPRISE_USER_SCHEMA = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";
export const GROUP_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Group";
export const SERVICE_PROVIDER_CONFIG_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig";
export const RESOURCE_TYPE_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:ResourceType";
export const SCHEMA_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Schema";
export const LIST_RESPONSE = "urn:ietf:params:scim:api:messages:2.0:ListResponse";
export const PATCH_OP = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
export const ERROR_MESSAGE = "urn:ietf:params:scim:api:messages:2.0:Error";

/** The media type of every SCIM body (RFC 7644 §8.1); plain JSON is accepted too. */
export const SCIM_CONTENT_TYPE = "application/scim+json";
