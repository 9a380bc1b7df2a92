// The soak's webhook receiver (#22): a Node HTTP server on a fixed local port that fails half of the attempts it
// receives, decided per attempt by a seeded hash of (seed, path, webhook-id, attempt number at this receiver), so
// the same delivery fails or succeeds the same way in any arrival order. Failures are spread over the answers the
// contract retries (500, 503, 408, 429 without Retry-After) and a dropped connection (a network error for the sender).
// Every request is checked with the unmodified `standardwebhooks` library against the endpoint's secret.
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import { Webhook } from "standardwebhooks";

const FAILURES = [{ status: 500 }, { status: 503 }, { status: 408 }, { status: 429 }, { drop: true }];

/** Uniform in [0, 1) from a string: the first 48 bits of its SHA-256. */
function unit(text) {
  return createHash("sha256").update(text).digest().readUIntBE(0, 6) / 2 ** 48;
}

export class SoakReceiver {
  /** @param {{ port: number, seed: number, failRate?: number }} options */
  constructor({ port, seed, failRate = 0.5 }) {
    this.port = port;
    this.seed = seed;
    this.failRate = failRate;
    /** path → the endpoint's secret. */
    this.secrets = new Map();
    /** `${path} ${webhook-id}` → { attempts: [{ at, answer, verified }], acknowledged } */
    this.seen = new Map();
    this.requests = 0;
    this.badSignatures = 0;
    this.unknownPaths = 0;
    this.answers = new Map();
    this.server = createServer((req, res) => void this.handle(req, res));
    // Node closes an idle keep-alive connection after 5 s (its default, kept: receivers in the wild do the same); an
    // attempt the sender writes on that connection as it closes is reset before any request is read: a network_error
    // the service records (and retries) that this receiver never sees. SOAK_RECEIVER_KEEPALIVE_MS changes the timeout
    // (120000: no such attempts in a 2-minute run, against 19-38 a run at 5 s).
    if (process.env.SOAK_RECEIVER_KEEPALIVE_MS) this.server.keepAliveTimeout = Number(process.env.SOAK_RECEIVER_KEEPALIVE_MS);
  }

  url(path) {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  async start() {
    await new Promise((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(this.port, "127.0.0.1", resolve);
    });
  }

  async stop() {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(() => resolve()));
  }

  async handle(req, res) {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const path = (req.url ?? "/").split("?")[0];
    const secret = this.secrets.get(path);
    this.requests++;
    if (!secret) {
      this.unknownPaths++;
      res.writeHead(404).end();
      return;
    }
    const body = Buffer.concat(chunks).toString("utf8");
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]));
    let verified = true;
    try {
      new Webhook(secret).verify(body, headers);
    } catch {
      verified = false;
      this.badSignatures++;
    }
    const id = headers["webhook-id"] ?? "";
    const key = `${path} ${id}`;
    const entry = this.seen.get(key) ?? { path, id, attempts: [], acknowledged: 0 };
    this.seen.set(key, entry);
    const nth = entry.attempts.length + 1;
    const roll = unit(`${this.seed}|${path}|${id}|${nth}`);
    const answer = roll < this.failRate ? FAILURES[Math.floor((roll / this.failRate) * FAILURES.length)] : { status: 200 };
    entry.attempts.push({ at: Date.now(), answer: answer.drop ? "drop" : answer.status, verified });
    const label = answer.drop ? "dropped" : String(answer.status);
    this.answers.set(label, (this.answers.get(label) ?? 0) + 1);
    if (answer.drop) {
      req.socket.destroy();
      return;
    }
    if (answer.status === 200) entry.acknowledged++;
    res.writeHead(answer.status, { "content-type": "text/plain" }).end(`soak ${answer.status}`);
  }
}
