/** Types of test/smtp-fault-server.mjs (the hostile SMTP servers the SMTP client is tested against). */
export type SmtpFaultStage = "greeting" | "ehlo" | "helo" | "starttls" | "auth" | "mail" | "rcpt" | "data" | "message" | "quit";
export type SmtpFaultScenario = {
  /** The reply at a stage: a code (with a made-up text) or a code and text ("\n" makes it multi-line). */
  replies?: Partial<Record<SmtpFaultStage, number | { code: number; text?: string }>>;
  /** Send the stage's reply, then close the connection. */
  closeAfterReplyAt?: SmtpFaultStage;
  /** Send the first half of the stage's reply line, then close the connection. */
  closeMidReplyAt?: SmtpFaultStage;
  /** Never answer at this stage (the connection stays open until the client closes it). */
  silentAt?: SmtpFaultStage;
  /** Send the stage's reply one byte every `dripMs` (default 1000). */
  dripAt?: SmtpFaultStage;
  dripMs?: number;
  /** Answer with endless continuation lines (`250-xxx…`, up to 4 MiB). */
  floodAt?: SmtpFaultStage;
  /** The EHLO extensions (default PIPELINING, 8BITMIME, AUTH PLAIN LOGIN). */
  extensions?: string[];
  /** The happy path: every fault and reply cleared. */
  accept?: boolean;
};
export type SmtpFaultRecord = {
  connections: number;
  /** Connections still open, as the server sees them. */
  open: number;
  commands: string[];
  accepted: { from: string; to: string[]; data: string }[];
};
export declare function startSmtpFaults(port?: number): Promise<{ controlPort: number; stop: () => Promise<void> }>;
