import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundleWorker, WORKER_BUNDLE_ENV } from "./worker";

/**
 * Vitest globalSetup of the e2e project: bundles the Worker once per run (`wrangler deploy --dry-run`, ~10 s of
 * CPU) instead of once per test file. The path travels in the environment, which the test workers (started after
 * this) inherit, so `startWorker()` picks it up by default and test/support/worker.ts stays importable by plain Node.
 */
export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), "svc-bundle-"));
  process.env[WORKER_BUNDLE_ENV] = bundleWorker(dir);
  return () => {
    delete process.env[WORKER_BUNDLE_ENV];
    rmSync(dir, { recursive: true, force: true });
  };
}
