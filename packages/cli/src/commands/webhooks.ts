import { timingSafeEqual } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { type SvcClient, SvcError, SvcWebhookError, unwrap, verifyWebhook } from "@svc/client";
import { Webhook } from "standardwebhooks";
import { intFlag, listFlag, stringFlag } from "../args.ts";
import type { Command } from "../command.ts";
import { CliError, EXIT, UsageError } from "../exit.ts";
import { json, safe } from "../output.ts";
import { clientOf } from "../sdk.ts";
import { existingFile, jsonOut } from "./shared.ts";

/** Deliveries are small JSON documents; anything bigger is refused before it is read whole. */
const MAX_BODY = 1024 * 1024;
const FORWARD_TIMEOUT_MS = 10_000;
/** Webhook ids remembered for deduplication (a delivery can arrive more than once). */
const SEEN_LIMIT = 10_000;
/** Headers passed on to the forward target: the signature inputs and the compatibility headers. */
const FORWARDED = /^(content-type|webhook-id|webhook-timestamp|webhook-signature|idempotency-key|user-agent|svc-.*)$/i;

function readBody(req: IncomingMessage): Promise<Uint8Array | null> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    req.on("data", (chunk: Buffer) => {
      total += chunk.length;
      if (total > MAX_BODY) {
        resolveBody(null);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolveBody(new Uint8Array(Buffer.concat(chunks))));
    req.on("error", reject);
  });
}

function headerMap(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  return out;
}

async function forward(
  target: string,
  headers: Record<string, string>,
  body: Uint8Array,
): Promise<{ status: number | null; ms: number; error?: string }> {
  const started = Date.now();
  const pass: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (FORWARDED.test(k)) pass[k] = v;
  try {
    const res = await fetch(target, {
      method: "POST",
      headers: pass,
      body,
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
      redirect: "manual",
    });
    await res.arrayBuffer().catch(() => undefined);
    return { status: res.status, ms: Date.now() - started };
  } catch (e) {
    return { status: null, ms: Date.now() - started, error: (e as Error).cause ? String((e as Error).cause) : (e as Error).message };
  }
}

async function allEvents(svc: SvcClient, signal: AbortSignal): Promise<string[]> {
  const catalog = await unwrap(await svc.api.GET("/v1/webhook-endpoints/event-catalog", { signal }));
  return catalog.events.map((e) => e.type);
}

/**
 * A delivery checked with @svc/client (the Standard Webhooks library: HMAC-SHA256 over id.timestamp.body,
 * constant-time, 300 s tolerance, any of the rotated signatures).
 */
function checkDelivery(
  secret: string,
  headers: Record<string, string>,
  body: Uint8Array,
): { ok: true; id: string; type: string } | { ok: false; reason: string } {
  try {
    const event = verifyWebhook(body, headers, secret);
    return { ok: true, id: headers["webhook-id"]!, type: event.type };
  } catch (e) {
    return { ok: false, reason: e instanceof SvcWebhookError ? e.message : "unreadable delivery" };
  }
}

