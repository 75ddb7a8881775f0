/**
 * The Connect page's quickstarts as data: for each way of connecting an app (React with Vite,
 * Remix / React Router, Next.js, a Node or Hono back end, plain fetch/curl, the published Stack Auth
 * SDK) the install command, the .env block, the files to add and what they do, filled in with the
 * project's values. The page renders them; web/app/components/connect/quickstarts.test.ts builds the
 * React (Vite) files against the SDK, so they cannot drift from its API.
 */

/** The values a quickstart is filled in with. */
export type QuickstartValues = {
  /** Doorman's origin: the API is under `{apiUrl}/api/v1` (the console's own origin). */
  apiUrl: string;
  projectId: string;
  /** Known only right after a key set is created; null: the .env line is left for the owner to fill. */
  publishableClientKey: string | null;
  /** The project's hosted sign-in page (hostedHandlerUrl). */
  hostedSignInUrl: string;
};

export type QuickstartFile = {
  /** Where the file goes in the app, e.g. "src/main.tsx". */
  path: string;
  /** What the file does, in one sentence. */
  about: string;
  code: string;
};

export type Quickstart = {
  id: QuickstartId;
  title: string;
  /** One line under the title: what this path is for. */
  summary: string;
  install: { command: string; note: string } | null;
  env: { file: string; text: string; note: string };
  files: QuickstartFile[];
  /** Steps after the files (running it, where sign-in lives). */
  next: string[];
  /** The project's hosted pages, which every app can link to. */
  hosted: { url: string; text: string };
};

export const QUICKSTART_IDS = ["react-vite", "react-router", "nextjs", "node-hono", "fetch", "stack-sdk"] as const;
export type QuickstartId = (typeof QUICKSTART_IDS)[number];

/** The SDK's tarball, as `npm pack ./sdk` names it (sdk/package.json: @doorman/sdk 0.1.0). */
export const SDK_TARBALL = "doorman-sdk-0.1.0.tgz";

/**
 * How the SDK is installed while it is not on the npm registry: packed from a Doorman checkout.
 * `npm pack` runs the SDK's build (prepack), and the tarball brings its dependencies along.
 */
export const SDK_INSTALL_NOTE =
  "@doorman/sdk is not on the npm registry yet. Make its package from a Doorman checkout with `npm pack ./sdk` (it builds the SDK first) and install that file.";

const sdkInstall = (extra: string) =>
  [
    "# In your Doorman checkout (after npm ci): build the SDK into a package file",
    "mkdir -p ~/doorman-sdk && npm pack ./sdk --pack-destination ~/doorman-sdk",
    "# In your app",
    `npm install ~/doorman-sdk/${SDK_TARBALL}${extra ? ` ${extra}` : ""}`,
  ].join("\n");

/** The .env line of the publishable key: the key when it is known, else empty with what to put there. */
function publishableKeyLines(name: string, key: string | null): string[] {
  if (key) return [`${name}=${key}`];
  return ["# Paste the publishable client key of a key set (Keys → Create key set; it is shown once)", `${name}=`];
}

const SECRET_KEY_LINES = (name: string) => [
  "# Paste the secret server key of a key set (shown once when it is created). Never ship it to a browser.",
  `${name}=`,
];

