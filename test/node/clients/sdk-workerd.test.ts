/**
 * The SDK core inside workerd (the Workers runtime), bundled as a browser-platform module: no Node built-ins are
 * available there, so a Node-only import or global fails the bundle or the run. The client uploads, signs (through
 * a 503 retry) and verifies a webhook against the scripted Worker. It runs twice: on the sources, and on the package as
 * published (dist/, the JavaScript `npm ci` builds), reached through the package's own `exports` by name.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { build, type Plugin } from "esbuild";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const DIST_ENTRY = join(ROOT, "packages", "client", "dist", "index.js");

/** The built variant: sdk-in-worker.ts's import of the sources becomes `@svc/client`, resolved as a bundler would. */
const byPackageName: Plugin = {
  name: "svc-client-by-name",
  setup(b) {
    b.onResolve({ filter: /packages\/client\/src\/index$/ }, (args) =>
      b.resolve("@svc/client", { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer }),
    );
  },
};

describe.each([
  { variant: "sources", plugins: [] as Plugin[] },
  { variant: "built package", plugins: [byPackageName] },
])("SDK in workerd ($variant)", ({ variant, plugins }) => {
  let mf: Miniflare;

  beforeAll(async () => {
    const bundle = await build({
      entryPoints: [join(import.meta.dirname, "sdk-in-worker.ts")],
      bundle: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      write: false,
      metafile: true,
      plugins,
    });
    const inputs = Object.keys(bundle.metafile.inputs).map((f) => join(ROOT, f));
    // the variant really is what it says: the published JavaScript, or the TypeScript sources
    if (variant === "built package") {
      expect(inputs).toContain(DIST_ENTRY);
      expect(inputs.some((f) => f.includes("/packages/client/src/"))).toBe(false);
    } else expect(inputs).toContain(join(ROOT, "packages", "client", "src", "index.ts"));
    mf = new Miniflare(
      convertV4MiniflareOptions({
        workers: [
          {
            name: "sdk",
            modules: true,
            script: bundle.outputFiles[0]!.text,
            compatibilityDate: "2026-10-01",
            serviceBindings: { SCRIPTED: "scripted" },
          },
          { name: "scripted", modules: true, scriptPath: join(import.meta.dirname, "scripted-worker.js"), compatibilityDate: "2026-10-01" },
        ],
      } as never),
    );
    await mf.ready;
  }, 60_000);

  afterAll(async () => {
    await mf?.dispose();
  });
  it("uploads, signs through a retry, refuses typed, and verifies a webhook", async () => {
    // typed loosely: miniflare's Fetcher type names its own Request/Response classes
    const scripted = (await mf.getWorker("scripted")) as unknown as { fetch(url: string, init?: RequestInit): Promise<Response> };
    const created = {
      upload_id: "upl_abcdefghij234567",
      asset_id: "ast_abcdefghij234567",
      expires_at: "2026-11-28T10:00:00.000Z",
      mode: "single",
      status: "initiated",
      parts: [],
      upload: { method: "PUT", url: "http://storage.test/put/upl_abcdefghij234567", headers: { "Content-Type": "image/jpeg" } },
    };
    const answers = [
      { status: 201, body: created },
      { status: 200 },
      { status: 200, body: { ...created, asset_object_id: "aob_abcdefghij234567", byte_length: 4, sha256: "x", status: "completed" } },
      { status: 503 },
      { status: 202, body: { job_id: "job_abcdefghij234567", state: "queued" } },
      { status: 422, body: { code: "svc.request.invalid", message: "m", request_id: "req_x", retryable: false, field_details: [] } },
    ];
    await scripted.fetch("http://api.test/__script", { method: "POST", body: JSON.stringify(answers) });
    const secret = `whsec_${randomBytes(24).toString("base64")}`;
    const body = JSON.stringify({
      id: "evt_1",
      type: "asset.signed",
      event_catalog_version: "svc.customer-events.v1",
      timestamp: "t",
      test: false,
      data: {},
    });
    const at = new Date();
    const headers = {
      "webhook-id": "msg_1",
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": new Webhook(secret).sign("msg_1", at, body),
    };
    const res = await mf.dispatchFetch("http://sdk.test/", {
      method: "POST",
      body: JSON.stringify({ webhook: { body, headers, secret } }),
    });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(JSON.parse(text)).toEqual({
      upload: "completed",
      sign: 202,
      refused: { code: "svc.request.invalid", status: 422 },
      event: "asset.signed",
    });
    const log = (await (await scripted.fetch("http://api.test/__log")).json()) as {
      path: string;
      headers: Record<string, string>;
      body: string;
    }[];
    expect(log.map((l) => l.path)).toEqual([
      "/v1/uploads",
      "/put/upl_abcdefghij234567",
      "/v1/uploads/upl_abcdefghij234567/complete",
      "/v1/sign",
      "/v1/sign",
      "/v1/sign",
    ]);
    // the SHA-256 of [1,2,3,4], computed by Web Crypto inside workerd
    expect(JSON.parse(log[0]!.body).sha256).toBe("9f64a747e1b97f131fabb6b447296c9b6f0201e79fb3c5356e6c77e89b6a806a");
    expect(log[3]!.headers["idempotency-key"]).toBe(log[4]!.headers["idempotency-key"]);
    expect(log[5]!.headers["idempotency-key"]).not.toBe(log[4]!.headers["idempotency-key"]);
    expect(log[1]!.headers.authorization).toBeUndefined();
  });
});
