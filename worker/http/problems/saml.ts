/** The wire errors of the SAML service provider's problems (issue 31). */
import { KnownError } from "@doorman/shared/known-errors";
import type { ProblemMap } from "../../services/result";
import type { SamlProblemFields } from "../../services/sso/saml/problems";

export const samlProblems = {
  // The reason stays out of the answer (it would help tune a forged response); the event and the logs carry it.
  saml_response_invalid: () => new KnownError("SAML_RESPONSE_INVALID"),
  saml_metadata_invalid: (p) => new KnownError("SAML_METADATA_INVALID", { why: p.why }),
} satisfies ProblemMap<keyof SamlProblemFields>;