function reactVite(v: QuickstartValues): Omit<Quickstart, "hosted"> {
  return {
    id: "react-vite",
    title: "React (Vite)",
    summary: "A single-page app: the SDK's provider, the sign-in, sign-up and account pages under /handler, and the signed-in user.",
    install: { command: sdkInstall(""), note: SDK_INSTALL_NOTE },
    env: {
      file: ".env",
      text: [
        `VITE_DOORMAN_URL=${v.apiUrl}`,
        `VITE_DOORMAN_PROJECT_ID=${v.projectId}`,
        ...publishableKeyLines("VITE_DOORMAN_PUBLISHABLE_CLIENT_KEY", v.publishableClientKey),
      ].join("\n"),
      note: "Vite exposes VITE_ variables to the browser. All three are public.",
    },
    files: [
      {
        path: "src/doorman.ts",
        about: "The app's one Doorman client; the session is kept in this origin's cookies.",
        code: `import { StackClientApp } from "@doorman/sdk";

export const doorman = new StackClientApp({
  baseUrl: import.meta.env.VITE_DOORMAN_URL,
  projectId: import.meta.env.VITE_DOORMAN_PROJECT_ID,
  publishableClientKey: import.meta.env.VITE_DOORMAN_PUBLISHABLE_CLIENT_KEY,
  tokenStore: "cookie",
});

/** Headers that let your own back end check who is calling (see the Node / Hono quickstart). */
export async function authHeaders(): Promise<Record<string, string>> {
  const user = await doorman.getUser();
  const { accessToken } = user ? await user.getAuthJson() : { accessToken: null };
  return accessToken ? { "x-stack-access-token": accessToken } : {};
}
`,
      },
      {
        path: "src/main.tsx",
        about: "The provider around the app, and Doorman's pages (sign-in, sign-up, account settings, …) under /handler.",
        code: `import { StackHandler, StackProvider } from "@doorman/sdk/react";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { doorman } from "./doorman";

const onHandlerPage = window.location.pathname.startsWith("/handler/");

createRoot(document.getElementById("root") as HTMLElement).render(
  <StrictMode>
    <StackProvider app={doorman}>{onHandlerPage ? <StackHandler /> : <App />}</StackProvider>
  </StrictMode>,
);
`,
      },
      {
        path: "src/App.tsx",
        about: "A page that knows who is signed in.",
        code: `import { useUser } from "@doorman/sdk/react";

export function App() {
  const user = useUser();
  if (!user) {
    return (
      <main>
        <a href="/handler/sign-in">Sign in</a> or <a href="/handler/sign-up">create an account</a>
      </main>
    );
  }
  return (
    <main>
      <p>Signed in as {user.displayName ?? user.primaryEmail}</p>
      <a href="/handler/account-settings">Account settings</a>{" "}
      <button type="button" onClick={() => user.signOut()}>
        Sign out
      </button>
    </main>
  );
}
`,
      },
      {
        path: "src/vite-env.d.ts",
        about: "Vite's types for import.meta.env (Vite's templates already have this file).",
        code: `/// <reference types="vite/client" />
`,
      },
    ],
    next: [
      "Run `npm run dev` and open /handler/sign-up in your app.",
      "Add your app's domain under Domains before it goes live (development mode also allows localhost).",
    ],
  };
}

function reactRouter(v: QuickstartValues): Omit<Quickstart, "hosted"> {
  return {
    id: "react-router",
    title: "Remix / React Router",
    summary: "React Router 7 (framework mode) or Remix 2 (import from @remix-run/react instead of react-router).",
    install: { command: sdkInstall(""), note: SDK_INSTALL_NOTE },
    env: {
      file: ".env",
      text: [
        `VITE_DOORMAN_URL=${v.apiUrl}`,
        `VITE_DOORMAN_PROJECT_ID=${v.projectId}`,
        ...publishableKeyLines("VITE_DOORMAN_PUBLISHABLE_CLIENT_KEY", v.publishableClientKey),
      ].join("\n"),
      note: "VITE_ variables reach the browser bundle. All three are public.",
    },
    files: [
      {
        path: "app/doorman.ts",
        about:
          "The Doorman client. The session lives in the browser's cookies, so the server render knows nobody: Doorman's parts render in the browser.",
        code: `import { StackClientApp } from "@doorman/sdk";

const inBrowser = typeof document !== "undefined";

export const doorman = new StackClientApp({
  baseUrl: import.meta.env.VITE_DOORMAN_URL,
  projectId: import.meta.env.VITE_DOORMAN_PROJECT_ID,
  publishableClientKey: import.meta.env.VITE_DOORMAN_PUBLISHABLE_CLIENT_KEY,
  tokenStore: inBrowser ? "cookie" : null,
  redirectMethod: inBrowser ? "window" : "none",
});
`,
      },
      {
        path: "app/root.tsx",
        about: "The provider around every route (keep the rest of your root as it is).",
        code: `import { StackProvider } from "@doorman/sdk/react";
import { Outlet } from "react-router";
import { doorman } from "./doorman";

export default function App() {
  return (
    <StackProvider app={doorman}>
      <Outlet />
    </StackProvider>
  );
}
`,
      },
      {
        path: "app/routes/handler.$.tsx",
        about: "Doorman's pages (sign-in, sign-up, account settings, …) under /handler/*, rendered once the page runs in the browser.",
        code: `import { StackHandler } from "@doorman/sdk/react";
import { useEffect, useState } from "react";
import { useLocation } from "react-router";

export default function Handler() {
  const location = useLocation();
  const [inBrowser, setInBrowser] = useState(false);
  useEffect(() => setInBrowser(true), []);
  return inBrowser ? <StackHandler location={location.pathname + location.search} /> : null;
}
`,
      },
    ],
    next: [
      'With React Router\'s file routes (@react-router/fs-routes) handler.$.tsx serves /handler/*; with a routes.ts, add route("handler/*", "routes/handler.$.tsx").',
      "useUser() from @doorman/sdk/react gives the signed-in user in any component that renders in the browser.",
      "Loaders and actions check who is calling with the server SDK: see the Node / Hono quickstart.",
    ],
  };
}

