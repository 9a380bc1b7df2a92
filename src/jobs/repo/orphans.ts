import { TERMINAL_STATES } from "../schemas";

/*
 * The D1 reads of the job-objects reconciler (../orphans.ts): which of a page of R2 keys a record names, and which
 * of their jobs are still open. Its progress (the R2 cursor) is kept in derived_index_runs, the reconcilers' table,
 * through src/derived-index/repo.ts.
 */

/** What the records say about a page of keys under the jobs' prefixes. */
export interface KeyReferences {
  /** Keys an objects row names (an upload, a published output or sidecar). */
  objects: Set<string>;
  /** Keys a step record of their job names (job_steps.output: the watermarked intermediate, the manifest store, …). */
  steps: Set<string>;
  /** Jobs (tenant/job) that exist and have not ended: their runs rewrite their unrecorded keys. */
  open: Set<string>;
  /** Jobs (tenant/job) that exist. */
  known: Set<string>;
}

/** At most this many keys or jobs per statement (D1 binds at most 100 parameters). */
export const REFERENCE_CHUNK = 90;

/**
 * Reads the references of `keys` (each under `t/{tenant}/jobs/{job}/`), `jobs` their (tenant, job) pairs: one
 * batch of two statements per chunk.
 */
export async function referencesOf(d1: D1Database, keys: string[], jobs: { tenantId: string; jobId: string }[]): Promise<KeyReferences> {
  const refs: KeyReferences = { objects: new Set(), steps: new Set(), open: new Set(), known: new Set() };
  const terminal = TERMINAL_STATES.map((s) => `'${s}'`).join(", ");
  for (let i = 0; i < Math.max(keys.length, jobs.length); i += REFERENCE_CHUNK) {
    const someKeys = keys.slice(i, i + REFERENCE_CHUNK);
    const someJobs = jobs.slice(i, i + REFERENCE_CHUNK);
    const marks = (n: number) => Array.from({ length: n }, () => "?").join(", ");
    const statements: D1PreparedStatement[] = [];
    if (someKeys.length > 0)
      statements.push(d1.prepare(`SELECT r2_key FROM objects WHERE r2_key IN (${marks(someKeys.length)})`).bind(...someKeys));
    if (someJobs.length > 0)
      statements.push(
        d1
          .prepare(
            `SELECT j.tenant_id, j.id, j.state IN (${terminal}) AS ended, s.output
               FROM jobs j LEFT JOIN job_steps s ON s.job_id = j.id AND s.output IS NOT NULL
              WHERE j.id IN (${marks(someJobs.length)})`,
          )
          .bind(...someJobs.map((j) => j.jobId)),
      );
    const results = await d1.batch(statements);
    const objectRows = someKeys.length > 0 ? results.shift()! : null;
    for (const row of (objectRows?.results ?? []) as { r2_key: string }[]) refs.objects.add(row.r2_key);
    const jobRows = someJobs.length > 0 ? results.shift()! : null;
    for (const row of (jobRows?.results ?? []) as { tenant_id: string; id: string; ended: number; output: string | null }[]) {
      const job = `${row.tenant_id}/${row.id}`;
      refs.known.add(job);
      if (!row.ended) refs.open.add(job);
      const named = row.output ? keysIn(row.output) : [];
      // A record that cannot be read might name any of its job's objects: the job's objects are all kept.
      if (named === null) refs.open.add(job);
      else for (const key of named) refs.steps.add(key);
    }
  }
  return refs;
}

/** Every `key` a step output (outputs.ts StoredBlob, nested anywhere) names; null when it is not readable JSON. */
function keysIn(output: string): string[] | null {
  const found: string[] = [];
  const walk = (value: unknown, depth: number) => {
    if (!value || typeof value !== "object" || depth > 8) return;
    for (const [name, child] of Object.entries(value)) {
      if (name === "key" && typeof child === "string") found.push(child);
      else walk(child, depth + 1);
    }
  };
  try {
    walk(JSON.parse(output), 0);
  } catch {
    return null;
  }
  return found;
}
