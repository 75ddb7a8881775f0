/** Types of scripts/email-renderer-process.mjs (the email renderer Worker in a workerd process of its own). */
export declare const RENDERER_CONFIG: string;
export declare function startEmailRenderer(options?: {
  port?: number;
  registryPath?: string;
  timeoutMs?: number;
  buildDir?: string;
}): Promise<{
  url: string;
  port: number;
  address: string;
  pid: number | undefined;
  registryPath: string;
  registryEnv: { WRANGLER_REGISTRY_PATH: string };
  log: () => string;
  stop: () => Promise<void>;
  kill: () => void;
}>;
