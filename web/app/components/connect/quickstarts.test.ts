/**
 * The Connect page's quickstarts: the React (Vite) one is built against the SDK (bundled with
 * esbuild and typechecked with tsc), so a change of the SDK's API that breaks its code fails here;
 * every quickstart carries the project's values, an unknown publishable key is left empty, never
 * faked, and docs/quickstarts.md is rendered from the same data.
 */
import { describe, expect, test } from "vitest";
import committedDoc from "../../../../docs/quickstarts.md?raw";
import sdkPackage from "../../../../sdk/package.json";
import { buildQuickstart } from "./quickstart-build.mjs";
import { QUICKSTART_IDS, type QuickstartValues, quickstarts, SDK_TARBALL } from "./quickstarts";
import { renderQuickstartsDoc } from "./quickstarts-doc";

const values: QuickstartValues = {
  apiUrl: "https://auth.example.com",
  projectId: "0d9a5a4e-6b1f-4d7e-9a51-2f0f5c1e8b3a",
  publishableClientKey: "pck_example0123456789",
  hostedSignInUrl: "https://auth.example.com/p/0d9a5a4e-6b1f-4d7e-9a51-2f0f5c1e8b3a/handler/sign-in",
};

const byId = (id: string, v: QuickstartValues = values) => {
  const found = quickstarts(v).find((q) => q.id === id);
  if (!found) throw new Error(`no quickstart ${id}`);
  return found;
};

describe("quickstarts", () => {
  test("the React (Vite) quickstart bundles and typechecks against the SDK", async () => {
    const quickstart = byId("react-vite");
    const result = await buildQuickstart(quickstart.files, "src/main.tsx");
    expect(result.bundleErrors).toEqual([]);
    expect(result.typeErrors).toEqual([]);
    // The bundle holds the SDK's provider and handler, not only the quickstart's few lines.
    expect(result.bundleBytes).toBeGreaterThan(50_000);
  }, 120_000);

  test("code that no longer matches the SDK fails the build", async () => {
    const files = byId("react-vite").files.map((f) =>
      f.path === "src/main.tsx" ? { ...f, code: f.code.replace("<StackHandler />", "<StackHandler basePathTypo />") } : f,
    );
    const gone = {
      path: "src/gone.ts",
      about: "",
      code: 'import { StackHandlerGone } from "@doorman/sdk/react";\nvoid StackHandlerGone;\n',
    };
    const broken = [...files, gone];
    const result = await buildQuickstart(broken, "src/gone.ts");
    expect(result.bundleErrors.join("\n")).toMatch(/StackHandlerGone/);
    expect(result.typeErrors.join("\n")).toMatch(/basePathTypo/);
  }, 120_000);

  test("every quickstart is filled in with the project's id, origin and hosted pages", () => {
    const list = quickstarts(values);
    expect(list.map((q) => q.id)).toEqual([...QUICKSTART_IDS]);
    for (const q of list) {
      expect(q.env.text).toContain(values.projectId);
      expect(q.env.text).toContain(values.apiUrl);
      expect(q.hosted.url).toBe(values.hostedSignInUrl);
      expect(q.files.length).toBeGreaterThan(0);
    }
    expect(byId("react-vite").env.text).toContain(`VITE_DOORMAN_PUBLISHABLE_CLIENT_KEY=${values.publishableClientKey}`);
  });

  test("without a known publishable key the .env line is empty with what to paste, never a made-up key", () => {
    const unknown = { ...values, publishableClientKey: null };
    for (const q of quickstarts(unknown)) {
      expect(q.env.text).not.toContain("pck_");
      expect(q.files.map((f) => f.code).join("\n")).not.toContain("pck_");
    }
    expect(byId("react-vite", unknown).env.text).toMatch(/^# Paste the publishable client key.*\nVITE_DOORMAN_PUBLISHABLE_CLIENT_KEY=$/m);
  });

  test("the SDK's install says how to get the package, not a registry name that does not exist", () => {
    const install = byId("react-vite").install;
    expect(install?.command).toContain("npm pack ./sdk");
    // The file `npm pack ./sdk` writes: @doorman/sdk at sdk/package.json's version.
    expect(sdkPackage.name).toBe("@doorman/sdk");
    expect(SDK_TARBALL).toBe(`doorman-sdk-${sdkPackage.version}.tgz`);
    expect(install?.command).toContain(SDK_TARBALL);
    expect(install?.command).not.toMatch(/npm install @doorman\/sdk/);
  });

  test("docs/quickstarts.md is the same quickstarts (npm run docs:quickstarts)", () => {
    expect(committedDoc).toBe(renderQuickstartsDoc());
  });
});
