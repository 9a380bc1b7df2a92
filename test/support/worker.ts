/**
 * Runs the real Worker bundle (what `wrangler deploy` would upload) in bare Miniflare, with local D1, R2,
 * Queues (producers and consumers), Durable Objects and the given secrets. Used by Node-side end-to-end tests
 * and by `npm run bench`. Self-contained (package imports only) so plain Node can import it.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";

const ROOT = join(import.meta.dirname, "..", "..");
const QUIET = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_HIDE_BANNER: "true" };

/**
 * The environment variable through which a bundle made once per run reaches every test file: the e2e project's
 * globalSetup (test/support/global-setup.ts) sets it before the test workers start, and they inherit it.
 */
export const WORKER_BUNDLE_ENV = "SVC_TEST_WORKER_BUNDLE";

/** Bundles src/ with wrangler (offline) into a fresh directory; returns the entry script path. */
export function bundleWorker(outdir = mkdtempSync(join(tmpdir(), "svc-bundle-")), config = "wrangler.toml"): string {
  execFileSync(join(ROOT, "node_modules", ".bin", "wrangler"), ["deploy", "--dry-run", "--outdir", outdir, "--config", config], {
    cwd: ROOT,
    env: QUIET,
    stdio: "ignore",
  });
  return join(outdir, config === "wrangler.toml" ? "index.js" : "video-worker.js");
}

/** The media Worker (wrangler.media.toml: video decoding and fingerprints), bundled like the API Worker. */
export function bundleMediaWorker(outdir = mkdtempSync(join(tmpdir(), "svc-media-bundle-"))): string {
  return bundleWorker(outdir, "wrangler.media.toml");
}

/** As WORKER_BUNDLE_ENV, for the media Worker's bundle (vitest.config.ts sets it to the bundle it makes for the workers project). */
export const MEDIA_BUNDLE_ENV = "SVC_TEST_MEDIA_BUNDLE";

/** A bundle's script and every wasm file beside it, each an explicit module (miniflare 5's v4 adapter refuses `modulesRules`). */
function bundleModules(script: string) {
  return [
    { type: "ESModule", path: script },
    ...readdirSync(dirname(script))
      .filter((f) => f.endsWith(".wasm"))
      .map((f) => ({ type: "CompiledWasm", path: join(dirname(script), f) })),
  ];
}

export interface RunningWorker {
  mf: Miniflare;
  /** Fetch against the Worker; `path` is appended to http://svc.local. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  db: D1DatabaseLike;
  dispose(): Promise<void>;
}

interface D1StatementLike {
  bind(...values: unknown[]): { run(): Promise<unknown>; all(): Promise<{ results: unknown[] }> };
  run(): Promise<unknown>;
}

interface D1DatabaseLike {
  prepare(sql: string): D1StatementLike;
  batch(statements: D1StatementLike[]): Promise<unknown[]>;
}

/** Starts the bundle at `script`; by default the run's shared bundle, else (plain Node, e.g. a bench) a fresh one. */
export async function startWorker(options: {
  script?: string;
  bindings: Record<string, string>;
  /** Diagnostics only (bench/lib/workerd-profile.mjs): opens workerd's inspector, Durable Objects included. */
  inspectorPort?: number;
  /**
   * Also run the media Worker and bind it as `VIDEO` (video fingerprints), as production does. Off by default: its
   * 32 MB decoder costs every start a moment, and only video tests need it.
   */
  video?: boolean;
}): Promise<RunningWorker> {
  const script = options.script ?? process.env[WORKER_BUNDLE_ENV] ?? bundleWorker();
  const media = options.video ? (process.env[MEDIA_BUNDLE_ENV] ?? bundleMediaWorker()) : null;
  const api = {
    name: "svc",
    modules: bundleModules(script),
    modulesRoot: dirname(script),
    compatibilityDate: "2026-10-01",
    compatibilityFlags: ["nodejs_compat"],
    d1Databases: ["DB"],
    r2Buckets: ["OBJECTS"],
    queueProducers: { JOBS_QUEUE: "svc-jobs", WEBHOOKS_QUEUE: "svc-webhooks" },
    queueConsumers: {
      "svc-jobs": { maxBatchTimeout: 1, maxRetries: 3 },
      "svc-webhooks": { maxBatchSize: 100, maxBatchTimeout: 0, maxRetries: 3 },
    },
    durableObjects: { RATE_LIMITER: "RateLimiter", WEBHOOK_GATE: "WebhookEndpointGate", AUDIT_CHAIN: "AuditChain" },
    // wrangler.toml's [env.dev] settings (the bundle is the same for every environment; its vars are not).
    bindings: { SVC_SOURCE_REVISION: "test", SVC_ENVIRONMENT: "development", SVC_TRUST_CF_CONNECTING_IP: "true", ...options.bindings },
    ...(media ? { serviceBindings: { VIDEO: { name: "svc-media", entrypoint: "VideoMediaEntrypoint" } } } : {}),
  };
  const mediaWorker = media
    ? {
        name: "svc-media",
        modules: bundleModules(media),
        modulesRoot: dirname(media),
        compatibilityDate: "2026-10-01",
        compatibilityFlags: ["nodejs_compat"],
      }
    : null;
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      workers: mediaWorker ? [api, mediaWorker] : [api],
      ...(options.inspectorPort ? { inspectorPort: options.inspectorPort, unsafeInspectDurableObjects: true } : {}),
    } as never),
  );
  const db = (await mf.getD1Database("DB")) as unknown as D1DatabaseLike;
  // Every migration in one batch (one transaction, in order): a round trip to workerd per statement cost each start
  // about 1-2 s of the ~160 statements.
  const statements = readdirSync(join(ROOT, "migrations"))
    .filter((f) => f.endsWith(".sql"))
    .sort()
    .flatMap((file) => readFileSync(join(ROOT, "migrations", file), "utf8").split("--> statement-breakpoint"))
    .filter((statement) => statement.trim());
  await db.batch(statements.map((statement) => db.prepare(statement)));
  return {
    mf,
    db,
    fetch: (path, init) => mf.dispatchFetch(`http://svc.local${path}`, init as never) as unknown as Promise<Response>,
    dispose: () => mf.dispose(),
  };
}
