import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  newApiKeySecret,
  newId,
  ALL_SCOPES as SCRIPT_SCOPES,
  hashApiKeySecret as scriptHash,
  servedBaseUrl,
} from "../../../scripts/lib/dev.mjs";
import { API_KEY_PATTERN, hashApiKeySecret } from "../../../src/platform/auth/keys";
import { ALL_SCOPES } from "../../../src/platform/auth/scopes";
import { idPattern } from "../../../src/platform/ids";
import { referenceVerdict } from "../../support/signer-conformance";

const ROOT = join(import.meta.dirname, "..", "..", "..");

describe("dev scripts agree with the Worker", () => {
  it("hash keys, mint keys and ids, and grant scopes exactly as the service does", async () => {
    const secret = newApiKeySecret();
    expect(secret).toMatch(API_KEY_PATTERN);
    expect(scriptHash("pepper", secret)).toBe(await hashApiKeySecret("pepper", secret));
    expect(newId("tenant")).toMatch(idPattern("tenant"));
    expect(newId("apiKey")).toMatch(idPattern("apiKey"));
    expect(SCRIPT_SCOPES).toEqual(ALL_SCOPES);
  });
});

describe("dev:key and dev:tenant write the address the service runs on", () => {
  it("without PORT, the loopback address the last npm start wrote (PORT=8821 npm start, then npm run dev:key)", () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-devenv-"));
    try {
      const file = join(dir, "dev.env");
      writeFileSync(file, "SVC_API_BASE_URL=http://127.0.0.1:8821\nSVC_API_KEY=svc_live_x\n");
      expect(servedBaseUrl({}, file)).toBe("http://127.0.0.1:8821");
      expect(servedBaseUrl({ PORT: "9000" }, file)).toBe("http://127.0.0.1:9000");
      // anything but the loopback address npm start writes is not carried over
      writeFileSync(file, "SVC_API_BASE_URL=https://api.example.com\nSVC_API_KEY=svc_live_x\n");
      expect(servedBaseUrl({}, file)).toBe("http://127.0.0.1:8787");
      expect(servedBaseUrl({}, join(dir, "missing.env"))).toBe("http://127.0.0.1:8787");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * A free port outside the kernel's ephemeral range (32768–60999): the other e2e files bind port 0 concurrently, and
 * a port handed out by listen(0) here could be taken by one of them before npm start binds it (CI saw /healthz
 * answered by another test's Worker, with npm start's output still empty).
 */
async function freePort(): Promise<number> {
  for (;;) {
    const candidate = 20_000 + Math.floor(Math.random() * 10_000);
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once("error", () => resolve(false));
      server.listen(candidate, "127.0.0.1", () => server.close(() => resolve(true)));
    });
    if (free) return candidate;
  }
}

/** The README's typical flow against the dev server; the output must be Trusted under .svc/dev-root.pem. */
async function signsForReal(base: string, key: string, rootPem: string) {
  const bytes = new Uint8Array(readFileSync(join(ROOT, "test", "fixtures", "media", "sample.jpg")));
  const json = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const created = (await (
    await fetch(`${base}/v1/uploads`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({
        byte_length: bytes.length,
        declared_media_type: "image/jpeg",
        mode: "single",
        sha256: createHash("sha256").update(bytes).digest("hex"),
      }),
    })
  ).json()) as { upload_id: string; asset_id: string; upload: { url: string; method: string; headers: Record<string, string> } };
  expect((await fetch(created.upload.url, { method: created.upload.method, headers: created.upload.headers, body: bytes })).status).toBe(
    200,
  );
  const completed = await fetch(`${base}/v1/uploads/${created.upload_id}/complete`, {
    method: "POST",
    headers: { ...json, "idempotency-key": randomUUID() },
    body: "{}",
  });
  expect(completed.status).toBe(200);
  const job = (await (
    await fetch(`${base}/v1/sign`, {
      method: "POST",
      headers: { ...json, "idempotency-key": randomUUID() },
      body: JSON.stringify({ asset_id: created.asset_id, recipe_id: "rcp_system_sign_only" }),
    })
  ).json()) as { job_id: string };
  let state = "queued";
  for (let i = 0; i < 150 && !["completed", "failed"].includes(state); i++) {
    await new Promise((r) => setTimeout(r, 200));
    state = ((await (await fetch(`${base}/v1/jobs/${job.job_id}`, { headers: json })).json()) as { state: string }).state;
  }
  expect(state).toBe("completed");
  const download = (await (await fetch(`${base}/v1/assets/${created.asset_id}/download`, { method: "POST", headers: json })).json()) as {
    url: string;
    headers: Record<string, string>;
  };
  const signed = new Uint8Array(await (await fetch(download.url, { headers: download.headers })).arrayBuffer());
  const verdict = await referenceVerdict(rootPem, "image/jpeg", signed);
  expect(verdict.state).toBe("Trusted");
  expect(verdict.success).toContain("timeStamp.validated");
}

const envOf = (text: string) =>
  Object.fromEntries(
    text
      .trim()
      .split("\n")
      .map((l) => l.split(/=(.*)/s).slice(0, 2)),
  );

/**
 * `npm start` as a new user runs it: in a fresh copy of the project (no .dev.vars, no .svc, no local state),
 * then a second start, `dev:key` and `dev:tenant`.
 */
describe("npm start on a fresh copy", () => {
  const dir = mkdtempSync(join(tmpdir(), "svc-start-"));
  for (const entry of [
    "src",
    "wasm",
    "migrations",
    "scripts",
    "package.json",
    "wrangler.toml",
    "wrangler.media.toml",
    "tsconfig.json",
    "worker-configuration.d.ts",
  ]) {
    cpSync(join(ROOT, entry), join(dir, entry), { recursive: true });
  }
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) child.kill("SIGINT");
    rmSync(dir, { recursive: true, force: true });
  });

  async function start(port: number): Promise<{ stdout: string; stop: () => Promise<void> }> {
    const child = spawn(process.execPath, ["scripts/start.mjs"], {
      cwd: dir,
      env: { ...process.env, PORT: String(port) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d: Buffer) => (stdout += d));
    child.stderr!.on("data", (d: Buffer) => (stderr += d));
    // npm start applies migrations and bundles the Worker first: on a loaded 2-core machine that alone can take a
    // minute, and more than two and a half when other work shares the cores (seen at load 12). The test's own
    // timeout (600 s) covers two starts at this deadline.
    const deadline = Date.now() + 240_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited: ${stderr}`);
      try {
        // Ours only once it printed its credentials (another process on the port would answer /healthz too).
        if (stdout.includes("SVC_API_KEY=") && (await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
      } catch {}
      if (Date.now() > deadline) throw new Error(`npm start not ready: ${stderr}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const stop = () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGINT");
      });
    return { stdout, stop };
  }

  it("prints working credentials, reuses the tenant on restart, and dev:key / dev:tenant / dev:session issue working credentials", async () => {
    const port = await freePort();
    const first = await start(port);
    // The two credential lines come first; wrangler's own output follows.
    const credentials = `${first.stdout.split("\n").slice(0, 2).join("\n")}\n`;
    expect(credentials).toMatch(/^SVC_API_BASE_URL=\S+\nSVC_API_KEY=\S+\n$/);
    const printed = envOf(credentials);
    expect(printed.SVC_API_BASE_URL).toBe(`http://127.0.0.1:${port}`);
    expect(printed.SVC_API_KEY).toMatch(API_KEY_PATTERN);
    expect(readFileSync(join(dir, ".svc", "dev.env"), "utf8")).toBe(credentials);
    expect(readFileSync(join(dir, ".dev.vars"), "utf8")).toMatch(/SVC_KEY_PEPPER=.+\nSVC_CURSOR_SECRET=.+/);
    expect(readFileSync(join(dir, ".svc", "dev-root.pem"), "utf8")).toMatch(/^-----BEGIN CERTIFICATE-----/);
    const auth = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });
    const caps = await fetch(`${printed.SVC_API_BASE_URL}/v1/capabilities`, auth(printed.SVC_API_KEY));
    expect(caps.status).toBe(200);
    expect(((await caps.json()) as { schema_version: string }).schema_version).toBe("svc.capability-discovery.v1");
    const me = (await (await fetch(`${printed.SVC_API_BASE_URL}/v1/me`, auth(printed.SVC_API_KEY))).json()) as { public_id: string };
    await signsForReal(printed.SVC_API_BASE_URL!, printed.SVC_API_KEY!, readFileSync(join(dir, ".svc", "dev-root.pem"), "utf8"));
    await first.stop();

    const second = await start(port);
    expect(second.stdout.startsWith(credentials)).toBe(true); // same tenant, same key
    await second.stop();

    const run = (script: string, args: string[] = []) =>
      execFileSync(process.execPath, [script, ...args], { cwd: dir, env: { ...process.env, PORT: String(port) }, encoding: "utf8" });
    const fresh = envOf(run("scripts/dev-key.mjs"));
    expect(fresh.SVC_API_KEY).not.toBe(printed.SVC_API_KEY);
    const other = envOf(run("scripts/dev-tenant.mjs", ["Other Co"]));

    const third = await start(port);
    expect(envOf(third.stdout.split("\n").slice(0, 2).join("\n")).SVC_API_KEY).toBe(fresh.SVC_API_KEY);
    const meFresh = (await (await fetch(`${printed.SVC_API_BASE_URL}/v1/me`, auth(fresh.SVC_API_KEY))).json()) as { public_id: string };
    expect(meFresh.public_id).toBe(me.public_id);
    const meOther = (await (await fetch(`${printed.SVC_API_BASE_URL}/v1/me`, auth(other.SVC_API_KEY))).json()) as { public_id: string };
    expect(meOther.public_id).not.toBe(me.public_id);
    // The other tenant cannot see the dev tenant's keys.
    const list = (await (await fetch(`${printed.SVC_API_BASE_URL}/v1/api-keys`, auth(other.SVC_API_KEY))).json()) as { items: unknown[] };
    expect(list.items).toHaveLength(1);
    // npm run dev:session: a console session of the dev user signs in (its account provisioned just in time).
    const session = envOf(run("scripts/dev-session.mjs"));
    const signedIn = await fetch(`${printed.SVC_API_BASE_URL}/v1/me`, auth(session.SVC_SESSION_TOKEN!));
    expect(signedIn.status).toBe(200);
    expect(((await signedIn.json()) as { credential: { kind: string } }).credential.kind).toBe("session");
    await third.stop();
    // npm start applies migrations itself (scripts/lib/dev.mjs) with wrangler's bookkeeping: wrangler's own CLI sees
    // every one of them applied.
    const listed = execFileSync(
      join(ROOT, "node_modules", ".bin", "wrangler"),
      ["d1", "migrations", "list", "DB", "--local", "--env", "dev"],
      {
        cwd: dir,
        env: { ...process.env, WRANGLER_SEND_METRICS: "false", WRANGLER_HIDE_BANNER: "true", CI: "true" },
        encoding: "utf8",
      },
    );
    expect(listed).toContain("No migrations to apply");
  }, 600_000);
});
