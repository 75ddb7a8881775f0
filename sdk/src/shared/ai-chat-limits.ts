/** The assistant's limits and contexts (no imports: the SDK's client bundle carries these, not zod). */

/** The reference's contexts plus Doorman's project assistant (the default). */
export const AI_CHAT_CONTEXT_TYPES = ["project", "email-theme", "email-template", "email-draft"] as const;
export type AiChatContextType = (typeof AI_CHAT_CONTEXT_TYPES)[number];

/** Longest text of one message, in characters (user messages; a stored reply is cut to the provider's max tokens). */
export const AI_CHAT_MAX_MESSAGE_CHARS = 8000;
/** Most messages one POST may carry, and most a thread keeps. */
export const AI_CHAT_MAX_MESSAGES = 200;
/** Largest stored message (PATCH), as JSON text. */
export const AI_CHAT_MAX_STORED_MESSAGE_BYTES = 65_536;
