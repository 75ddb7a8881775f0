// arktype lists the platform's Blob, File, FormData, Headers, Request, Response and URL classes at load
// (for `instanceof` checks in schemas). QuickJS has none of them, and the sandbox has no use for
// them: each is a class nothing can construct, so a schema naming one still loads and simply never
// matches. Imported before arktype.
const names = ["Blob", "File", "FormData", "Headers", "Request", "Response", "URL"];
for (const name of names) {
  if (typeof globalThis[name] === "function") continue;
  const Unavailable = class {
    constructor() {
      throw new TypeError(`${name} is not available in the email sandbox`);
    }
  };
  Object.defineProperty(Unavailable, "name", { value: name });
  Object.defineProperty(globalThis, name, { value: Unavailable, writable: true, configurable: true });
}
