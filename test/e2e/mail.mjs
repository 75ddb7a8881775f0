/**
 * A real SMTP sink (npm smtp-server, AUTH disabled like a local mail catcher) for the browser
 * e2e: the stack sends the internal project's email here, and the scenario reads the links.
 */
import { SMTPServer } from "smtp-server";

function decodeQp(text) {
  const bytes = text.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, h) => String.fromCharCode(Number.parseInt(h, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

function textPart(raw) {
  const boundaries = [...raw.matchAll(/boundary="?([^";\r\n]+)"?/gi)].map((m) => m[1]);
  let sections = [raw];
  for (const b of boundaries) sections = sections.flatMap((s) => s.split(`--${b}`));
  for (const section of sections) {
    const split = section.search(/\r?\n\r?\n/);
    if (split < 0 || !/content-type:\s*text\/plain/i.test(section.slice(0, split))) continue;
    let body = section.slice(split).replace(/^\r?\n\r?\n/, "");
    if (/quoted-printable/i.test(section.slice(0, split))) body = decodeQp(body);
    else if (/base64/i.test(section.slice(0, split))) body = Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
    return body;
  }
  return "";
}

export async function startMail() {
  const messages = [];
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (c) => (raw += c));
      stream.on("end", () => {
        const subject = /^Subject:\s*(.*)$/im.exec(raw)?.[1]?.trim() ?? "";
        messages.push({ to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), subject, text: textPart(raw) });
        callback();
      });
    },
  });
  // A sender cut off mid-message (the worker stopped while a deferred notice was on its way) is
  // not a test failure: without a listener the server's "error" event would crash the runner.
  server.on("error", (err) => {
    if (err.code !== "ECONNRESET" && err.code !== "EPIPE") console.error(`mail sink: ${err.message}`);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = server.server.address().port;
  return {
    port,
    /** The newest mail to `to` whose subject matches, waiting for it to arrive. */
    async waitFor(to, subject, { timeoutMs = 15_000, after = 0 } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const hits = messages.filter((m) => m.to.includes(to.toLowerCase()) && subject.test(m.subject));
        if (hits.length > after) return hits[hits.length - 1];
        if (Date.now() > deadline)
          throw new Error(`no mail to ${to} matching ${subject} (have ${messages.map((m) => m.subject).join(" | ")})`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    count(to, subject) {
      return messages.filter((m) => m.to.includes(to.toLowerCase()) && subject.test(m.subject)).length;
    },
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** The link (callback URL with ?code=) in a mail's text part. */
export function linkIn(mail) {
  const match = /(https?:\/\/\S+[?&]code=[a-z0-9]{45})/.exec(mail.text);
  if (!match) throw new Error(`no link in mail "${mail.subject}": ${mail.text}`);
  return match[1];
}

/** Sends the internal project's email to the sink (admin API with the public dev key). */
export async function routeInternalMailTo(origin, port) {
  const res = await fetch(`${origin}/api/v1/internal/projects/current`, {
    method: "PATCH",
    headers: {
      "content-type": "application/json",
      "x-stack-project-id": "internal",
      "x-stack-access-type": "admin",
      "x-stack-super-secret-admin-key": "this-super-secret-admin-key-is-for-local-development-only",
    },
    body: JSON.stringify({
      config: {
        email_config: {
          type: "standard",
          host: "127.0.0.1",
          port,
          username: "",
          password: "",
          sender_name: "Doorman",
          sender_email: "noreply@doorman.localhost",
        },
      },
    }),
  });
  if (!res.ok) throw new Error(`could not route mail to the sink: ${res.status} ${await res.text()}`);
}
