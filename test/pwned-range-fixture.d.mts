/** Types of test/pwned-range-fixture.mjs (the local Pwned Passwords range API of the breached-password tests). */
export declare const PWNED_FIXTURE: {
  BREACHED: string[];
  PADDING_ONLY: string;
  DOWN: string;
  HANG: string;
  GARBAGE: string;
};
export declare function sha1Hex(password: string): string;
export type PwnedRangeRequest = { path: string; padding: string | null };
export declare function startPwnedRangeFixture(
  port?: number,
): Promise<{ port: number; url: string; seen: () => PwnedRangeRequest[]; stop: () => Promise<void> }>;
