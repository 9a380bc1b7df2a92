import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { configDefaults, defineConfig } from "vitest/config";
import { unstable_readConfig } from "wrangler";
// With the extension (Vite's future native config loader needs it); tsconfig.node.json lacks
// allowImportingTsExtensions, hence the expected TS5097.
import { mintAnchorKeyPem, mintDevPki } from "./src/dev/pki.ts";
import { DEV_SESSION_AUDIENCE, DEV_SESSION_ISSUER, mintDevSessionKey } from "./src/dev/session-issuer.ts";
import { MEDIA_BUNDLE_ENV } from "./test/support/worker.ts";
import { captureTestTrustJson } from "./test/workers/capture/trust-fixture.ts";

/** Media fixtures (test/fixtures/media) handed to workerd tests as one binding: file name → base64 bytes. */
function mediaFixtures(): Record<string, string> {
  const dir = join(import.meta.dirname, "test", "fixtures", "media");
  if (!existsSync(dir)) return {};
  return Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name)).toString("base64")]));
}

/**
 * The media Worker (wrangler.media.toml) for the workers project: the API Worker's `VIDEO` service binding names it,
 * so it runs beside the tests as an auxiliary Worker, bundled by wrangler as it deploys. Rebuilt only when a source
 * it bundles is newer than the bundle (its FFmpeg module alone is 32 MB).
 */
function mediaWorkerBundle(): string {
  const outdir = join(import.meta.dirname, "dist", "test-media-worker");
  const script = join(outdir, "video-worker.js");
  const sources = ["src/media", "src/platform", "wasm/build", "wrangler.media.toml"].map((p) => join(import.meta.dirname, p));
  const newest = (path: string): number => {
    const stat = statSync(path);
    if (!stat.isDirectory()) return stat.mtimeMs;
    return Math.max(stat.mtimeMs, ...readdirSync(path).map((f) => newest(join(path, f))));
  };
  if (!existsSync(script) || statSync(script).mtimeMs < Math.max(...sources.map(newest))) {
    rmSync(outdir, { recursive: true, force: true });
    execFileSync(
      join(import.meta.dirname, "node_modules", ".bin", "wrangler"),
      ["deploy", "--dry-run", "--outdir", outdir, "--config", "wrangler.media.toml", "--env", "dev"],
      {
        cwd: import.meta.dirname,
        env: { ...process.env, WRANGLER_SEND_METRICS: "false", WRANGLER_HIDE_BANNER: "true" },
        stdio: "ignore",
      },
    );
  }
  return script;
}

/** The media Worker as a Miniflare worker: its script and every wasm module beside it. */
function mediaWorker(name: string) {
  const script = mediaWorkerBundle();
  // The e2e project's video tests start the same bundle (test/support/worker.ts reads this; `--env dev` changes only
  // the Worker's name, not a byte of the bundle) instead of bundling the media Worker once more.
  process.env[MEDIA_BUNDLE_ENV] ??= script;
  const dir = dirname(script);
  return {
    name,
    modulesRoot: dir,
    modules: [
      { type: "ESModule" as const, path: script },
      ...readdirSync(dir)
        .filter((f) => f.endsWith(".wasm"))
        .map((f) => ({ type: "CompiledWasm" as const, path: join(dir, f) })),
    ],
    compatibilityDate: "2026-10-01",
    compatibilityFlags: ["nodejs_compat"],
  };
}

/**
 * The jobs queue's consumer for the workers project: wrangler.toml's [env.dev] one (batch size, retries, dead-letter
 * queue), with max_batch_timeout pinned to 0 (as deployed since #19) so the suite's timing never depends on that
 * setting: a wait to fill a batch is about a second of idle time per job locally, and most workers files wait on
 * several jobs. How the consumer handles a batch of several (test/workers/queues/queues.test.ts hands it crafted
 * batches) is tested apart.
 */
