import { readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The order test files start in: the longest first, so that on CI's two cores the run does not end with one long
 * file on one core while the other has nothing left to do (a clean clone has no vitest cache, so vitest's own
 * order is by file size, which put 60-100 s files near the end). Durations come from test/durations.json (seconds
 * per file, from vitest's results cache of a CI run: scripts/test-durations.mjs refreshes it); a file not listed
 * there (a new one) counts as its project's median.
 *
 * Two blocks: the Node-side files (the `node` and `e2e` projects, each file in its own fork) together, so a file
 * that mostly waits (a 40-a-minute webhook endpoint, a receiver) runs beside one that computes; then the `workers`
 * files, which stay contiguous because a vitest worker keeps its workerd (and its compiled WebAssembly) only while
 * the next queued file is also a `workers` file.
 */
export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    let table: Record<string, number> = {};
    try {
      table = JSON.parse(readFileSync(join(import.meta.dirname, "durations.json"), "utf8")).files ?? {};
    } catch {
      // no table: every file is unknown and vitest's size order applies
    }
    const key = (spec: TestSpecification) => `${spec.project.name}:${relative(root, spec.moduleId)}`;
    const sizes = new Map<string, number>();
    for (const spec of files) {
      try {
        sizes.set(spec.moduleId, statSync(spec.moduleId).size);
      } catch {
        sizes.set(spec.moduleId, 0);
      }
    }
    // A file the table does not list (a new one) is taken to last as long as the median file of its project: it
    // starts neither before the 60-100 s files nor last. A project the table does not know at all starts first, as
    // vitest starts files it has never run.
    const medians = new Map<string, number>();
    for (const spec of files) {
      const project = spec.project.name;
      if (medians.has(project)) continue;
      const known = Object.entries(table)
        .filter(([k]) => k.startsWith(`${project}:`))
        .map(([, seconds]) => seconds)
        .sort((x, y) => x - y);
      medians.set(project, known.length > 0 ? known[Math.floor(known.length / 2)]! : Number.POSITIVE_INFINITY);
    }
    const duration = (spec: TestSpecification) => table[key(spec)] ?? medians.get(spec.project.name)!;
    const block = (spec: TestSpecification) => (spec.project.config.isolate === false ? 1 : 0);
    return [...files].sort((a, b) => {
      const blockDiff = block(a) - block(b);
      if (blockDiff !== 0) return blockDiff;
      // Within the workers block, one project at a time (there is one; a second non-isolated project would need it).
      if (block(a) === 1 && a.project.name !== b.project.name) return a.project.name < b.project.name ? -1 : 1;
      const da = duration(a);
      const db = duration(b);
      return (
        (da === db ? 0 : db > da ? 1 : -1) ||
        (sizes.get(b.moduleId) ?? 0) - (sizes.get(a.moduleId) ?? 0) ||
        (a.moduleId < b.moduleId ? -1 : a.moduleId > b.moduleId ? 1 : 0)
      );
    });
  }
}
