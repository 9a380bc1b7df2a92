/**
 * The `svc` command line against the real Worker bundle (Miniflare, listening on a real local port): every command
 * runs as its own process, exactly as a user runs `npx svc …`, with SVC_API_KEY and SVC_API_BASE_URL pointing at
 * the Worker. Signing, verification, listing, key management and `svc webhooks listen` (a real delivery made by the
 * service's queue consumer to the CLI's receiver, verified there and forwarded to a second local receiver, where the
 * unmodified `standardwebhooks` library checks it again).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURES, type SignedService, sha256Hex, startSignedService } from "../../support/svc-client";

const ROOT = join(import.meta.dirname, "..", "..", "..");
/** The bin as npm links it (node_modules/.bin/svc → packages/cli/bin/svc.mjs), run by its shebang. */
const BIN = join(ROOT, "node_modules", ".bin", "svc");
const PATH = `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH ?? ""}`;

let svc: SignedService;
let baseUrl: string;
let scratch: string;

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment of a CLI process: only what a user would set (no inherited SVC_* variables). */
function cliEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("SVC_")) env[k] = v;
  return { ...env, PATH, NO_COLOR: "1", SVC_API_BASE_URL: baseUrl, SVC_API_KEY: svc.key, ...extra };
}

function start(args: string[], env = cliEnv()): { child: ChildProcess; done: Promise<Ran>; stdout: () => string; stderr: () => string } {
  const child = spawn(BIN, args, { cwd: scratch, env: env as unknown as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => (stdout += d));
  child.stderr!.on("data", (d) => (stderr += d));
  const done = new Promise<Ran>((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
  return { child, done, stdout: () => stdout, stderr: () => stderr };
}

async function run(args: string[], env = cliEnv(), timeoutMs = 90_000): Promise<Ran> {
  const p = start(args, env);
  const timer = setTimeout(() => p.child.kill("SIGKILL"), timeoutMs);
  const r = await p.done;
  clearTimeout(timer);
  return r;
}

async function until<T>(what: string, probe: () => T | undefined | null | false, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  svc = await startSignedService({ bindings: { SVC_WEBHOOKS_ALLOW_LOOPBACK: "1" } });
  baseUrl = new URL(String(await svc.worker.mf.ready)).origin;
  scratch = mkdtempSync(join(tmpdir(), "svc-cli-e2e-"));
}, 180_000);

afterAll(async () => {
  await svc?.dispose();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe("#21 svc sign and svc verify end to end", () => {
  it("#21 signs a JPEG (upload, job, download with its hash checked) and verifies the signed file", async () => {
    const input = join(FIXTURES, "sample.jpg");
    const out = join(scratch, "signed");
    const signed = await run(["sign", input, "--recipe", "rcp_system_sign_only", "--out", out, "--json"]);
    expect(signed.code, signed.stderr).toBe(0);
    const result = JSON.parse(signed.stdout);
    expect(result.job.state).toBe("completed");
    expect(result.job.result.receipt_id).toMatch(/^rct_/);
    const file = result.file;
    expect(file.path).toBe(join(out, `${result.job.asset_id}.jpg`));
    const bytes = new Uint8Array(readFileSync(file.path));
    // The file on disk is the published file: its hash is the one the service published, not the input's.
    expect(sha256Hex(bytes)).toBe(file.sha256);
    expect(bytes.length).toBe(file.byte_length);
    expect(file.sha256).not.toBe(sha256Hex(new Uint8Array(readFileSync(input))));
    // No partial files left behind.
    expect(readdirSync(out)).toEqual([`${result.job.asset_id}.jpg`]);

    const verified = await run(["verify", file.path, "--json"]);
    expect(verified.code, verified.stderr).toBe(0);
    const verdict = JSON.parse(verified.stdout);
    expect(verdict.status).toBe("verified_manifest");
    expect(verdict.signals.c2pa_manifest_present).toBe(true);
    expect(verdict.signals.c2pa_signature_valid).toBe(true);

    // The plain-language verdict: headline, explanation, what it proves.
    const plain = await run(["verify", file.path]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toContain("Verified Content Credentials");
    expect(plain.stdout).toContain(verdict.user_explanation);
    expect(plain.stdout).toContain("What this shows:");
    expect(plain.stdout).not.toContain("\u001b["); // NO_COLOR and not a terminal: no escape codes

    // The same file with a flipped byte far from the manifest: still exit 0, the verdict says tampered.
    const tampered = bytes.slice();
    tampered[tampered.length - 10] = tampered[tampered.length - 10]! ^ 1;
    writeFileSync(join(scratch, "tampered.jpg"), tampered);
    const bad = await run(["verify", join(scratch, "tampered.jpg"), "--json"]);
    expect(bad.code, bad.stderr).toBe(0);
    expect(JSON.parse(bad.stdout).status).not.toMatch(/^verified/);

    // Downloading again by asset id gives the same bytes, hash-checked again.
    const again = await run(["assets", "download", result.job.asset_id, "--out", join(scratch, "again"), "--json"]);
    expect(again.code, again.stderr).toBe(0);
    expect(sha256Hex(new Uint8Array(readFileSync(JSON.parse(again.stdout).path)))).toBe(file.sha256);

    // The job and asset are visible through the list and get commands.
    const jobs = await run(["jobs", "list", "--json"]);
    expect(JSON.parse(jobs.stdout).items.map((j: any) => j.job_id)).toContain(result.job.job_id);
    const job = await run(["jobs", "get", result.job.job_id]);
    expect(job.code).toBe(0);
    expect(job.stdout).toContain("completed");
    const watch = await run(["jobs", "watch", result.job.job_id]);
    expect(watch.code).toBe(0);
    const assets = await run(["assets", "list", "--json"]);
    expect(JSON.parse(assets.stdout).items.map((a: any) => a.asset_id)).toContain(result.job.asset_id);
    const asset = await run(["assets", "get", result.job.asset_id, "--json"]);
    expect(JSON.parse(asset.stdout).publication.job_id).toBe(result.job.job_id);
  }, 180_000);

  it("#21 express mode signs in one request and the download still checks", async () => {
    const out = join(scratch, "express");
    const r = await run([
      "sign",
      join(FIXTURES, "sample-1mp.jpg"),
      "--recipe",
      "rcp_system_express_watermark_then_sign",
      "--express",
      "--out",
      out,
      "--json",
    ]);
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result.job.state).toBe("completed");
    expect(sha256Hex(new Uint8Array(readFileSync(result.file.path)))).toBe(result.file.sha256);
    const v = await run(["verify", result.file.path, "--json"]);
    expect(JSON.parse(v.stdout).status).toMatch(/^verified_manifest/);
  }, 180_000);
});

describe("#21 svc exit codes by error class", () => {
  it("#21 a bad key exits 3 and the key is never printed", async () => {
    const badKey = `svc_live_${"a".repeat(52)}`;
    const r = await run(["jobs", "list"], cliEnv({ SVC_API_KEY: badKey }));
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/error:/);
    for (const text of [r.stdout, r.stderr]) {
      expect(text).not.toContain(badKey);
      expect(text).not.toContain(svc.key);
    }
    // --json errors are machine-readable too.
    const j = await run(["jobs", "list", "--json"], cliEnv({ SVC_API_KEY: badKey }));
    expect(j.code).toBe(3);
    expect(JSON.parse(j.stdout).error).toMatchObject({ exit_code: 3, status: 401 });
  }, 60_000);

  it("#21 no key exits 3; a missing file exits 4; an unknown id 4; usage errors 2; an unreachable service 7", async () => {
    const noKey = await run(["jobs", "list"], cliEnv({ SVC_API_KEY: "" }));
    expect(noKey.code).toBe(3);
    const missing = await run(["sign", join(scratch, "does-not-exist.jpg"), "--recipe", "rcp_system_sign_only"]);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain("no such file");
    const missingVerify = await run(["verify", join(scratch, "nope.png")]);
    expect(missingVerify.code).toBe(4);
    const unknownJob = await run(["jobs", "get", "job_aaaaaaaaaaaaaaaa"]);
    expect(unknownJob.code).toBe(4);
    expect(unknownJob.stderr).toMatch(/request id: req_/);
    expect((await run(["jobs", "get", "not-an-id"])).code).toBe(2);
    expect((await run(["sign"])).code).toBe(2);
    expect((await run(["sign", "x.jpg", "--bogus"])).code).toBe(2);
    expect((await run(["frobnicate"])).code).toBe(2);
    // A port nothing listens on (the Worker's own port + nothing): connection refused.
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const unreachable = await run(["jobs", "list"], cliEnv({ SVC_API_BASE_URL: `http://127.0.0.1:${port}` }));
    expect(unreachable.code).toBe(7);
    // A request the service refuses as it stands (an unknown recipe) is 5, with the service's message.
    const unknownRecipe = await run(["sign", join(FIXTURES, "sample.jpg"), "--recipe", "rcp_no_such_recipe"]);
    expect(unknownRecipe.code).toBe(5);
    expect(unknownRecipe.stderr).toContain("rcp_no_such_recipe");
    // Garbage bytes under an image name: a clean verdict (no provenance), not a crash.
    writeFileSync(join(scratch, "noise.jpg"), new Uint8Array(4096).fill(7));
    const noise = await run(["verify", join(scratch, "noise.jpg"), "--json"]);
    expect([0, 5]).toContain(noise.code);
    if (noise.code === 0) expect(JSON.parse(noise.stdout).status).toBe("no_provenance_found");
  }, 120_000);

  it("#21 a recipe sign would refuse fails before the upload: same message and exit 5, and no asset is created", async () => {
    const assets = async () => {
      const page = await svc.call("GET", "/v1/assets?limit=1");
      expect(page.status).toBe(200);
      return page.body.total_count as number;
    };
    const before = await assets();
    // Unknown: the service's own words, as the sign request would have answered them.
    const unknown = await run(["sign", join(FIXTURES, "sample.jpg"), "--recipe", "rcp_nope"]);
    expect(unknown.code, unknown.stderr).toBe(5);
    expect(unknown.stderr).toContain("No recipe rcp_nope exists.");
    expect(unknown.stderr).not.toContain("uploaded");
    expect(await assets()).toBe(before);
    const unknownJson = await run(["sign", join(FIXTURES, "sample.jpg"), "--recipe", "rcp_nope", "--json"]);
    expect(unknownJson.code, unknownJson.stderr).toBe(5);
    expect(JSON.parse(unknownJson.stdout).error).toMatchObject({ exit_code: 5, code: "svc.sign.recipe_unknown" });
    expect(await assets()).toBe(before);
    // Malformed: refused by the recipe read as it would have been by the sign request (400, exit 5).
    const malformed = await run(["sign", join(FIXTURES, "sample.jpg"), "--recipe", "RCP-NOPE"]);
    expect(malformed.code, malformed.stderr).toBe(5);
    expect(await assets()).toBe(before);
    // A recipe that exists but does not take this file's media type (a JPEG is not a structural format).
    const mismatch = await run(["sign", join(FIXTURES, "sample.jpg"), "--recipe", "rcp_system_structural_sign_only"]);
    expect(mismatch.code, mismatch.stderr).toBe(5);
    expect(mismatch.stderr).toContain("rcp_system_structural_sign_only");
    expect(mismatch.stderr).toMatch(/does not accept image\/jpeg|is not available/);
    expect(await assets()).toBe(before);
    // An --out that is a file (not a directory) is a usage error found before anything is sent.
    writeFileSync(join(scratch, "not-a-dir"), "x");
    const badOut = await run([
      "sign",
      join(FIXTURES, "sample.jpg"),
      "--recipe",
      "rcp_system_sign_only",
      "--out",
      join(scratch, "not-a-dir"),
    ]);
    expect(badOut.code, badOut.stderr).toBe(2);
    expect(await assets()).toBe(before);
  }, 120_000);

  it("#21 --help on every command exits 0 and names its flags", async () => {
    const top = await run(["--help"]);
    expect(top.code).toBe(0);
    const commands = [...top.stdout.matchAll(/^ {2}([a-z]+(?: [a-z]+)?) {2,}/gm)].map((m) => m[1]!);
    expect(commands).toEqual(
      expect.arrayContaining([
        "sign",
        "verify",
        "jobs list",
        "jobs get",
        "jobs watch",
        "assets list",
        "assets download",
        "keys create",
        "keys revoke",
        "webhooks listen",
        "webhooks verify",
      ]),
    );
    for (const command of commands) {
      const r = await run([...command.split(" "), "--help"]);
      expect(r.code, command).toBe(0);
      expect(r.stdout, command).toContain(`Usage: svc ${command}`);
      expect(r.stdout, command).toContain("--json");
    }
  }, 120_000);
});

describe("#21 svc keys", () => {
  it("#21 creates a key that works, revokes it, and the revoked key exits 3", async () => {
    const created = await run(["keys", "create", "--name", "cli-e2e", "--scope", "jobs:read,assets:read"]);
    expect(created.code, created.stderr).toBe(0);
    const secret = created.stdout.trim();
    expect(secret).toMatch(/^svc_live_[a-z2-7]{52}$/);
    expect(created.stderr).not.toContain(secret);
    const withNew = await run(["jobs", "list"], cliEnv({ SVC_API_KEY: secret }));
    expect(withNew.code, withNew.stderr).toBe(0);
    // It holds only jobs:read and assets:read: signing is outside its scopes (403 → 3).
    const outOfScope = await run(
      ["sign", join(FIXTURES, "sample.jpg"), "--recipe", "rcp_system_sign_only"],
      cliEnv({ SVC_API_KEY: secret }),
    );
    expect(outOfScope.code).toBe(3);
    const list = await run(["keys", "list", "--json"]);
    const key = JSON.parse(list.stdout).items.find((k: any) => k.name === "cli-e2e");
    expect(key.status).toBe("active");
    expect(list.stdout).not.toContain(secret);
    const revoked = await run(["keys", "revoke", key.api_key_id]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain("revoked");
    // Revocation is immediate on this instance (the key cache bound is 15 s across instances).
    const refused = await run(["jobs", "list"], cliEnv({ SVC_API_KEY: secret }));
    expect(refused.code).toBe(3);
  }, 120_000);
});

describe("#21 svc webhooks listen", () => {
  let target: Server;
  const forwarded: { headers: IncomingMessage["headers"]; body: string }[] = [];

  beforeAll(async () => {
    target = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c) => chunks.push(c));
      req.on("end", () => {
        forwarded.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => target.listen(0, "127.0.0.1", () => r()));
  });
  afterAll(() => new Promise((r) => target.close(r)));

  it("#21 receives a real asset.signed delivery, verifies it, forwards it, and deletes its endpoint on exit", async () => {
    const targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/hook`;
    const saveDir = join(scratch, "deliveries");
    const listen = start([
      "webhooks",
      "listen",
      "--forward",
      targetUrl,
      "--events",
      "asset.signed",
      "--max-events",
      "1",
      "--save",
      saveDir,
      "--json",
    ]);
    const ready = await until("the listener's ready line", () => {
      const line = listen
        .stdout()
        .split("\n")
        .find((l) => l.includes('"type":"ready"'));
      return line ? JSON.parse(line) : null;
    });
    expect(ready.endpoint_id).toMatch(/^whe_/);
    expect(ready.secret).toMatch(/^whsec_/);
    expect(ready.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);

    // A real event: sign a file (with the CLI); the service's webhook queue consumer delivers asset.signed.
    const signed = await run([
      "sign",
      join(FIXTURES, "sample.png"),
      "--recipe",
      "rcp_system_sign_only",
      "--out",
      join(scratch, "hooked"),
      "--json",
    ]);
    expect(signed.code, signed.stderr).toBe(0);
    const assetId = JSON.parse(signed.stdout).job.asset_id;

    const timer = setTimeout(() => listen.child.kill("SIGKILL"), 90_000);
    const ended = await listen.done;
    clearTimeout(timer);
    expect(ended.code, ended.stderr).toBe(0);
    const delivery = ended.stdout
      .split("\n")
      .filter((l) => l.includes('"type":"delivery"'))
      .map((l) => JSON.parse(l))[0];
    expect(delivery).toMatchObject({ verified: true, duplicate: false, forward: { status: 204 } });
    expect(delivery.body).toContain(assetId);

    // The forward target got the same body and signature headers: the library verifies them with the printed secret.
    expect(forwarded).toHaveLength(1);
    const got = forwarded[0]!;
    expect(got.body).toBe(delivery.body);
    const headers = {
      "webhook-id": String(got.headers["webhook-id"]),
      "webhook-timestamp": String(got.headers["webhook-timestamp"]),
      "webhook-signature": String(got.headers["webhook-signature"]),
    };
    expect(() => new Webhook(ready.secret).verify(got.body, headers)).not.toThrow();
    expect(() => new Webhook(`whsec_${Buffer.from("another secret!!").toString("base64")}`).verify(got.body, headers)).toThrow();

    // The saved delivery checks with `svc webhooks verify`; a changed byte does not (exit 8).
    const savedFile = join(saveDir, `${headers["webhook-id"]}.json`);
    expect(existsSync(savedFile)).toBe(true);
    const ok = await run(["webhooks", "verify", savedFile], cliEnv({ SVC_WEBHOOK_SECRET: ready.secret }));
    expect(ok.code, ok.stderr + ok.stdout).toBe(0);
    const saved = JSON.parse(readFileSync(savedFile, "utf8"));
    const body = Buffer.from(saved.body_base64, "base64");
    body[body.length - 2] = body[body.length - 2]! ^ 1;
    writeFileSync(join(scratch, "altered.json"), JSON.stringify({ ...saved, body_base64: body.toString("base64") }));
    const altered = await run(["webhooks", "verify", join(scratch, "altered.json")], cliEnv({ SVC_WEBHOOK_SECRET: ready.secret }));
    expect(altered.code).toBe(8);

    // On exit the endpoint was deleted: it stays readable to its tenant, and refuses mutations.
    const endpoint = await svc.call("GET", `/v1/webhook-endpoints/${ready.endpoint_id}`);
    expect(endpoint.status).toBe(200);
    expect(JSON.stringify(endpoint.body)).toMatch(/deleted/);
  }, 240_000);

  it("#21 answers a forged delivery 401 without forwarding it, and deletes its endpoint on SIGINT", async () => {
    const before = forwarded.length;
    const listen = start([
      "webhooks",
      "listen",
      "--forward",
      `http://127.0.0.1:${(target.address() as AddressInfo).port}/`,
      "--events",
      "asset.signed",
      "--json",
    ]);
    const ready = await until("ready", () => {
      const line = listen
        .stdout()
        .split("\n")
        .find((l) => l.includes('"type":"ready"'));
      return line ? JSON.parse(line) : null;
    });
    const now = Math.floor(Date.now() / 1000);
    const forged = await fetch(ready.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "webhook-id": "whevt_forged",
        "webhook-timestamp": String(now),
        "webhook-signature": `v1,${createHash("sha256").update("x").digest("base64")}`,
      },
      body: JSON.stringify({ type: "asset.signed" }),
    });
    expect(forged.status).toBe(401);
    // Signed with the right secret but stale (older than 300 s): refused too.
    const wh = new Webhook(ready.secret);
    const stale = new Date((now - 600) * 1000);
    const payload = JSON.stringify({ type: "asset.signed", data: {} });
    const staleSig = wh.sign("whevt_stale", stale, payload);
    const staleRes = await fetch(ready.url, {
      method: "POST",
      headers: { "webhook-id": "whevt_stale", "webhook-timestamp": String(now - 600), "webhook-signature": staleSig },
      body: payload,
    });
    expect(staleRes.status).toBe(401);
    // Oversized bodies are refused before being read whole.
    const huge = await fetch(ready.url, { method: "POST", body: new Uint8Array(2 * 1024 * 1024) }).catch(() => null);
    expect(huge === null || huge.status === 413).toBe(true);
    expect(forwarded.length).toBe(before);

    listen.child.kill("SIGINT");
    const ended = await listen.done;
    // Interrupted: 130, as the exit-code list says, once the endpoint is deleted (checked below).
    expect(ended.code).toBe(130);
    expect(ended.stdout).toContain('"type":"rejected"');
    const endpoint = await svc.call("GET", `/v1/webhook-endpoints/${ready.endpoint_id}`);
    expect(JSON.stringify(endpoint.body)).toMatch(/deleted/);
  }, 120_000);
});