function nextjs(v: QuickstartValues): Omit<Quickstart, "hosted"> {
  return {
    id: "nextjs",
    title: "Next.js",
    summary: "The App Router: a client provider in the root layout and Doorman's pages under /handler.",
    install: { command: sdkInstall(""), note: SDK_INSTALL_NOTE },
    env: {
      file: ".env.local",
      text: [
        `NEXT_PUBLIC_DOORMAN_URL=${v.apiUrl}`,
        `NEXT_PUBLIC_DOORMAN_PROJECT_ID=${v.projectId}`,
        ...publishableKeyLines("NEXT_PUBLIC_DOORMAN_PUBLISHABLE_CLIENT_KEY", v.publishableClientKey),
        ...SECRET_KEY_LINES("DOORMAN_SECRET_SERVER_KEY"),
      ].join("\n"),
      note: "NEXT_PUBLIC_ variables reach the browser; the secret server key stays on the server (route handlers, server actions).",
    },
    files: [
      {
        path: "app/doorman-provider.tsx",
        about: "The Doorman client and its provider, in the browser only (the session lives in this origin's cookies).",
        code: `"use client";
import { StackClientApp } from "@doorman/sdk";
import { StackProvider } from "@doorman/sdk/react";
import { type ReactNode, useEffect, useState } from "react";

export function DoormanProvider({ children }: { children: ReactNode }) {
  const [app, setApp] = useState<StackClientApp | null>(null);
  useEffect(() => {
    setApp(
      new StackClientApp({
        baseUrl: process.env.NEXT_PUBLIC_DOORMAN_URL,
        projectId: process.env.NEXT_PUBLIC_DOORMAN_PROJECT_ID as string,
        publishableClientKey: process.env.NEXT_PUBLIC_DOORMAN_PUBLISHABLE_CLIENT_KEY,
        tokenStore: "cookie",
      }),
    );
  }, []);
  return app ? <StackProvider app={app}>{children}</StackProvider> : null;
}
`,
      },
      {
        path: "app/layout.tsx",
        about: "The provider around every page.",
        code: `import type { ReactNode } from "react";
import { DoormanProvider } from "./doorman-provider";

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <DoormanProvider>{children}</DoormanProvider>
      </body>
    </html>
  );
}
`,
      },
      {
        path: "app/handler/[...page]/page.tsx",
        about: "Doorman's pages (sign-in, sign-up, account settings, …) under /handler/*.",
        code: `"use client";
import { StackHandler } from "@doorman/sdk/react";

export default function Handler() {
  return <StackHandler />;
}
`,
      },
    ],
    next: [
      "useUser() from @doorman/sdk/react gives the signed-in user in client components.",
      "Route handlers check the caller's token with createAccessTokenVerifier: see the Node / Hono quickstart.",
    ],
  };
}

