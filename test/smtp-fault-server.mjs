/**
 * A hostile SMTP server for tests (Node, node:net): each server plays one scenario (a reply code
 * at a stage, a close right after or in the middle of a reply, silence, a one-byte-a-second drip, a
 * flood of continuation lines, or the happy path) and records what it saw. Used by vitest's
 * globalSetup; tests inside workerd drive it over loopback through a control HTTP server:
 *
 * - POST /servers {scenario}: a new SMTP server on 127.0.0.1 with that behaviour; answers {port}.
 * - PATCH /servers/<port> {scenario}: merges into its behaviour; {accept: true} resets it to the happy path.
 * - GET /servers/<port>: {connections, open, commands, accepted: [{from, to, data}]}.
 * - DELETE /servers/<port>: stops it (its port then refuses connections).
 *
 * Stages: greeting, ehlo, helo, starttls, auth, mail, rcpt, data (the reply to DATA), message (the reply
 * after the final dot), quit. A scenario: {replies: {<stage>: code | {code, text}}, closeAfterReplyAt,
 * closeMidReplyAt, silentAt, dripAt, dripMs, floodAt, extensions: string[], accept}. A reply text
 * with "\n" is sent as a multi-line reply. After a 220 to STARTTLS the server speaks no TLS: it
 * ignores everything that follows, so the client's handshake never completes.
 */
import { createServer as createHttpServer } from "node:http";
import { createServer as createNetServer } from "node:net";
import { readBody } from "./read-body.mjs";

const DEFAULT_REPLIES = {
  greeting: [220, "fault.test ESMTP hostile test server"],
  ehlo: [250, "fault.test at your service"],
  helo: [250, "fault.test"],
  starttls: [220, "2.0.0 Ready to start TLS"],
  auth: [235, "2.7.0 Authentication successful"],
  mail: [250, "2.1.0 Sender OK"],
  rcpt: [250, "2.1.5 Recipient OK"],
  data: [354, "Start mail input; end with <CRLF>.<CRLF>"],
  message: [250, "2.0.0 OK queued as fault-{n}"],
  quit: [221, "2.0.0 Bye"],
};
const DEFAULT_EXTENSIONS = ["PIPELINING", "8BITMIME", "AUTH PLAIN LOGIN"];
const FAULTS = ["closeAfterReplyAt", "closeMidReplyAt", "silentAt", "dripAt", "floodAt"];
const FLOOD_LIMIT = 4 * 1024 * 1024;

function normalise(scenario) {
  if (scenario.accept) return { replies: {}, extensions: scenario.extensions ?? DEFAULT_EXTENSIONS };
  return { replies: {}, extensions: DEFAULT_EXTENSIONS, ...scenario };
}

function replyFor(scenario, stage, vars) {
  const configured = scenario.replies?.[stage];
  let [code, text] = DEFAULT_REPLIES[stage];
  if (typeof configured === "number") [code, text] = [configured, `${configured >= 500 ? "5.0.0" : "4.0.0"} fault at ${stage}`];
  else if (configured) [code, text] = [configured.code, configured.text ?? `fault at ${stage}`];
  if (stage === "ehlo" && !configured) text = [text, ...scenario.extensions].join("\n");
  const lines = String(text).replace("{n}", String(vars.n)).split("\n");
  return { code, wire: lines.map((l, i) => `${code}${i === lines.length - 1 ? " " : "-"}${l}\r\n`).join("") };
}