const listen: Command = {
  path: ["webhooks", "listen"],
  summary: "Receive this tenant's webhooks locally: verify, print and forward each delivery",
  flags: [
    {
      name: "forward",
      short: "f",
      type: "string",
      placeholder: "URL",
      description: "Forward each verified delivery (same body and signature headers) to this URL, e.g. http://localhost:3000/webhooks.",
    },
    {
      name: "events",
      short: "e",
      type: "string",
      placeholder: "TYPES",
      repeatable: true,
      description: "Event types to subscribe (comma list; default: every type in the event catalog).",
    },
    { name: "port", short: "p", type: "string", placeholder: "PORT", description: "Local port to listen on (default: any free port)." },
    {
      name: "public-url",
      type: "string",
      placeholder: "URL",
      description: "The https URL the service should call when it cannot reach this machine's loopback (e.g. a tunnel to --port).",
    },
    {
      name: "save",
      type: "string",
      placeholder: "DIR",
      description: "Also write each delivery (headers and raw body) to DIR/<webhook-id>.json, for svc webhooks verify.",
    },
    { name: "max-events", type: "string", placeholder: "N", description: "Stop after N verified deliveries." },
  ],
  positionals: [],
  description: `Like 'stripe listen': starts an HTTP receiver on 127.0.0.1, registers a webhook endpoint pointing at it (for the chosen events), checks every delivery's Standard Webhooks signature with that endpoint's secret (timestamp within 300 s, constant-time comparison), prints it, and forwards it to --forward with its signature headers, so your handler can verify it with the secret printed at start. The service is answered with the forward target's status (502 if unreachable; 200 without --forward), so its retries behave as they would against your handler. A delivery whose signature does not check is answered 401 and not forwarded. On Ctrl-C (or after --max-events) the endpoint is deleted; Ctrl-C then exits 130 (interrupted), --max-events 0. A Ctrl-C before the endpoint is ready deletes it without printing it as ready.
A local service admits a loopback receiver only in development with SVC_WEBHOOKS_ALLOW_LOOPBACK=1: start it with 'SVC_WEBHOOKS_ALLOW_LOOPBACK=1 npm start'. A deployed service can only reach an https URL: pass --public-url.
--json prints one JSON object per line: {"type":"ready",...} then {"type":"delivery",...} per delivery.`,
  examples: [
    "svc webhooks listen --forward http://localhost:3000/webhooks",
    "svc webhooks listen --events asset.signed --save deliveries/",
  ],
  async run(ctx) {
    const forwardTo = stringFlag(ctx.parsed, "forward");
    if (forwardTo && !/^https?:\/\//i.test(forwardTo)) throw new UsageError("--forward must be an http(s) URL");
    const port = intFlag(ctx.parsed, "port", 0, 65535, 0)!;
    const maxEvents = intFlag(ctx.parsed, "max-events", 1, 1_000_000);
    const saveDir = stringFlag(ctx.parsed, "save") ? resolve(ctx.io.cwd, stringFlag(ctx.parsed, "save")!) : null;
    if (saveDir) mkdirSync(saveDir, { recursive: true });
    const svc = clientOf(ctx);
    const events = listFlag(ctx.parsed, "events") ?? (await allEvents(svc, ctx.io.signal));
    if (events.length === 0) throw new UsageError("no event types to subscribe");

    let secret = "";
    let verified = 0;
    const seen = new Set<string>();
    const done = new AbortController();
    const stop = () => done.abort();
    // A Ctrl-C that came before this point would never fire the listener: it is taken as given.
    if (ctx.io.signal.aborted) stop();
    else ctx.io.signal.addEventListener("abort", stop, { once: true });
    const log = (obj: Record<string, unknown>, line: string) => (ctx.json ? ctx.out(`${JSON.stringify(obj)}\n`) : ctx.out(`${line}\n`));

    const handle = async (req: IncomingMessage, res: ServerResponse) => {
      if (req.method !== "POST") return void res.writeHead(405, { allow: "POST" }).end();
      const body = await readBody(req);
      if (body === null) return void res.writeHead(413).end();
      const headers = headerMap(req);
      const check = secret ? checkDelivery(secret, headers, body) : ({ ok: false, reason: "endpoint not ready" } as const);
      const id = headers["webhook-id"] ?? "-";
      const at = new Date().toISOString();
      if (!check.ok) {
        res.writeHead(401, { "content-type": "text/plain" }).end("signature rejected\n");
        log(
          { type: "rejected", at, webhook_id: id, reason: check.reason },
          `${at} ${ctx.paint("red", "rejected")} ${safe(id)}: ${safe(check.reason)}`,
        );
        return;
      }
      const duplicate = seen.has(check.id);
      if (!duplicate) {
        seen.add(check.id);
        if (seen.size > SEEN_LIMIT) seen.delete(seen.values().next().value!);
      }
      if (saveDir)
        writeFileSync(
          join(saveDir, `${check.id.replace(/[^A-Za-z0-9_.-]/g, "_")}.json`),
          json({ headers, body_base64: Buffer.from(body).toString("base64") }),
        );
      const fwd = forwardTo ? await forward(forwardTo, headers, body) : null;
      const status = fwd ? (fwd.status ?? 502) : 200;
      res.writeHead(status, { "content-type": "text/plain" }).end(status < 300 ? "ok\n" : "forward failed\n");
      const fwdText = fwd ? ` → ${fwd.status ?? ctx.paint("red", `unreachable (${safe(fwd.error)})`)} ${fwd.ms} ms` : "";
      log(
        {
          type: "delivery",
          at,
          webhook_id: check.id,
          event_type: check.type,
          verified: true,
          duplicate,
          forward: fwd ? { status: fwd.status, ms: fwd.ms, ...(fwd.error ? { error: fwd.error } : {}) } : null,
          body: new TextDecoder().decode(body),
        },
        `${at} ${ctx.paint("bold", safe(check.type))} ${safe(check.id)} ${ctx.paint("green", "signature verified")}${duplicate ? ctx.paint("yellow", " (duplicate)") : ""}${fwdText}`,
      );
      if (!duplicate && maxEvents !== undefined && ++verified >= maxEvents) stop();
    };

    const server = createServer((req, res) => {
      handle(req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
    });
    await new Promise<void>((ok, fail) => {
      server.once("error", (e) => fail(new CliError(EXIT.failure, `cannot listen on 127.0.0.1:${port}: ${e.message}`)));
      server.listen(port, "127.0.0.1", () => ok());
    });
    const bound = (server.address() as AddressInfo).port;
    const url = stringFlag(ctx.parsed, "public-url") ?? `http://127.0.0.1:${bound}/`;
    let endpointId: string | null = null;
    try {
      if (ctx.io.signal.aborted) throw new CliError(EXIT.interrupted, "interrupted");
      // Not aborted by Ctrl-C: a create cut off in flight could still land, leaving an endpoint whose id this
      // command never learnt. It completes, and is deleted below like any other.
      const issued = await svc.api
        .POST("/v1/webhook-endpoints", {
          body: { url, event_catalog_version: "svc.customer-events.v1", events: events as never },
          params: { header: { "idempotency-key": crypto.randomUUID() } },
        })
        .then(unwrap)
        .catch((e) => {
          if (e instanceof SvcError && e.status === 422 && !stringFlag(ctx.parsed, "public-url"))
            throw new CliError(EXIT.rejected, e.message, [
              ...(e.request_id ? [`request id: ${e.request_id}`] : []),
              "a local service admits loopback receivers only with SVC_WEBHOOKS_ALLOW_LOOPBACK=1 (development): SVC_WEBHOOKS_ALLOW_LOOPBACK=1 npm start",
              "a deployed service needs an https URL that reaches this machine: --public-url",
            ]);
          throw e;
        });
      endpointId = issued.endpoint.endpoint_id;
      // Interrupted while registering: never announce an endpoint about to be deleted (finally deletes it).
      if (ctx.io.signal.aborted) return EXIT.interrupted;
      secret = issued.secret;
      const forwardNote = forwardTo ? `forwarding to ${forwardTo}` : "not forwarding (no --forward)";
      if (ctx.json)
        ctx.out(`${JSON.stringify({ type: "ready", endpoint_id: endpointId, url, events, secret, forward: forwardTo ?? null })}\n`);
      else {
        ctx.err(`${ctx.paintErr("green", "Ready.")} Endpoint ${safe(endpointId)} → ${url} for ${safe(events.join(", "))}; ${forwardNote}.`);
        ctx.err(`Signing secret for your handler (valid until this command ends): ${safe(secret)}`);
        ctx.err(ctx.paintErr("dim", "Ctrl-C to stop (the endpoint is deleted)."));
      }
      if (!done.signal.aborted) await new Promise((ok) => done.signal.addEventListener("abort", ok, { once: true }));
    } finally {
      ctx.io.signal.removeEventListener("abort", stop);
      server.closeAllConnections?.();
      await new Promise((ok) => server.close(() => ok(undefined)));
      if (endpointId) {
        try {
          const id = endpointId;
          await unwrap(
            await svc.api.DELETE("/v1/webhook-endpoints/{endpoint_id}", {
              params: { path: { endpoint_id: id }, header: { "idempotency-key": crypto.randomUUID() } },
            }),
          );
          if (!ctx.json) ctx.err(`deleted endpoint ${safe(endpointId)}`);
        } catch (e) {
          ctx.err(
            `${ctx.paintErr("yellow", "warning:")} could not delete endpoint ${safe(endpointId)}: ${safe((e as Error).message)}; delete it with DELETE /v1/webhook-endpoints/${safe(endpointId)}`,
          );
        }
      }
    }
    // Ctrl-C is how a listener usually stops, and it is still an interrupt (130); --max-events ends it with 0.
    return ctx.io.signal.aborted ? EXIT.interrupted : EXIT.ok;
  },
};

/**
 * The signature alone, for a saved delivery older than the 300 s a live receiver allows: the Standard Webhooks
 * library signs id.timestamp.body with the secret, and each v1 value of the header is compared in constant time.
 */
function signatureOnly(secret: string, headers: Record<string, string>, body: Uint8Array): ReturnType<typeof checkDelivery> {
  const id = headers["webhook-id"];
  const ts = headers["webhook-timestamp"];
  const given = headers["webhook-signature"];
  if (!id || !ts || !given) return { ok: false, reason: "Missing required headers" };
  if (!/^\d{1,12}$/.test(ts)) return { ok: false, reason: "Invalid Signature Headers" };
  let text: string;
  let expected: Buffer;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(body);
    expected = Buffer.from(new Webhook(secret).sign(id, new Date(Number(ts) * 1000), text).split(",")[1]!, "base64");
  } catch {
    return { ok: false, reason: "unreadable body or secret" };
  }
  const match = given.split(" ").some((part) => {
    const [version, value] = part.split(",", 2);
    const got = Buffer.from(value ?? "", "base64");
    return version === "v1" && got.length === expected.length && timingSafeEqual(got, expected);
  });
  if (!match) return { ok: false, reason: "No matching signature found" };
  let type = "event";
  try {
    type = String(JSON.parse(text).type ?? "event");
  } catch {
    return { ok: false, reason: "The body is not JSON." };
  }
  return { ok: true, id, type };
}

/** Header lines (`name: value`) or a JSON object of headers. */
function parseHeaders(text: string): Record<string, string> {
  const trimmed = text.trim();
  const out: Record<string, string> = {};
  if (trimmed.startsWith("{")) {
    for (const [k, v] of Object.entries(JSON.parse(trimmed) as Record<string, unknown>))
      if (typeof v === "string") out[k.toLowerCase()] = v;
    return out;
  }
  for (const line of trimmed.split(/\r?\n/)) {
    const i = line.indexOf(":");
    if (i > 0) out[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return out;
}

const verify: Command = {
  path: ["webhooks", "verify"],
  summary: "Check a saved delivery's Standard Webhooks signature",
  flags: [
    { name: "headers", type: "string", placeholder: "FILE", description: "The delivery's headers: `name: value` lines or a JSON object." },
    { name: "body", type: "string", placeholder: "FILE", description: "The raw body, byte for byte as received." },
    {
      name: "secret-file",
      type: "string",
      placeholder: "FILE",
      description: "A file holding the endpoint secret (default: the SVC_WEBHOOK_SECRET environment variable).",
    },
    {
      name: "tolerance",
      type: "string",
      placeholder: "SECONDS",
      description: "Accept timestamps this far from now (default 300, as a receiver must).",
    },
    { name: "ignore-timestamp", type: "boolean", description: "Check the signature only (for old saved deliveries)." },
  ],
  positionals: [
    { name: "SAVED", required: false, description: "A delivery saved by 'svc webhooks listen --save' (instead of --headers and --body)." },
  ],
  description:
    "Exit 0 when one v1 signature matches (HMAC-SHA256 over id.timestamp.body with the base64 key after whsec_, constant-time), 8 when none does or the timestamp is out of tolerance. The secret is read from SVC_WEBHOOK_SECRET or --secret-file, never from the command line (where other users could see it).",
  examples: [
    "SVC_WEBHOOK_SECRET=whsec_… svc webhooks verify deliveries/whevt_abcdefghij234567.json --ignore-timestamp",
    "svc webhooks verify --headers h.txt --body body.json --secret-file secret.txt",
  ],
  async run(ctx) {
    // Read first so a malformed value is a usage error whatever else is wrong; absent, the library's 300 s apply.
    const tolerance = intFlag(ctx.parsed, "tolerance", 0, 10 * 365 * 86_400);
    const secretFile = stringFlag(ctx.parsed, "secret-file");
    const secret = (
      secretFile ? readFileSync(existingFile(resolve(ctx.io.cwd, secretFile)).path, "utf8") : (ctx.io.env.SVC_WEBHOOK_SECRET ?? "")
    ).trim();
    if (!secret) throw new UsageError("no secret: set SVC_WEBHOOK_SECRET or pass --secret-file");
    if (!/^whsec_[A-Za-z0-9+/=]+$/.test(secret)) throw new UsageError("the secret must look like whsec_<base64>");
    let headers: Record<string, string>;
    let body: Uint8Array;
    const saved = ctx.parsed.positionals[0];
    if (saved) {
      let doc: { headers?: Record<string, string>; body_base64?: string };
      try {
        doc = JSON.parse(readFileSync(existingFile(resolve(ctx.io.cwd, saved)).path, "utf8"));
      } catch (e) {
        if (e instanceof CliError) throw e;
        throw new UsageError(`${saved} is not a delivery saved by svc webhooks listen --save`);
      }
      if (typeof doc.body_base64 !== "string" || typeof doc.headers !== "object" || doc.headers === null)
        throw new UsageError(`${saved} has no headers and body_base64`);
      headers = parseHeaders(JSON.stringify(doc.headers));
      body = new Uint8Array(Buffer.from(doc.body_base64, "base64"));
    } else {
      const h = stringFlag(ctx.parsed, "headers");
      const b = stringFlag(ctx.parsed, "body");
      if (!h || !b) throw new UsageError("give a saved delivery, or both --headers and --body");
      headers = parseHeaders(readFileSync(existingFile(resolve(ctx.io.cwd, h)).path, "utf8"));
      body = new Uint8Array(readFileSync(existingFile(resolve(ctx.io.cwd, b)).path));
    }
    const timestamp = Number(headers["webhook-timestamp"]);
    let check: ReturnType<typeof checkDelivery>;
    if (ctx.parsed.flags["ignore-timestamp"]) check = signatureOnly(secret, headers, body);
    else if (tolerance === undefined) check = checkDelivery(secret, headers, body);
    else {
      check = signatureOnly(secret, headers, body);
      if (check.ok && !(Math.abs(Date.now() / 1000 - timestamp) <= tolerance))
        check = { ok: false, reason: `The timestamp is more than ${tolerance} s from now.` };
    }
    if (ctx.json)
      jsonOut(ctx, check.ok ? { valid: true, webhook_id: check.id, type: check.type, timestamp } : { valid: false, reason: check.reason });
    else if (check.ok)
      ctx.out(
        `${ctx.paint("green", "valid")} ${safe(check.type)} ${safe(check.id)} (signed ${new Date(timestamp * 1000).toISOString()})\n`,
      );
    else ctx.out(`${ctx.paint("red", "invalid")}: ${safe(check.reason)}\n`);
    return check.ok ? EXIT.ok : EXIT.integrity;
  },
};

export const webhooksCommands: Command[] = [listen, verify];
