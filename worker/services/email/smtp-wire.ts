/**
 * The SMTP wire under hard limits: one socket from cloudflare:sockets, replies read with a deadline
 * and a byte cap, writes with a deadline, the STARTTLS upgrade, and a close that cannot hang. EOF
 * ends a read: once the socket said `done` it is never read again (worker-mailer 1.2.1 re-read a
 * closed socket in a microtask loop that froze the isolate). No protocol decisions here (smtp.ts).
 */

/** One SMTP reply: its code and the text of each line (`250-a`, `250 b` → [a, b]). */
export type Reply = { code: number; lines: string[] };

/** timeout: no complete reply in time; closed: EOF; io: the socket failed; protocol: not SMTP. */
export type WireFailure = "timeout" | "closed" | "io" | "protocol";

export class WireError extends Error {
  constructor(
    readonly kind: WireFailure,
    message: string,
    /** What had arrived of the reply when it failed (for the error message). */
    readonly partial = "",
  ) {
    super(message);
  }
}

const noop = () => {};
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const EXPIRED = Symbol("expired");
const MAX_EMPTY_READS = 64;

/** Rejects with `onTimeout()` when `work` has not settled within `ms`; the timer is always cleared. */
export function withDeadline<T>(work: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), Math.max(0, ms));
  });
  // Promise.race subscribes to `work`, so its late rejection (after a timeout) is handled, not leaked.
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export class SmtpWire {
  private reader: ReadableStreamDefaultReader<Uint8Array>;
  private writer: WritableStreamDefaultWriter<Uint8Array>;
  private buffer = new Uint8Array(0);
  private eof = false;
  private closed = false;

  private constructor(
    private socket: Socket,
    private readonly host: string,
  ) {
    this.reader = socket.readable.getReader();
    this.writer = socket.writable.getWriter();
    this.watch();
  }

  /** Connects (implicit TLS when `tls`, else plain with STARTTLS possible) within `ms`. */
  static async open(host: string, port: number, tls: boolean, ms: number): Promise<SmtpWire> {
    // Loaded lazily: cloudflare:sockets exists only inside workerd.
    const { connect } = await import("cloudflare:sockets");
    const wire = new SmtpWire(connect({ hostname: host, port }, { secureTransport: tls ? "on" : "starttls", allowHalfOpen: false }), host);
    try {
      await withDeadline(wire.socket.opened, ms, () => new WireError("timeout", `no connection within ${ms} ms`));
      return wire;
    } catch (err) {
      await wire.close(1_000);
      throw err instanceof WireError ? err : new WireError("io", errorText(err));
    }
  }

  /** True until EOF, an I/O failure or close: whether a polite QUIT is worth trying. */
  get usable(): boolean {
    return !this.eof && !this.closed;
  }

  /** Reads one (possibly multi-line) reply within `ms` and `maxBytes`, or throws a WireError. */
  async readReply(ms: number, maxBytes: number): Promise<Reply> {
    const lines: string[] = [];
    let used = 0;
    let empty = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(EXPIRED), Math.max(0, ms));
    });
    expired.catch(noop);
    const partial = () => [...lines, decoder.decode(this.buffer)].join("\n").slice(0, 200);
    try {
      for (;;) {
        const nl = this.buffer.indexOf(0x0a);
        if (nl >= 0) {
          used += nl + 1;
          if (used > maxBytes) throw new WireError("protocol", `a reply longer than ${maxBytes} bytes`, partial());
          const line = decoder.decode(this.buffer.subarray(0, nl)).replace(/\r$/, "");
          this.buffer = this.buffer.slice(nl + 1);
          const m = /^([2-5]\d\d)(?:([ -])(.*))?$/.exec(line);
          if (!m) throw new WireError("protocol", `a reply line that is not SMTP: "${line.slice(0, 80)}"`, partial());
          lines.push(m[3] ?? "");
          if (m[2] !== "-") return { code: Number(m[1]), lines };
          continue;
        }
        if (used + this.buffer.length > maxBytes) throw new WireError("protocol", `a reply longer than ${maxBytes} bytes`, partial());
        // EOF ends the read: a closed socket answers `done` at once, forever, so never read it again.
        if (this.eof) throw new WireError("closed", "the connection was closed", partial());
        const chunk = await Promise.race([this.reader.read(), expired]);
        if (chunk.done) {
          this.eof = true;
          continue;
        }
        if (!chunk.value?.byteLength) {
          if (++empty > MAX_EMPTY_READS) throw new WireError("protocol", "a stream of empty reads", partial());
          continue;
        }
        const next = new Uint8Array(this.buffer.length + chunk.value.byteLength);
        next.set(this.buffer);
        next.set(chunk.value, this.buffer.length);
        this.buffer = next;
      }
    } catch (err) {
      if (err === EXPIRED) throw new WireError("timeout", `no complete reply within ${ms} ms`, partial());
      if (err instanceof WireError) throw err;
      this.eof = true;
      throw new WireError("io", errorText(err), partial());
    } finally {
      clearTimeout(timer);
    }
  }

  /** Writes text within `ms`. */
  async write(text: string, ms: number): Promise<void> {
    try {
      await withDeadline(this.writer.write(encoder.encode(text)), ms, () => new WireError("timeout", `could not send within ${ms} ms`));
    } catch (err) {
      if (err instanceof WireError) throw err;
      this.eof = true;
      throw new WireError("io", errorText(err));
    }
  }

  /** Upgrades to TLS after the server's 220 to STARTTLS; the handshake runs on the next write/read. */
  startTls(): void {
    // Why: bytes that came before the handshake would be trusted as if TLS-protected (STARTTLS injection, CVE-2011-0411).
    if (this.buffer.length) throw new WireError("protocol", "more data right after its 220 (a possible STARTTLS injection)");
    this.reader.releaseLock();
    this.writer.releaseLock();
    this.socket = this.socket.startTls({ expectedServerHostname: this.host });
    this.reader = this.socket.readable.getReader();
    this.writer = this.socket.writable.getWriter();
    this.watch();
  }

  /** Closes the socket; gives up waiting after `ms` (a server that never closes cannot hold us). */
  async close(ms: number): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await withDeadline(this.socket.close(), ms, () => new Error("close timed out")).catch(noop);
  }

  /** Observes the socket's own promises so their rejections are never reported as unhandled. */
  private watch(): void {
    this.socket.opened.catch(noop);
    this.socket.closed.catch(noop);
    this.reader.closed.catch(noop);
    this.writer.closed.catch(noop);
  }
}
