/** The wire errors of the attack-protection problems (new-device verification, issue 29). */
import { KnownError } from "@doorman/shared/known-errors";
import type { ProtectionProblemFields } from "../../services/protection/problems";
import type { ProblemMap } from "../../services/result";

export const protectionProblems = {
  device_verification_required: (problem) =>
    new KnownError("DEVICE_VERIFICATION_REQUIRED", { attempt_code: problem.attemptCode, sent_to: problem.sentTo }),
  device_code_invalid: () => new KnownError("DEVICE_VERIFICATION_CODE_INVALID"),
} satisfies ProblemMap<keyof ProtectionProblemFields>;
