/**
 * A local webhook receiver (a real Node HTTP server on 127.0.0.1) for end-to-end tests and the benchmark.
 * Each path has its own behaviour and secrets; every request is recorded with its arrival time, verified with
 * the unmodified `standardwebhooks` library against each registered secret, and counted in flight, so tests
 * can assert what the receiver actually saw: signatures, concurrency, rate, retries and exactly-once effects.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  /** Answer after this many ms (a slow receiver). */
  delayMs?: number;
  /** Drop the connection without answering (a network error for the sender). */
  drop?: boolean;
}

export interface Received {
  path: string;
  webhookId: string;
  headers: Record<string, string>;
  body: string;
  arrivedAt: number;
  /** For each registered secret, in order: did `standardwebhooks` verify the request with it? */
  verifiedWith: boolean[];
  status: number | null;
}

interface Route {
  secrets: string[];
  answer: (request: Received, nth: number) => Answer;
  inFlight: number;
  maxInFlight: number;
  received: Received[];
  /** webhook-ids acknowledged with a 2xx, with how many times each was acknowledged. */
  acknowledged: Map<string, number>;
}

export class WebhookReceiver {
  private server: Server;
  private routes = new Map<string, Route>();
  port = 0;

  constructor() {
    this.server = createServer((req, res) => void this.handle(req, res));
    // Node closes an idle kept-alive connection after 5 s by default; a client that reuses it at that moment gets a
    // reset before its request is read, which the service rightly records as a failed attempt the receiver never saw
    // (attempt_count one above the receiver's count under load). A longer idle timeout removes the race.
    this.server.keepAliveTimeout = 120_000;
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  route(path: string, answer: Route["answer"] = () => ({ status: 200 })): Route {
    const route: Route = { secrets: [], answer, inFlight: 0, maxInFlight: 0, received: [], acknowledged: new Map() };
    this.routes.set(path, route);
    return route;
  }

  get(path: string): Route {
    const route = this.routes.get(path);
    if (!route) throw new Error(`no receiver route ${path}`);
    return route;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const arrivedAt = Date.now();
    const path = (req.url ?? "/").split("?")[0]!;
    const route = this.routes.get(path);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    route.inFlight++;
    route.maxInFlight = Math.max(route.maxInFlight, route.inFlight);
    const body = Buffer.concat(chunks).toString("utf8");
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]));
    const verifiedWith = route.secrets.map((secret) => {
      try {
        new Webhook(secret).verify(body, headers);
        return true;
      } catch {
        return false;
      }
    });
    const record: Received = { path, webhookId: headers["webhook-id"] ?? "", headers, body, arrivedAt, verifiedWith, status: null };
    route.received.push(record);
    const answer = route.answer(record, route.received.length);
    if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    route.inFlight--;
    if (answer.drop) {
      req.socket.destroy();
      return;
    }
    record.status = answer.status;
    if (answer.status >= 200 && answer.status < 300)
      route.acknowledged.set(record.webhookId, (route.acknowledged.get(record.webhookId) ?? 0) + 1);
    res.writeHead(answer.status, { "content-type": "text/plain", ...answer.headers }).end(`answered ${answer.status}`);
  }
}

/** Waits until `done()` holds, polling every 100 ms, at most `timeoutMs`; throws with `what` otherwise. */
export async function until(done: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