function nodeHono(v: QuickstartValues): Omit<Quickstart, "hosted"> {
  return {
    id: "node-hono",
    title: "Node or Hono back end",
    summary: "Your API checks Doorman's access tokens locally (no call to Doorman per request) and manages users with the secret key.",
    install: { command: sdkInstall("hono @hono/node-server"), note: SDK_INSTALL_NOTE },
    env: {
      file: ".env",
      text: [`DOORMAN_URL=${v.apiUrl}`, `DOORMAN_PROJECT_ID=${v.projectId}`, ...SECRET_KEY_LINES("DOORMAN_SECRET_SERVER_KEY")].join("\n"),
      note: "Server only. The secret server key acts as your back end: keep it out of browsers and repositories.",
    },
    files: [
      {
        path: "server.ts",
        about:
          "A Hono server: createAccessTokenVerifier checks each request's token against the project's keys (fetched once and cached), and the server app reads the user.",
        code: `import { serve } from "@hono/node-server";
import { createAccessTokenVerifier, StackServerApp } from "@doorman/sdk";
import { Hono } from "hono";

const baseUrl = process.env.DOORMAN_URL ?? "${v.apiUrl}";
const projectId = process.env.DOORMAN_PROJECT_ID ?? "${v.projectId}";

// Checks a token's signature, expiry and project locally. A token of a session that just ended
// stays valid until it expires (10 minutes at most): ask the API (GET /users/me) where that matters.
const verify = createAccessTokenVerifier({ projectId, baseUrl });

const secretServerKey = process.env.DOORMAN_SECRET_SERVER_KEY;
if (!secretServerKey) throw new Error("Set DOORMAN_SECRET_SERVER_KEY in .env");
const doorman = new StackServerApp({ baseUrl, projectId, secretServerKey, tokenStore: "memory" });

const app = new Hono();

app.get("/api/me", async (c) => {
  const who = await verify(c.req.header("x-stack-access-token") ?? "");
  if (!who) return c.json({ error: "Sign in first." }, 401);
  const user = await doorman.getUser(who.userId);
  return c.json({ id: who.userId, email: user?.primaryEmail ?? null });
});

serve({ fetch: app.fetch, port: 3000 });
`,
      },
    ],
    next: [
      "Run it with the .env loaded: `npx tsx --env-file=.env server.ts` (Node 20.6+).",
      "The browser sends its access token in the x-stack-access-token header (the React quickstart's authHeaders() builds it).",
      "On Cloudflare Workers, Deno or Bun, drop @hono/node-server and export the Hono app: the verifier only needs fetch and WebCrypto.",
    ],
  };
}

