/**
 * The built-in emails' message strings: plain text with `{ref}` placeholders ("Verify your email at
 * {project}"). A ref names a value the template has: `name` (the user's display name), `project` (the
 * project's display name) or one of the template's variables. The built-in TSX sources are written
 * from these (services/email/defaults.ts turns each message into a JS string expression), and the
 * precompiled emails are filled from them (built-in-fast.ts): one parser for both keeps them the same.
 */

/** Literal text at even indexes, refs at odd ones: "a {project} b" → ["a ", "project", " b"]. */
export function parseMessage(message: string): string[] {
  return message.split(/\{([A-Za-z][A-Za-z0-9]*)\}/);
}

/** The path of a ref in the template's props: `user.displayName`, `project.displayName` or `variables.<ref>`. */
export function messageRefPath(ref: string): string {
  if (ref === "name") return "user.displayName";
  if (ref === "project") return "project.displayName";
  return `variables.${ref}`;
}

/** The refs a message uses, in order (for the catalogue's consistency test). */
export function messageRefs(message: string): string[] {
  return parseMessage(message).filter((_, i) => i % 2 === 1);
}

/**
 * A message's slot in the precompiled built-ins (scripts/build-email-built-ins.mjs renders the
 * templates once with these in place of their texts): private-use characters, as the value slots.
 */
export const messageSlot = (key: string) => `\uE002${key}\uE003`;
export const MESSAGE_SLOT = /\uE002([A-Za-z][A-Za-z0-9]*)\uE003/;
