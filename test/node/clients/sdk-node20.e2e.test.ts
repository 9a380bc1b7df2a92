/**
 * @svc/client as a Node 20 user gets it: the SYSTEM Node (/usr/bin/node, v20: no TypeScript stripping, no bundler)
 * runs a plain ESM script in a project of its own that imports the package by name (linked as `npm install <path>`
 * links a local package), so Node resolves the package's `exports` to the built JavaScript. Against the real Worker
 * bundle on a local port: upload → signAndWait → download with verifyHash → verify of the download; a refusal is a
 * typed SvcError carrying code and request_id; a webhook delivery signed by the unmodified `standardwebhooks` library
 * verifies and a tampered one is refused.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURES, type SignedService, sha256Hex, startSignedService } from "../../support/svc-client";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const SYSTEM_NODE = "/usr/bin/node";
const hasSystemNode = existsSync(SYSTEM_NODE);

/** The user's script: nothing of the repository but the package, by name. */
const SCRIPT = `
import { readFileSync, writeFileSync } from "node:fs";
import { createSvcClient, fromEnv, SvcError, SvcWebhookError, webhooks } from "@svc/client";

const [file, out] = process.argv.slice(2);
const svc = createSvcClient(fromEnv());
const phases = new Set();
const upload = await svc.upload(new Blob([readFileSync(file)], { type: "image/jpeg" }), {
  filename: "sample.jpg",
  onProgress: (p) => phases.add(p.phase),
});
const { job } = await svc.signAndWait({ assetId: upload.asset_id, recipeId: "rcp_system_sign_only", timeoutMs: 90000 });
const got = await svc.download(upload.asset_id, { verifyHash: true });
writeFileSync(out, got.bytes);
const verdict = await svc.verify(new Blob([got.bytes], { type: got.media_type }));

let refused = null;
try {
  await svc.download("ast_aaaaaaaaaaaaaaaa");
} catch (e) {
  refused = e instanceof SvcError ? { status: e.status, code: e.code, request_id: e.request_id } : String(e);
}
const delivery = JSON.parse(process.env.DELIVERY);
const event = webhooks.verify(delivery.body, delivery.headers, delivery.secret);
let tampered = null;
try {
  webhooks.verify(delivery.body.replace("asset.signed", "asset.deleted"), delivery.headers, delivery.secret);
} catch (e) {
  tampered = e instanceof SvcWebhookError ? "SvcWebhookError" : String(e);
}
console.log(JSON.stringify({
  node: process.version,
  resolved: import.meta.resolve("@svc/client"),
  upload: { status: upload.status, sha256: upload.sha256, byte_length: upload.byte_length, phases: [...phases] },
  job: job.state,
  download: { sha256: got.sha256, byte_length: got.byte_length, media_type: got.media_type },
  verdict: verdict.status,
  refused,
  event: event.type,
  tampered,
}));
`;

let svc: SignedService;
let baseUrl: string;
let scratch: string;

beforeAll(async () => {
  if (!hasSystemNode) return;
  svc = await startSignedService();
  baseUrl = new URL(String(await svc.worker.mf.ready)).origin;
  scratch = mkdtempSync(join(tmpdir(), "svc-node20-"));
}, 180_000);

afterAll(async () => {
  await svc?.dispose();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe("@svc/client on the system Node 20", () => {
  it.skipIf(!hasSystemNode)(
    "imports the package by name and signs, downloads (hash checked) and verifies a JPEG on the real Worker",
    { timeout: 180_000 },
    async () => {
      const project = join(scratch, "app");
      mkdirSync(join(project, "node_modules", "@svc"), { recursive: true });
      symlinkSync(join(ROOT, "packages", "client"), join(project, "node_modules", "@svc", "client"), "dir");
      writeFileSync(join(project, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
      writeFileSync(join(project, "main.mjs"), SCRIPT);

      const secret = `whsec_${Buffer.from("0123456789abcdef0123456789abcdef").toString("base64")}`;
      const body = JSON.stringify({ id: "evt_1", type: "asset.signed", timestamp: new Date().toISOString(), data: {} });
      const at = new Date();
      const headers = {
        "webhook-id": "msg_1",
        "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
        "webhook-signature": new Webhook(secret).sign("msg_1", at, body),
      };
      const out = join(scratch, "signed.jpg");
      // Only what a user sets: no NODE_OPTIONS or loaders of the test runner reach the child.
      const env: Record<string, string> = {
        PATH: "/usr/bin:/bin",
        HOME: scratch,
        SVC_API_KEY: svc.key,
        SVC_API_BASE_URL: baseUrl,
        DELIVERY: JSON.stringify({ body, headers, secret }),
      };
      const child = spawn(SYSTEM_NODE, ["main.mjs", join(FIXTURES, "sample.jpg"), out], {
        cwd: project,
        env: env as unknown as NodeJS.ProcessEnv,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => (stdout += d));
      child.stderr.on("data", (d) => (stderr += d));
      const timer = setTimeout(() => child.kill("SIGKILL"), 150_000);
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      clearTimeout(timer);
      expect(code, stderr).toBe(0);
      const r = JSON.parse(stdout.trim().split("\n").at(-1)!);

      expect(r.node).toMatch(/^v(2[0-9]|[3-9][0-9])\./);
      // the built JavaScript, not the TypeScript sources (which Node 20 cannot run)
      expect(r.resolved).toBe(`file://${join(ROOT, "packages", "client", "dist", "index.js")}`);
      const source = readFileSync(join(FIXTURES, "sample.jpg"));
      expect(r.upload).toMatchObject({ status: "completed", sha256: sha256Hex(source), byte_length: source.length });
      expect(r.upload.phases).toEqual(expect.arrayContaining(["hash", "upload"]));
      expect(r.job).toBe("completed");
      const signed = readFileSync(out);
      expect(r.download).toEqual({ sha256: sha256Hex(signed), byte_length: signed.length, media_type: "image/jpeg" });
      expect(signed.length).toBeGreaterThan(source.length);
      expect(r.verdict).toBe("verified_manifest");
      expect(r.refused).toMatchObject({ status: 404 });
      expect(r.refused.code).toMatch(/^svc\./);
      expect(r.refused.request_id).toMatch(/^req_/);
      expect(r.event).toBe("asset.signed");
      expect(r.tampered).toBe("SvcWebhookError");
      // the key never reached the output
      expect(stdout + stderr).not.toContain(svc.key);
    },
  );
});
