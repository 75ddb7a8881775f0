/**
 * A throwaway certificate authority for the e2e stack, so that the worker can fetch from a local
 * https server (a client ID metadata document: the MCP SDK only accepts an https clientMetadataUrl).
 * workerd trusts no local CA by default; Miniflare hands the certificates of NODE_EXTRA_CA_CERTS to
 * workerd's outbound TLS when it loads (SSL_CERT_FILE, read by workerd's TLS library, works too; both
 * checked with wrangler 4.86 / miniflare 4.20260426): stack.mjs sets NODE_EXTRA_CA_CERTS for
 * `wrangler pages dev` to this CA, which adds to the trusted set rather than replacing it. The CA and a leaf certificate
 * for localhost and 127.0.0.1 are made with the openssl command line (P-256, valid 2 days) in a temp
 * folder, once per process; its key never leaves that folder, which stop() removes.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";

let made = null;

/** The CA (`caFile` for NODE_EXTRA_CA_CERTS, `ca` PEM) and the localhost leaf (`key`, `cert`); made on first use. */
export function localCa() {
  if (made) return made;
  const dir = mkdtempSync(join(tmpdir(), "doorman-e2e-ca-"));
  const openssl = (...args) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"];
  openssl(
    "req",
    "-x509",
    ...ec,
    "-keyout",
    "ca.key",
    "-out",
    "ca.pem",
    "-days",
    "2",
    "-subj",
    "/CN=Doorman e2e throwaway CA",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
  );
  openssl("req", ...ec, "-keyout", "leaf.key", "-out", "leaf.csr", "-subj", "/CN=localhost");
  writeFileSync(
    join(dir, "leaf.ext"),
    "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n",
  );
  openssl(
    "x509",
    "-req",
    "-in",
    "leaf.csr",
    "-CA",
    "ca.pem",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-out",
    "leaf.pem",
    "-days",
    "2",
    "-extfile",
    "leaf.ext",
  );
  const read = (name) => readFileSync(join(dir, name), "utf8");
  made = {
    caFile: join(dir, "ca.pem"),
    ca: read("ca.pem"),
    key: read("leaf.key"),
    cert: read("leaf.pem"),
    remove: () => {
      rmSync(dir, { recursive: true, force: true });
      made = null;
    },
  };
  return made;
}

/** An https server on 127.0.0.1 with the localhost certificate: `{ origin: "https://localhost:PORT", close }`. */
export async function startLocalHttpsServer(handler) {
  const { key, cert } = localCa();
  const server = createServer({ key, cert }, handler);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `https://localhost:${server.address().port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}
