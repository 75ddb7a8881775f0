// A free loopback TCP port chosen by the OS (npm start, the email renderer process, the benches).
import { createServer } from "node:net";

export function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once("error", rej);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => res(port));
    });
  });
}
