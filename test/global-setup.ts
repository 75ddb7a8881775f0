/** vitest globalSetup (Node side): the SMTP sink the worker sends to, its ports provided to tests. */
import type { TestProject } from "vitest/node";
import { startMailSink } from "./mail-sink";

declare module "vitest" {
  export interface ProvidedContext {
    smtpPort: number;
    mailboxPort: number;
  }
}

export default async function setup(project: TestProject) {
  const sink = await startMailSink();
  project.provide("smtpPort", sink.smtpPort);
  project.provide("mailboxPort", sink.httpPort);
  return () => sink.stop();
}
