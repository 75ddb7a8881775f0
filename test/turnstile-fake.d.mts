/** Types of test/turnstile-fake.mjs (the local Turnstile: siteverify and the widget script). */
export declare const TEST_SECRETS: { pass: string; fail: string; spent: string };
export declare const TEST_SITEKEYS: {
  visiblePass: string;
  visibleFail: string;
  invisiblePass: string;
  invisibleFail: string;
  interactive: string;
};
export declare const DUMMY_TOKEN: string;
export declare function startTurnstileFake(port?: number): Promise<{ port: number; url: string; stop: () => Promise<void> }>;
