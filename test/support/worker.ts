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
export function bundleWorker(outdir = mkdtempSync(join(tmpdir(), "svc-bundle-"))): string {
  execFileSync(join(ROOT, "node_modules", ".bin", "wrangler"), ["deploy", "--dry-run", "--outdir", outdir], {
    cwd: ROOT,
    env: QUIET,
    stdio: "ignore",
  });
  return join(outdir, "index.js");
}

export interface RunningWorker {
  mf: Miniflare;
  /** Fetch against the Worker; `path` is appended to http://svc.local. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  db: D1DatabaseLike;
  dispose(): Promise<void>;
}

interface D1DatabaseLike {
  prepare(sql: string): {
    bind(...values: unknown[]): { run(): Promise<unknown>; all(): Promise<{ results: unknown[] }> };
    run(): Promise<unknown>;
  };
}

/** Starts the bundle at `script`; by default the run's shared bundle, else (plain Node, e.g. a bench) a fresh one. */
export async function startWorker(options: {
  script?: string;
  bindings: Record<string, string>;
  /** Diagnostics only (bench/lib/workerd-profile.mjs): opens workerd's inspector, Durable Objects included. */
  inspectorPort?: number;
}): Promise<RunningWorker> {
  const script = options.script ?? process.env[WORKER_BUNDLE_ENV] ?? bundleWorker();
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      // Every file of the bundle as an explicit module (miniflare 5's v4 adapter refuses `modulesRules`).
      modules: [
        { type: "ESModule", path: script },
        ...readdirSync(dirname(script))
          .filter((f) => f.endsWith(".wasm"))
          .map((f) => ({ type: "CompiledWasm", path: join(dirname(script), f) })),
      ],
      modulesRoot: dirname(script),
      compatibilityDate: "2026-10-01",
      ...(options.inspectorPort ? { inspectorPort: options.inspectorPort, unsafeInspectDurableObjects: true } : {}),
      compatibilityFlags: ["nodejs_compat"],
      d1Databases: ["DB"],
      r2Buckets: ["OBJECTS"],
      queueProducers: { JOBS_QUEUE: "svc-jobs", WEBHOOKS_QUEUE: "svc-webhooks" },
      queueConsumers: {
        "svc-jobs": { maxBatchTimeout: 1, maxRetries: 3 },
        "svc-webhooks": { maxBatchSize: 100, maxBatchTimeout: 1, maxRetries: 3 },
      },
      durableObjects: { RATE_LIMITER: "RateLimiter", WEBHOOK_GATE: "WebhookEndpointGate", AUDIT_CHAIN: "AuditChain" },
      // wrangler.toml's [env.dev] settings (the bundle is the same for every environment; its vars are not).
      bindings: { SVC_SOURCE_REVISION: "test", SVC_ENVIRONMENT: "development", SVC_TRUST_CF_CONNECTING_IP: "true", ...options.bindings },
    } as never),
  );
  const db = (await mf.getD1Database("DB")) as unknown as D1DatabaseLike;
  for (const file of readdirSync(join(ROOT, "migrations"))
    .filter((f) => f.endsWith(".sql"))
    .sort()) {
    for (const statement of readFileSync(join(ROOT, "migrations", file), "utf8").split("--> statement-breakpoint")) {
      if (statement.trim()) await db.prepare(statement).run();
    }
  }
  return {
    mf,
    db,
    fetch: (path, init) => mf.dispatchFetch(`http://svc.local${path}`, init as never) as unknown as Promise<Response>,
    dispose: () => mf.dispose(),
  };
}
