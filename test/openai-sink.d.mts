/** Types of test/openai-sink.mjs (the local OpenAI chat-completions server). */
export declare function startOpenAiSink(port?: number): Promise<{ port: number; stop: () => Promise<void> }>;