function jobsConsumerWithoutBatchWait() {
  const config = unstable_readConfig({ config: join(import.meta.dirname, "wrangler.toml"), env: "dev" }, { hideWarnings: true });
  const consumer = config.queues.consumers?.find((c: { queue: string }) => c.queue === "svc-jobs");
  if (!consumer) throw new Error("wrangler.toml [env.dev] has no svc-jobs consumer");
  return {
    "svc-jobs": {
      maxBatchSize: consumer.max_batch_size,
      maxBatchTimeout: 0,
      maxRetries: consumer.max_retries,
      deadLetterQueue: consumer.dead_letter_queue,
      retryDelay: consumer.retry_delay,
    },
  };
}

/**
 * Node-side files that start the whole Worker (the wrangler bundle in Miniflare, or `npm start`): the e2e project.
 * Matched by file name so new end-to-end suites (`*.e2e.test.ts`) land there without editing this list.
 */
const E2E = ["test/node/**/*.e2e.test.ts", "test/node/jobs/signing-e2e*.test.ts", "test/node/project/dev-scripts.test.ts"];

/**
 * Three projects, one `vitest run`: `workers` runs inside workerd with the real bindings of wrangler.toml (local
 * D1, R2, Queues, Durable Objects); `node` runs what needs Node (OpenAPI validation with ajv, which workerd forbids
 * because it compiles code at run time; conformance against c2pa-node); `e2e` runs the real Worker bundle in
 * Miniflare (and `npm start`), bundled once per run by its globalSetup.
 */
// workerd with gc() exposed, so memory-release tests (test/workers/jobs/express-upload-release.test.ts) run in the
// suite instead of skipping; Miniflare reads this when it starts workerd.
process.env.MINIFLARE_WORKERD_V8_FLAGS ??= "--expose-gc";

