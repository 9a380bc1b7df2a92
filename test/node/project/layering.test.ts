import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Issue #14: dependencies point one way. This test reads every `src/**\/*.ts` file, collects its relative imports
 * (`import … from "…"`, `export … from "…"`, `import "…"`, `import("…")`, type-only ones included: a type is an
 * arrow too), resolves them to files, and checks each arrow against the rules below.
 *
 * Layers (paths relative to `src/`):
 * - area: every folder `src/<area>/` except the non-area folders in NON_AREA (the API's resources: assets, jobs, …).
 * - platform: cross-cutting HTTP plumbing and utilities. media: the C2PA/image engine. db: drizzle schema and client.
 * - `app.ts` and `index.ts` wire everything together and may import anything; `env.ts` (the Worker's bindings) and
 *   `app-types.ts` (the router type) are declarations every layer may use.
 *
 * Today's breaches are listed in KNOWN_VIOLATIONS, each awaiting its #14 fix. The list may only shrink: a new breach
 * fails, and so does an entry whose breach is gone (delete it when you fix it).
 */

const SRC = resolve(import.meta.dirname, "..", "..", "..", "src");

/** Folders under src/ that are not API areas. */
const NON_AREA = new Set(["platform", "media", "db", "dev", "docs", "durable-objects", "queues", "catalog"]);

/**
 * What media may use besides itself: media is "nothing of the API". Allowed are the pure helpers of platform (bytes,
 * CBOR, hashing, the outbound network guard: no Hono, no D1, no request context, no error envelope), the static
 * catalogue of formats, limits and algorithms (catalog/ except installed.ts, which sits above media: it asks media
 * what is installed), and env.ts (the bindings media reads its signer and trust anchors from).
 */
const MEDIA_MAY_IMPORT = [
  /^media\//,
  /^env\.ts$/,
  /^platform\/(bytes|cbor|cbor-encode|crypto|logger)\.ts$/,
  /^platform\/net\//,
  /^catalog\/(?!installed\.ts$)[^/]+\.ts$/,
];

/** Files that wire the application together: only app.ts and index.ts (and the wiring folders) may import them. */
const WIRING = /^(app\.ts|index\.ts|queues\/|durable-objects\/|docs\/|dev\/)/;

/**
 * Today's breaches, "from → to" (paths relative to src/), each with the #14 fix it awaits. Delete an entry when its
 * fix lands; the test fails while a fixed entry is still listed.
 */
const KNOWN_VIOLATIONS: Record<string, string> = {};

type Rule =
  | "platform imports no area, media or wiring"
  | "media imports nothing of the API"
  | "db imports no area, media or wiring"
  | "no area imports another area's route file"
  | "no area imports development code";

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Path relative to src/ with forward slashes. */
function rel(path: string): string {
  return relative(SRC, path).split(sep).join("/");
}

// Static imports and re-exports at the start of a line (so comments and strings that mention "import" do not count),
// a bare side-effect import, and import("…") (dynamic imports and type-level import types).
const STATIC = /^[ \t]*(?:import|export)\b[^;"'`]*?\bfrom\s*["']([^"']+)["']/gm;
const BARE = /^[ \t]*import\s*["']([^"']+)["']/gm;
const DYNAMIC = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

function specifiers(text: string): string[] {
  return [...text.matchAll(STATIC), ...text.matchAll(BARE), ...text.matchAll(DYNAMIC)].map((m) => m[1]!);
}

/** The src file a relative specifier names, "outside" for a file outside src/ (built wasm), null if none is found. */
function resolveImport(from: string, specifier: string): string | "outside" | null {
  const base = resolve(dirname(from), specifier.replace(/\.js$/, ""));
  if (!base.startsWith(SRC + sep)) return "outside";
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts")]) {
    if (/\.tsx?$/.test(candidate) && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

const files = sourceFiles(SRC);
const edges: { from: string; to: string }[] = [];
const unresolved: string[] = [];
for (const file of files) {
  const seen = new Set<string>();
  for (const specifier of specifiers(readFileSync(file, "utf8"))) {
    if (!specifier.startsWith(".")) continue; // packages are not layers
    if (/\.json$/.test(specifier)) continue; // data files (the trust list) are not layers
    const target = resolveImport(file, specifier);
    if (target === "outside") continue;
    if (target === null) {
      unresolved.push(`${rel(file)}: ${specifier}`);
      continue;
    }
    if (seen.has(target)) continue;
    seen.add(target);
    edges.push({ from: rel(file), to: rel(target) });
  }
}

/** The area a file belongs to, or null for non-area folders and top-level files. */
function areaOf(path: string): string | null {
  const slash = path.indexOf("/");
  if (slash < 0) return null;
  const folder = path.slice(0, slash);
  return NON_AREA.has(folder) ? null : folder;
}

/** A file that defines or mounts routes: createRoute(…), a router, or an exported register…(app). */
const routeFileCache = new Map<string, boolean>();
function isRouteFile(path: string): boolean {
  let known = routeFileCache.get(path);
  if (known === undefined) {
    const text = readFileSync(join(SRC, path), "utf8");
    known = /\bcreateRoute\(|\bcreateRouter\(|\bnew (?:OpenAPI)?Hono\b|\bexport (?:async )?function register(?:[A-Z]\w*)?\(/.test(text);
    routeFileCache.set(path, known);
  }
  return known;
}

function broken(from: string, to: string): Rule | null {
  if (from === "app.ts" || from === "index.ts") return null;
  const toArea = areaOf(to);
  if (from.startsWith("platform/") && (toArea !== null || to.startsWith("media/") || WIRING.test(to))) {
    return "platform imports no area, media or wiring";
  }
  if (from.startsWith("media/") && !MEDIA_MAY_IMPORT.some((allowed) => allowed.test(to))) return "media imports nothing of the API";
  if (from.startsWith("db/") && (toArea !== null || to.startsWith("media/") || WIRING.test(to)))
    return "db imports no area, media or wiring";
  const fromArea = areaOf(from);
  // src/dev/ exists only for local development: the wiring mounts it and hands it to media's ports (ocsp-dev-port).
  if (fromArea !== null && to.startsWith("dev/")) return "no area imports development code";
  if (fromArea !== null && toArea !== null && fromArea !== toArea && isRouteFile(to)) return "no area imports another area's route file";
  return null;
}

const violations = new Map<string, Rule>();
for (const { from, to } of edges) {
  const rule = broken(from, to);
  if (rule) violations.set(`${from} → ${to}`, rule);
}

describe("layering (#14: dependencies point one way)", () => {
  it("#14 the import scan reads the source: every relative import resolves, and the known wiring is seen", () => {
    expect(unresolved).toEqual([]);
    expect(edges.length).toBeGreaterThan(500);
    expect(edges).toContainEqual({ from: "app.ts", to: "platform/context.ts" });
    // Multi-line type-only import, and a dynamic import.
    expect(edges).toContainEqual({ from: "media/index.ts", to: "media/c2pa/engine-workerd.ts" });
  });

  it("#14 the rules catch an arrow that points the wrong way", () => {
    expect(broken("platform/anything.ts", "assets/repo.ts")).toBe("platform imports no area, media or wiring");
    expect(broken("platform/anything.ts", "media/index.ts")).toBe("platform imports no area, media or wiring");
    expect(broken("media/anything.ts", "platform/context.ts")).toBe("media imports nothing of the API");
    expect(broken("media/anything.ts", "jobs/queries.ts")).toBe("media imports nothing of the API");
    expect(broken("media/anything.ts", "catalog/installed.ts")).toBe("media imports nothing of the API");
    expect(broken("media/anything.ts", "platform/bytes.ts")).toBeNull();
    expect(broken("db/anything.ts", "webhooks/queries.ts")).toBe("db imports no area, media or wiring");
    expect(broken("jobs/anything.ts", "assets/index.ts")).toBe("no area imports another area's route file");
    expect(broken("jobs/anything.ts", "assets/repo.ts")).toBeNull();
    expect(broken("assets/anything.ts", "platform/context.ts")).toBeNull();
    expect(broken("app.ts", "assets/index.ts")).toBeNull();
    expect(broken("verifications/anything.ts", "dev/ocsp.ts")).toBe("no area imports development code");
    expect(broken("media/anything.ts", "dev/pki.ts")).toBe("media imports nothing of the API");
    expect(broken("app.ts", "dev/index.ts")).toBeNull();
  });

  it("#14 no new arrow points the wrong way (fix it, or, only with a reason and an issue, list it in KNOWN_VIOLATIONS)", () => {
    const fresh = [...violations].filter(([pair]) => !(pair in KNOWN_VIOLATIONS)).map(([pair, rule]) => `${pair}  (${rule})`);
    expect(fresh).toEqual([]);
  });

  it("#14 KNOWN_VIOLATIONS only shrinks: an entry whose arrow is gone must be deleted", () => {
    const fixed = Object.keys(KNOWN_VIOLATIONS).filter((pair) => !violations.has(pair));
    expect(fixed).toEqual([]);
  });
});

/**
 * Issue #14: `repo.ts` (or a `repo/` folder, for an area whose statements need several files) is the only place that
 * touches D1 for its area: a raw `.prepare(` or a value import of the drizzle tables of db/schema.ts (type-only
 * imports are fine). db/ itself is the schema and the client. Files not yet moved are listed; the list only shrinks.
 */
const KNOWN_D1_OUTSIDE_REPO: readonly string[] = [];

const IS_REPO = /(^|\/)repo(\.ts|\/[^/]+\.ts)$/;
const SCHEMA_VALUE_IMPORT = /^import \{[^}]*\} from "(?:\.\.?\/)+db\/schema";?$/m;
const SCHEMA_VALUE_IMPORT_MULTILINE = /^import \{\n(?:[^}]*\n)\} from "(?:\.\.?\/)+db\/schema";?$/m;

function touchesD1(text: string): boolean {
  return /\.prepare\(/.test(text) || SCHEMA_VALUE_IMPORT.test(text) || SCHEMA_VALUE_IMPORT_MULTILINE.test(text);
}

const d1Outside = files
  .map(rel)
  .filter((path) => !path.startsWith("db/") && !IS_REPO.test(path) && touchesD1(readFileSync(join(SRC, path), "utf8")))
  .sort();

describe("repositories (#14: repo.ts is the only place that touches D1)", () => {
  it("#14 the check sees a raw statement and a table import", () => {
    expect(touchesD1('await env.DB.prepare("SELECT 1").run();')).toBe(true);
    expect(touchesD1('import { jobs, assets } from "../../db/schema";')).toBe(true);
    expect(touchesD1('import {\n  jobs,\n  assets,\n} from "../../../db/schema";')).toBe(true);
    expect(touchesD1('import type { JobRow } from "../../db/schema";')).toBe(false);
    expect(IS_REPO.test("webhooks/repo.ts") && IS_REPO.test("jobs/repo/publication.ts") && !IS_REPO.test("jobs/runner.ts")).toBe(true);
  });

  it("#14 no new file outside a repo touches D1", () => {
    expect(d1Outside.filter((path) => !KNOWN_D1_OUTSIDE_REPO.includes(path))).toEqual([]);
  });

  it("#14 KNOWN_D1_OUTSIDE_REPO only shrinks: delete an entry once its statements live in a repo", () => {
    expect(KNOWN_D1_OUTSIDE_REPO.filter((path) => !d1Outside.includes(path))).toEqual([]);
  });
});