function startSmtpServer(initial) {
  const state = { scenario: normalise(initial), connections: 0, open: 0, commands: [], accepted: [] };
  const sockets = new Set();
  const server = createNetServer((socket) => {
    state.connections += 1;
    state.open += 1;
    sockets.add(socket);
    const timers = new Set();
    let closed = false;
    socket.on("error", () => {});
    socket.on("close", () => {
      closed = true;
      state.open -= 1;
      sockets.delete(socket);
      for (const t of timers) clearInterval(t);
    });
    const session = { from: null, to: [], mode: "command", auth: null, data: [], buffer: "" };

    const send = (stage) => {
      const scenario = state.scenario;
      const { code, wire } = replyFor(scenario, stage, { n: state.accepted.length });
      if (scenario.silentAt === stage) return code;
      if (scenario.closeMidReplyAt === stage) {
        socket.end(wire.slice(0, Math.max(1, Math.floor(wire.indexOf("\r\n") / 2))), () => socket.destroy());
        return code;
      }
      if (scenario.closeAfterReplyAt === stage) {
        socket.end(wire, () => socket.destroy());
        return code;
      }
      if (scenario.dripAt === stage) {
        let i = 0;
        const t = setInterval(() => {
          if (closed || i >= wire.length) return clearInterval(t);
          socket.write(wire[i++]);
        }, scenario.dripMs ?? 1000);
        timers.add(t);
        return code;
      }
      if (scenario.floodAt === stage) {
        const line = `${code}-${"x".repeat(998)}\r\n`;
        let sent = 0;
        const pump = () => {
          while (!closed && sent < FLOOD_LIMIT) {
            sent += line.length;
            if (!socket.write(line)) return socket.once("drain", pump);
          }
        };
        pump();
        return code;
      }
      socket.write(wire);
      return code;
    };

    // AUTH continuations: what the next line is, and what to answer after it.
    const authNext = { plain: [null, () => send("auth")], "login-user": ["login-pass", () => socket.write("334 UGFzc3dvcmQ6\r\n")] };
    authNext["login-pass"] = [null, () => send("auth")];

    const onCommand = (line) => {
      state.commands.push(line);
      if (session.auth) {
        const [next, answer] = authNext[session.auth];
        session.auth = next;
        answer();
        return;
      }
      const verb = line.split(" ")[0].toUpperCase();
      if (verb === "EHLO") send("ehlo");
      else if (verb === "HELO") send("helo");
      else if (verb === "STARTTLS") {
        if (send("starttls") === 220) session.mode = "dead";
      } else if (verb === "AUTH") {
        const [, mech, initial] = line.split(" ");
        if (mech?.toUpperCase() === "LOGIN") {
          session.auth = "login-user";
          socket.write("334 VXNlcm5hbWU6\r\n");
        } else if (initial) send("auth");
        else {
          session.auth = "plain";
          socket.write("334 \r\n");
        }
      } else if (verb === "MAIL") {
        session.from = /<([^>]*)>/.exec(line)?.[1] ?? "";
        session.to = [];
        send("mail");
      } else if (verb === "RCPT") {
        session.to.push(/<([^>]*)>/.exec(line)?.[1] ?? "");
        send("rcpt");
      } else if (verb === "DATA") {
        if (send("data") === 354) session.mode = "data";
      } else if (verb === "RSET" || verb === "NOOP") socket.write("250 2.0.0 OK\r\n");
      else if (verb === "QUIT") {
        send("quit");
        socket.end();
      } else socket.write("502 5.5.2 Command not recognised\r\n");
    };

    const onDataLine = (line) => {
      if (line !== ".") {
        session.data.push(line.startsWith(".") ? line.slice(1) : line);
        return;
      }
      session.mode = "command";
      const code = send("message");
      if (code >= 200 && code < 300) state.accepted.push({ from: session.from, to: session.to, data: session.data.join("\r\n") });
      session.data = [];
    };

    socket.on("data", (chunk) => {
      if (session.mode === "dead") return;
      session.buffer += chunk.toString("latin1");
      for (let nl = session.buffer.indexOf("\n"); nl >= 0 && session.mode !== "dead"; nl = session.buffer.indexOf("\n")) {
        const line = session.buffer.slice(0, nl).replace(/\r$/, "");
        session.buffer = session.buffer.slice(nl + 1);
        if (session.mode === "data") onDataLine(Buffer.from(line, "latin1").toString("utf8"));
        else onCommand(line);
      }
    });
    send("greeting");
  });
  return { server, state, sockets };
}

/** Starts the control server on 127.0.0.1 (port 0: any free port). */
export async function startSmtpFaults(port = 0) {
  const servers = new Map();
  const stopServer = async (entry) => {
    for (const s of entry.sockets) s.destroy();
    await new Promise((resolve) => entry.server.close(() => resolve()));
  };
  const control = createHttpServer(async (req, res) => {
    const json = (status, value) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(value));
    };
    const [, area, portText] = new URL(req.url ?? "/", "http://faults.invalid").pathname.split("/");
    const body = await readBody(req);
    if (area !== "servers") return json(404, { error: "not found" });
    if (req.method === "POST" && !portText) {
      const scenario = JSON.parse(body || "{}");
      const bad = FAULTS.filter((f) => scenario[f] && !(scenario[f] in DEFAULT_REPLIES));
      if (bad.length) return json(400, { error: `unknown stage in ${bad.join(", ")}` });
      const entry = startSmtpServer(scenario);
      await new Promise((resolve) => entry.server.listen(0, "127.0.0.1", resolve));
      const smtpPort = entry.server.address().port;
      servers.set(smtpPort, entry);
      return json(201, { port: smtpPort });
    }
    const entry = servers.get(Number(portText));
    if (!entry) return json(404, { error: `no server on port ${portText}` });
    if (req.method === "PATCH") {
      const patch = JSON.parse(body || "{}");
      entry.state.scenario = patch.accept ? normalise(patch) : { ...entry.state.scenario, ...patch };
      return json(200, { ok: true });
    }
    if (req.method === "GET") {
      const { connections, open, commands, accepted } = entry.state;
      return json(200, { connections, open, commands, accepted });
    }
    if (req.method === "DELETE") {
      servers.delete(Number(portText));
      await stopServer(entry);
      return json(200, { ok: true });
    }
    return json(405, { error: "method not allowed" });
  });
  await new Promise((resolve) => control.listen(port, "127.0.0.1", resolve));
  return {
    controlPort: control.address().port,
    stop: async () => {
      await Promise.all([...servers.values()].map(stopServer));
      servers.clear();
      await new Promise((resolve) => control.close(() => resolve()));
    },
  };
}
