// `performance.now()` for templates that time themselves (the reference's sandbox has it): milliseconds
// since the library loaded, read from QuickJS's own Date.now(). No finer clock than Date already is,
// and where the host's clock stands still during synchronous work (workerd in production), so does
// this one: a busy-wait on it never ends and is stopped by the CPU budget (sandbox.ts).
if (typeof globalThis.performance === "undefined") {
  const dateNow = Date.now;
  const origin = dateNow();
  const performance = Object.freeze({ timeOrigin: origin, now: () => dateNow() - origin });
  Object.defineProperty(globalThis, "performance", { value: performance, writable: true, configurable: true });
}