export default defineConfig(async () => {
  const migrations = await readD1Migrations("./migrations");
  // A fresh dev PKI per run: C2PA signer and TSA credentials for workerd tests, its root as the trust anchor.
  const pki = await mintDevPki({ ocspUrl: "http://svc.test/dev/ocsp" });
  // Console sessions: a fresh dev identity provider per run; tests mint tokens with its private key.
  const sessionIssuer = await mintDevSessionKey();
  return {
    test: {
      reporters: ["default", "./test/summary-reporter.ts"],
      // Vitest defaults to one worker per core minus one: a single file at a time on the 2-core CI machine. Most
      // files wait on queues, receivers and timers rather than compute, so two at a time roughly halves the run.
      maxWorkers: 2,
      projects: [
        {
          plugins: [
            cloudflareTest({
              // The local development environment of wrangler.toml ([env.dev]); the top level is production.
              wrangler: { configPath: "./wrangler.toml", environment: "dev" },
              miniflare: {
                // The media Worker behind the `VIDEO` service binding of wrangler.toml's [env.dev].
                workers: [mediaWorker("svc-media-dev")],
                queueConsumers: jobsConsumerWithoutBatchWait(),
                bindings: {
                  TEST_MIGRATIONS: migrations,
                  TEST_FIXTURES: mediaFixtures(),
                  // The campaign's hostile-input count and seed (#22): CI runs the default sample, `npm run campaign` 10,000.
                  CAMPAIGN_INPUTS: process.env.CAMPAIGN_INPUTS ?? "1000",
                  CAMPAIGN_SEED: process.env.CAMPAIGN_SEED ?? "22",
                  // The signing-job faults (#22): CI crashes every site after its call and samples the other modes; "all" runs every mode at every site.
                  CAMPAIGN_FAULTS: process.env.CAMPAIGN_FAULTS ?? "sample",
                  SVC_KEY_PEPPER: "test-pepper-0123456789abcdef0123456789abcdef",
                  SVC_CURSOR_SECRET: "test-cursor-secret-0123456789abcdef0123456789",
                  SVC_C2PA_SIGNER_CHAIN_PEM: pki.signerChainPem,
                  SVC_C2PA_SIGNER_KEY_PEM: pki.signerKeyPkcs8Pem,
                  SVC_TSA_CHAIN_PEM: pki.tsaChainPem,
                  SVC_TSA_KEY_PEM: pki.tsaKeyPkcs8Pem,
                  SVC_TRUST_ANCHORS_PEM: pki.rootCertPem,
                  SVC_TSA_URL: "internal",
                  SVC_DEV_OCSP_URL: "http://svc.test/dev/ocsp",
                  SVC_ANCHOR_KEY_PEM: await mintAnchorKeyPem(),
                  SVC_OCSP_RESPONDER_CERT_PEM: pki.ocsp!.responderCertPem,
                  SVC_OCSP_RESPONDER_KEY_PEM: pki.ocsp!.responderKeyPkcs8Pem,
                  SVC_OCSP_CA_CERT_PEM: pki.ocsp!.caCertPem,
                  SVC_CAPABILITY_SECRET: "test-capability-secret-0123456789abcdef0123",
                  // Envelope encryption of creator personal data: one current master key (tests add others to rotate).
                  // Capture trust: test CAs standing in for Apple and Google (test/workers/capture/trust-fixture.ts).
                  SVC_CAPTURE_TRUST: captureTestTrustJson(),
                  SVC_DATA_MASTER_KEYS: "test1:dGVzdC1kYXRhLW1hc3Rlci1rZXktMDAwMDAwMDAwMS0",
                  // Console sessions (#18): the dev issuer, its public keys inline, and the idp callback's secret.
                  SVC_SESSION_ISSUER: DEV_SESSION_ISSUER,
                  SVC_SESSION_AUDIENCE: DEV_SESSION_AUDIENCE,
                  SVC_SESSION_JWKS: sessionIssuer.jwks,
                  SVC_DEV_SESSION_KEY_PEM: sessionIssuer.privateKeyPkcs8Pem,
                  SVC_IDP_WEBHOOK_SECRET: "whsec_dGVzdC1pZHAtd2ViaG9vay1zZWNyZXQtMDEyMzQ1Njc4OQ==",
                  // A static host map (development only) so webhook destination checks resolve without network DNS.
                  SVC_DEV_DNS_HOSTS: JSON.stringify({
                    "hooks.example.com": ["93.184.215.14"],
                    "hooks2.example.com": ["2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
                    "private.example.com": ["10.1.2.3"],
                    "loopback.example.com": ["127.0.0.1"],
                    "metadata.example.com": ["169.254.169.254"],
                    "v6loop.example.com": ["::1"],
                    "mixed.example.com": ["93.184.215.14", "192.168.1.1"],
                  }),
                },
              },
            }),
          ],
          // Jobs run on the real queue consumer in the background; under a loaded 2-core CI machine a flow can take seconds.
          test: {
            name: "workers",
            isolate: false,
            include: ["test/workers/**/*.test.ts"],
            setupFiles: ["./test/workers/support/setup.ts"],
            // A hang guard, not a speed bound (those live in `npm run bench`): the heaviest tests take 30-55 s on the
            // shared 2-core machine under load, and a timeout that load can reach fails CI for nothing.
            testTimeout: 240_000,
          },
        },
        {
          test: {
            name: "node",
            include: ["test/node/**/*.test.ts"],
            exclude: [...configDefaults.exclude, ...E2E],
            environment: "node",
            // A hang guard, not a speed bound: the audio watermark tests take 20-40 s alone and one took 94 s (a 60 s
            // timeout failed it) when the shared machine was loaded.
            testTimeout: 240_000,
          },
        },
        {
          test: {
            name: "e2e",
            include: E2E,
            environment: "node",
            globalSetup: ["./test/support/global-setup.ts"],
            testTimeout: 60_000,
          },
        },
      ],
    },
  };
});
