/**
 * The reference suite reads webhooks back through a Svix server's API (STACK_SVIX_SERVER_URL), with
 * the token from POST /webhooks/svix-token. Doorman delivers webhooks itself and keeps each delivery
 * with its attempts (/internal/webhooks, which takes that same token), so this answers the few Svix
 * calls the suite makes from Doorman's own records:
 *   POST /api/v1/app/{app}/endpoint                 → POST /internal/webhooks/endpoints
 *   GET  /api/v1/app/{app}/attempt/endpoint/{id}    → the endpoint's deliveries, one per message
 *   GET  /api/v1/app/{app}/msg/{msgId}              → that delivery as a Svix message
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

type Delivery = {
  id: string;
  message_id: string;
  type: string;
  payload: unknown;
  event_id: string | null;
  created_at_millis: number;
  attempts: unknown[];
};

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startSvixBridge(doorman: string) {
  const call = async (path: string, authorization: string, init: RequestInit = {}) => {
    const res = await fetch(`${doorman}/api/v1/internal/webhooks${path}`, {
      ...init,
      headers: { authorization, "content-type": "application/json" },
    });
    return { status: res.status, body: (await res.json().catch(() => null)) as unknown };
  };
  const deliveriesOf = async (endpointId: string, authorization: string): Promise<Delivery[]> => {
    const res = await call(`/deliveries?endpoint_id=${encodeURIComponent(endpointId)}&limit=100`, authorization);
    return res.status === 200 ? (res.body as { items: Delivery[] }).items : [];
  };
  const message = (d: Delivery) => ({
    eventType: d.type,
    eventId: null,
    channels: null,
    id: d.message_id,
    payload: d.payload,
    timestamp: new Date(d.created_at_millis).toISOString(),
  });
  // Which endpoint a message went to, remembered from the attempt lists (Svix looks messages up by app).
  const endpointOfMessage = new Map<string, string>();

  const server = createServer(async (req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    try {
      const url = new URL(req.url ?? "/", "http://svix");
      const parts = url.pathname.split("/").filter(Boolean); // api v1 app {app} …
      const authorization = req.headers.authorization ?? "";
      if (parts[0] !== "api" || parts[1] !== "v1" || parts[2] !== "app") return send(404, { code: "not_found" });
      if (req.method === "POST" && parts[4] === "endpoint" && parts.length === 5) {
        const { url: target } = JSON.parse(await bodyOf(req)) as { url: string };
        const created = await call("/endpoints", authorization, { method: "POST", body: JSON.stringify({ url: target }) });
        return send(created.status === 201 || created.status === 200 ? 201 : created.status, created.body);
      }
      if (req.method === "GET" && parts[4] === "attempt" && parts[5] === "endpoint" && parts[6]) {
        const deliveries = await deliveriesOf(parts[6], authorization);
        for (const d of deliveries) endpointOfMessage.set(d.message_id, parts[6]);
        return send(200, {
          data: deliveries
            .filter((d) => d.attempts.length > 0)
            .map((d) => ({ id: `atmpt_${d.id}`, msgId: d.message_id, endpointId: parts[6] })),
          done: true,
          iterator: null,
        });
      }
      if (req.method === "GET" && parts[4] === "msg" && parts[5]) {
        const endpointId = endpointOfMessage.get(parts[5]);
        const found = endpointId ? (await deliveriesOf(endpointId, authorization)).find((d) => d.message_id === parts[5]) : undefined;
        return found ? send(200, message(found)) : send(404, { code: "not_found" });
      }
      return send(404, { code: "not_found" });
    } catch (err) {
      send(500, { code: "bridge_error", detail: String(err) });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}
