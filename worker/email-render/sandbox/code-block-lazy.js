// Stands in for @react-email/code-block inside @react-email/components' index (esbuild aliases it
// here): the real one defines every Prism language when it loads, which takes QuickJS ~1.4 s.
// entry.js exposes its exports as getters that load the real module on first use instead.
export {};
