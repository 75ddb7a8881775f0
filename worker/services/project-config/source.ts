/**
 * Where a project's branch override was pushed from (the reference's branch config source): a
 * GitHub push, an unknown push, or unlinked (edited in the console). Stored in projects.config_source;
 * a PUT of the branch level must name it, a PATCH keeps it.
 */
import { z } from "zod";

// Bounded: the source is shown in the console, never used to reach anything.
const field = z.string().max(1024);

export const configSourceSchema = z.discriminatedUnion("type", [
  z.strictObject({
    type: z.literal("pushed-from-github"),
    owner: field,
    repo: field,
    branch: field,
    commit_hash: field,
    config_file_path: field,
  }),
  z.strictObject({ type: z.literal("pushed-from-unknown") }),
  z.strictObject({ type: z.literal("unlinked") }),
]);
export type ConfigSource = z.infer<typeof configSourceSchema>;

/** A project's stored source; none (or one that no longer parses) is unlinked. */
export function configSourceOf(stored: unknown): ConfigSource {
  const parsed = configSourceSchema.safeParse(stored);
  return parsed.success ? parsed.data : { type: "unlinked" };
}
