/**
 * The Turnstile widget in the browser (imported by bot-challenge.ts only for a project with keys):
 * injects the script the project names (Cloudflare's api.js, or a deployment's fake), then renders
 * one widget: hidden for the first phase (a managed widget shows itself only if Cloudflare asks for
 * an interaction), or visible in the card's container (else a box at the bottom of the page).
 */
import type { BotChallengeClientJson } from "./wire-types";

type Callbacks = Record<"callback" | "error-callback" | "expired-callback" | "timeout-callback", (token?: string) => void>;
type Api = { render(el: HTMLElement, o: Record<string, unknown>): string; execute(id: string): void; remove(id: string): void };
const win = () => window as unknown as { turnstile?: Api };

let loading: Promise<Api> | undefined;
const load = (src: string) =>
  (loading ??= new Promise<Api>((resolve, reject) => {
    const s = document.createElement("script");
    s.src = src;
    s.onload = () => {
      const api = win().turnstile;
      api ? resolve(api) : reject();
    };
    s.onerror = reject;
    document.head.appendChild(s);
  }).catch((e) => {
    loading = undefined;
    throw e;
  }));

/** A token for `action`, or a rejection (error, expiry, 30 s hidden / 120 s visible); the widget is removed after. */
export async function widgetToken(s: BotChallengeClientJson, action: string, slot: HTMLElement | null, visible: boolean): Promise<string> {
  const api = win().turnstile ?? (await load(s.script_url));
  const box = document.createElement("div");
  if (visible && !slot) box.style.cssText = "position:fixed;bottom:16px;right:16px;z-index:9999";
  (slot ?? document.body).appendChild(box);
  let id = "";
  try {
    return await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(reject, visible ? 120_000 : 30_000);
      const end = (token?: string) => {
        clearTimeout(timer);
        token ? resolve(token) : reject();
      };
      // The error callback's argument is an error code, never a token; the other two are called without one.
      const on: Callbacks = { callback: end, "error-callback": () => end(), "expired-callback": end, "timeout-callback": end };
      id = api.render(box, {
        action,
        ...on,
        ...(visible
          ? { sitekey: s.site_key, appearance: "always", size: "flexible" }
          : // Hidden: an invisible widget never shows; a managed one only if Cloudflare asks for an interaction.
            { sitekey: s.invisible_site_key, execution: "execute", appearance: "interaction-only" }),
      });
      if (!visible) api.execute(id);
    });
  } finally {
    if (id) api.remove(id);
    box.remove();
  }
}
