// The vitest config of `npm run bench:email`: the project's (workerd, same bindings), running only the
// bench's in-workerd part (test/bench/email-render-workerd.mjs).
import base from "../../vitest.config.ts";

export default async (env) => {
  const config = await (typeof base === "function" ? base(env) : base);
  return { ...config, test: { ...config.test, include: ["test/bench/email-render-workerd.mjs"], testTimeout: 600_000 } };
};
