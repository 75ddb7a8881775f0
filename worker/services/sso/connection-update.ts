/**
 * One connection's settings input applied to its stored config (issue 31, ADMIN): the protocol's
 * fields (SAML's from the IdP metadata XML when given), then the attribute mapping. The result is
 * a draft or a complete config; connections.ts decides what may be stored.
 */
import type { SsoAttributeMappingJson, SsoOidcSettingsInputJson, SsoSamlSettingsInputJson } from "@doorman/shared/wire-sso";
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { fail } from "../result";
import type { AttributeMapping } from "./connection-config";
import {
  applyAttributeMapping,
  applyOidcInput,
  applySamlInput,
  readOidcDraft,
  readSamlDraft,
  type SamlIdpValues,
  type SettingsProblem,
  type SsoProtocol,
  type StoredSsoConfig,
} from "./connection-settings";
import { parseIdpMetadata } from "./saml/idp-metadata";

/** The IdP metadata XML of the input, read into the three IdP fields; a refusal names `saml.idp_metadata_xml`. */
function idpValuesOf(input: SsoSamlSettingsInputJson): { ok: true; value?: SamlIdpValues } | SettingsProblem {
  if (input.idp_metadata_xml === undefined) return { ok: true };
  const parsed = parseIdpMetadata(input.idp_metadata_xml);
  if (!parsed.ok)
    return fail("sso_connection_invalid_config", {
      field: "saml.idp_metadata_xml",
      message: `the metadata could not be read: ${parsed.why}.`,
    });
  return { ok: true, value: { entityId: parsed.entityId, ssoUrl: parsed.ssoUrl, certificates: parsed.certificates } };
}

export type SettingsInput = {
  saml?: SsoSamlSettingsInputJson;
  oidc?: SsoOidcSettingsInputJson;
  attributeMapping?: Partial<SsoAttributeMappingJson>;
};

/** http and private hosts for the IdP are for development deployments, and never for a project in production mode. */
export function allowsLocalIdpUrls(deps: Deps, project: Pick<ProjectRow, "isProductionMode">): boolean {
  return deps.config.environment === "development" && !project.isProductionMode;
}

/** `config` with `input` applied, checked field by field. */
export async function applySettings(
  deps: Deps,
  protocol: SsoProtocol,
  config: StoredSsoConfig,
  input: SettingsInput,
  development: boolean,
): Promise<{ ok: true; value: StoredSsoConfig } | SettingsProblem> {
  if (protocol === "saml") {
    const draft = readSamlDraft(config);
    const metadata = input.saml ? idpValuesOf(input.saml) : { ok: true as const };
    if (!metadata.ok) return metadata;
    const applied = input.saml ? applySamlInput(draft, input.saml, development, metadata.value) : { ok: true as const, value: draft };
    if (!applied.ok) return applied;
    const attributeMapping: AttributeMapping = applyAttributeMapping(applied.value.attributeMapping, input.attributeMapping ?? {});
    return { ok: true, value: { ...applied.value, attributeMapping } };
  }
  const draft = readOidcDraft(config);
  const applied = input.oidc ? await applyOidcInput(deps, draft, input.oidc, development) : { ok: true as const, value: draft };
  if (!applied.ok) return applied;
  const attributeMapping: AttributeMapping = applyAttributeMapping(applied.value.attributeMapping, input.attributeMapping ?? {});
  return { ok: true, value: { ...applied.value, attributeMapping } };
}
