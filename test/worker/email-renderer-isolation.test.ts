import { describe, expect, it, onTestFinished, vi } from "vitest";
import { CPU_LIMIT_ERROR, type EmailRendererBinding, renderThroughRenderer } from "../../worker/email-render/renderer-client";
import { renderSourcesWith } from "../../worker/services/email/rendering";
import { call, createProjectWithKeys } from "../helpers/api";
import { withHealthPolls } from "../helpers/health";

const _sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A bare template whose body runs `statement` first. */
const templateRunning = (statement: string) =>
  `export const variablesSchema = (v) => v;\nexport function EmailTemplate() {\n  ${statement};\n  return <p>unreachable</p>;\n}\n`;

const GOOD_TEMPLATE = `import { Subject, NotificationCategory } from "@stackframe/emails";
export const variablesSchema = (v) => v;
export function EmailTemplate({ project }) {
  return <><Subject value={"Hello from " + project.displayName} /><NotificationCategory value="Transactional" /><p>All good</p></>;
}`;

describe("a hostile template renders in the renderer's process, not the API's", () => {
  const hostile: [string, string][] = [
    ["an endless loop", "for (;;) {}"],
    ["unbounded allocation", "const hoard = []; for (;;) hoard.push({ at: hoard.length, pad: 'x'.repeat(64) })"],
  ];

  it.each(hostile)("%s: EMAIL_RENDERING_ERROR while /health answers 200 throughout; the next render works", async (name, statement) => {
    const p = await createProjectWithKeys();
    const { result, statuses, maxMs } = await withHealthPolls(() =>
      call("/emails/render-email", { ...p.adminKey, body: { template_tsx_source: templateRunning(statement), theme_id: false } }),
    );
    console.log(
      `[email-renderer-isolation] ${name}: ${statuses.length} /health polls, max ${maxMs} ms; render answered ${result.status} ${result.body.details?.error}`,
    );
    expect(result.status, result.text).toBe(400);
    expect(result.body.code).toBe("EMAIL_RENDERING_ERROR");
    expect(result.body.details.error).toEqual(expect.any(String));
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);

    const good = await call("/emails/render-email", { ...p.adminKey, body: { template_tsx_source: GOOD_TEMPLATE, theme_id: false } });
    expect(good.status, good.text).toBe(200);
    expect(good.body.subject).toBe("Hello from Test project");
    expect(good.body.html).toContain("All good");
  });
});

describe("the API's side of the binding", () => {
  const input = {
    themeSource: null,
    templateSource: GOOD_TEMPLATE,
    variables: {},
    user: { displayName: "Ada" },
    project: { displayName: "Acme" },
    previewMode: true,
  };
  const answering = (respond: () => Response | Promise<Response>): EmailRendererBinding => ({ fetch: async () => respond() });

  it("maps the platform's CPU-limit exception, a thrown error, a non-JSON answer, a refusal and a wrong shape to RenderFailures", async () => {
    // The client logs what it could not map (for operators); that noise is expected here.
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    onTestFinished(() => logged.mockRestore());
    const cpu = await renderSourcesWith(
      answering(() => {
        throw new Error("Worker exceeded CPU time limit.");
      }),
      input,
    );
    expect(cpu).toEqual({ ok: false, reason: "render_error", error: CPU_LIMIT_ERROR });
    const thrown = await renderSourcesWith(
      answering(() => {
        throw new Error("Network connection lost.");
      }),
      input,
    );
    expect(thrown).toMatchObject({ ok: false, reason: "render_error", error: expect.stringContaining("Network connection lost.") });
    const html = await renderSourcesWith(
      answering(() => new Response("<html>Bad gateway</html>", { status: 502 })),
      input,
    );
    expect(html).toMatchObject({ ok: false, reason: "render_error", error: expect.stringContaining("HTTP 502") });
    const refused = await renderSourcesWith(
      answering(() => Response.json({ error: "Invalid render request: x" }, { status: 400 })),
      input,
    );
    expect(refused).toMatchObject({ ok: false, reason: "render_error", error: expect.stringContaining("Invalid render request: x") });
    const shape = await renderSourcesWith(
      answering(() => Response.json({ ok: true })),
      input,
    );
    expect(shape).toMatchObject({ ok: false, reason: "render_error", error: expect.stringContaining("not a render result") });
  });

  it("stops waiting at the deadline when the renderer never answers", async () => {
    let aborted = false;
    const silent: EmailRendererBinding = {
      fetch: (_url, init) =>
        new Promise((_resolve, reject) => {
          init.signal?.addEventListener("abort", () => {
            aborted = true;
            reject(new DOMException("aborted", "AbortError"));
          });
        }),
    };
    const result = await renderThroughRenderer(silent, input, 200);
    expect(result).toEqual({ ok: false, error: "Rendering was stopped: the email renderer did not answer within 0.2 s." });
    expect(aborted).toBe(true);
  });

  it("renders in process, with one warning per isolate, when the deployment has no binding", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const first = await renderSourcesWith(undefined, input);
      const second = await renderSourcesWith(undefined, input);
      expect(first).toMatchObject({ ok: true, subject: "Hello from Acme" });
      expect(second).toMatchObject({ ok: true, subject: "Hello from Acme" });
      expect(warn.mock.calls.filter((c) => String(c[0]).includes("EMAIL_RENDERER is not bound"))).toHaveLength(1);
    } finally {
      warn.mockRestore();
    }
  });
});
