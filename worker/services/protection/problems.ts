/**
 * The attack-protection problem reasons of new-device verification (issue 29): a slice of ProblemFields
 * (services/result.ts), mapped by `protectionProblems` in worker/http/problems/protection.ts.
 */

export type ProtectionProblemFields = {
  /** A password sign-in from an unknown device waits for the emailed code; `sentTo` is the masked address. */
  device_verification_required: { attemptCode: string; sentTo: string };
  /** The code typed was not the one mailed (a wrong guess, counted against the attempt's limit). */
  device_code_invalid: Record<never, never>;
};