function plainFetch(v: QuickstartValues): Omit<Quickstart, "hosted"> {
  const key = v.publishableClientKey ?? "$DOORMAN_PUBLISHABLE_CLIENT_KEY";
  return {
    id: "fetch",
    title: "fetch / curl",
    summary: "The v1 API directly, from any language: JSON in and out, the project and key in headers.",
    install: null,
    env: {
      file: ".env",
      text: [
        `DOORMAN_URL=${v.apiUrl}`,
        `DOORMAN_PROJECT_ID=${v.projectId}`,
        ...publishableKeyLines("DOORMAN_PUBLISHABLE_CLIENT_KEY", v.publishableClientKey),
      ].join("\n"),
      note: "Load it in your shell with `set -a; . ./.env; set +a` before the commands below.",
    },
    files: [
      {
        path: "sign-up.sh",
        about: "Signs a user up with email and password and reads them back with their access token.",
        code: `curl -s "$DOORMAN_URL/api/v1/auth/password/sign-up" \\
  -H 'content-type: application/json' \\
  -H "x-stack-project-id: $DOORMAN_PROJECT_ID" -H 'x-stack-access-type: client' \\
  -H "x-stack-publishable-client-key: ${key}" \\
  -d '{"email":"me@example.com","password":"correct horse battery"}'
# → {"access_token":"…","refresh_token":"…","user_id":"…"}

curl -s "$DOORMAN_URL/api/v1/users/me" \\
  -H "x-stack-project-id: $DOORMAN_PROJECT_ID" -H 'x-stack-access-type: client' \\
  -H "x-stack-publishable-client-key: ${key}" \\
  -H "x-stack-access-token: <access_token from above>"
`,
      },
      {
        path: "sign-in.js",
        about: "The same with fetch (browsers, Node 18+, Deno, Workers): sign in and read the user.",
        code: `const headers = {
  "content-type": "application/json",
  "x-stack-project-id": "${v.projectId}",
  "x-stack-access-type": "client",
  "x-stack-publishable-client-key": ${v.publishableClientKey ? `"${v.publishableClientKey}"` : "process.env.DOORMAN_PUBLISHABLE_CLIENT_KEY"},
};
const api = "${v.apiUrl}/api/v1";

const signIn = await fetch(\`\${api}/auth/password/sign-in\`, {
  method: "POST",
  headers,
  body: JSON.stringify({ email: "me@example.com", password: "correct horse battery" }),
});
const session = await signIn.json(); // errors: { code, error } and the x-stack-known-error header
const me = await fetch(\`\${api}/users/me\`, { headers: { ...headers, "x-stack-access-token": session.access_token } });
console.log(await me.json());
`,
      },
    ],
    next: [
      `Every endpoint, with its access levels and errors: ${v.apiUrl}/api/v1/docs (and docs/api.md).`,
      "Access tokens last 10 minutes: refresh with POST /api/v1/auth/sessions/current/refresh and the x-stack-refresh-token header.",
    ],
  };
}

function stackSdk(v: QuickstartValues): Omit<Quickstart, "hosted"> {
  return {
    id: "stack-sdk",
    title: "Stack Auth SDK",
    summary: "An app built on the published Stack Auth SDK (@stackframe/js, @stackframe/react) keeps its code: point baseUrl at Doorman.",
    install: {
      command: "npm install @stackframe/js\n# or, for React: npm install @stackframe/react",
      note: "These are Stack Auth's own packages from the npm registry; Doorman speaks their wire protocol.",
    },
    env: {
      file: ".env",
      text: [
        `STACK_API_URL=${v.apiUrl}`,
        `STACK_PROJECT_ID=${v.projectId}`,
        ...publishableKeyLines("STACK_PUBLISHABLE_CLIENT_KEY", v.publishableClientKey),
      ].join("\n"),
      note: "Read them where you create the app (below). Stack requires a UUID project id: Doorman's are.",
    },
    files: [
      {
        path: "stack.ts",
        about: "The Stack client app with Doorman's origin as its baseUrl; everything else is Stack's usual code.",
        code: `import { StackClientApp } from "@stackframe/js";

export const stack = new StackClientApp({
  baseUrl: process.env.STACK_API_URL, // Doorman instead of Stack's hosted API
  projectId: process.env.STACK_PROJECT_ID,
  publishableClientKey: process.env.STACK_PUBLISHABLE_CLIENT_KEY,
  tokenStore: "cookie",
});

const result = await stack.signInWithCredential({ email: "me@example.com", password: "correct horse battery", noRedirect: true });
if (result.status === "error") console.error(result.error.message);
console.log((await stack.getUser())?.primaryEmail);
`,
      },
    ],
    next: [
      "@stackframe/react's StackProvider and StackHandler take the same app: mount the handler at /handler/* as Stack's docs say.",
      "On a server, StackServerApp with the secret server key and the same baseUrl works too.",
    ],
  };
}

const HOSTED_TEXT =
  "Doorman also hosts this project's sign-in, sign-up and account pages: link to them from any app, or use them while yours are not built yet.";

/** Every quickstart, in the page's order, filled in with `values`. */
export function quickstarts(values: QuickstartValues): Quickstart[] {
  const hosted = { url: values.hostedSignInUrl, text: HOSTED_TEXT };
  return [reactVite, reactRouter, nextjs, nodeHono, plainFetch, stackSdk].map((make) => ({ ...make(values), hosted }));
}
