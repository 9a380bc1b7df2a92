/**
 * @svc/client as published: its `exports` name the built JavaScript and declarations (dist/, made by
 * packages/client/scripts/build.mjs, which `npm ci` runs as the package's `prepare` and `npm test` runs first). The
 * build must be the sources' (a stale dist would make the CLI and every importer by name run old code), its core must
 * import nothing Node-only (browsers, Workers), and its declarations must serve a Node16/NodeNext TypeScript project.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const PKG = join(ROOT, "packages", "client");
const DIST = join(PKG, "dist");
const scratch = mkdtempSync(join(tmpdir(), "svc-client-build-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const manifest = JSON.parse(readFileSync(join(PKG, "package.json"), "utf8"));

describe("@svc/client build", () => {
  it("exports the built ESM JavaScript with a types condition, for Node >= 20", () => {
    expect(manifest.type).toBe("module");
    expect(manifest.exports["."]).toEqual({ types: "./dist/index.d.ts", default: "./dist/index.js" });
    expect(manifest.engines.node).toBe(">=20");
    expect(manifest.scripts.prepare).toBe("node scripts/build.mjs");
    expect(manifest.files).toContain("dist");
  });

  it("the CLI imports the same package by name, resolved to the build (no second copy of the SDK)", () => {
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", 'console.log(import.meta.resolve("@svc/client"))'], {
      cwd: join(ROOT, "packages", "cli"),
      encoding: "utf8",
    });
    expect(run.stdout.trim()).toBe(`file://${join(DIST, "index.js")}`);
    const cli = readdirSync(join(ROOT, "packages", "cli", "src"), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"));
    for (const file of cli)
      expect(readFileSync(join(ROOT, "packages", "cli", "src", file), "utf8"), file).not.toMatch(/packages\/client|client\/src/);
  });

  it("dist/ is exactly what the sources build to (else: npm run build:client)", { timeout: 120_000 }, () => {
    const fresh = join(scratch, "fresh");
    const run = spawnSync(process.execPath, [join(PKG, "scripts", "build.mjs"), fresh], { encoding: "utf8" });
    expect(run.status, run.stderr + run.stdout).toBe(0);
    const names = readdirSync(fresh).sort();
    expect(names).toEqual(expect.arrayContaining(["index.js", "index.d.ts", "client.js", "openapi.d.ts"]));
    let built: string[] = [];
    try {
      built = readdirSync(DIST).sort();
    } catch {
      // absent: reported below as a difference
    }
    const stale = `packages/client/dist differs from a build of packages/client/src: run \`npm run build:client\``;
    expect(built, stale).toEqual(names);
    for (const name of names)
      expect(readFileSync(join(DIST, name), "utf8"), `${stale} (${name})`).toBe(readFileSync(join(fresh, name), "utf8"));
    // every relative import of the output names an emitted file (no `.ts` left for Node or a consumer's compiler)
    for (const name of names) {
      for (const [, spec] of readFileSync(join(fresh, name), "utf8").matchAll(/(?:from|import)\s*\(?\s*"(\.\.?\/[^"]+)"/g)) {
        expect(spec, `${name} imports ${spec}`).toMatch(/\.js$/);
        const target = spec!.replace(/^\.\//, "");
        // a type-only module (openapi) exists as its declaration only
        expect(names.includes(target) || names.includes(target.replace(/\.js$/, ".d.ts")), `${name} imports ${spec}`).toBe(true);
      }
    }
  });

  it("the built core imports nothing Node-only: a browser bundle of dist/index.js needs no Node built-in", async () => {
    for (const name of readdirSync(DIST).filter((f) => f.endsWith(".js"))) {
      const text = readFileSync(join(DIST, name), "utf8");
      expect(text, name).not.toMatch(/from\s*"node:|import\s*\(\s*"node:|require\(|\bBuffer\b/);
      if (name !== "env.js") expect(text, name).not.toMatch(/\bprocess\./);
    }
    // The browser platform has no Node built-ins: esbuild fails on any `node:` or built-in import (fs, crypto, …)
    // reached from the entry, the dependencies (openapi-fetch, standardwebhooks) included.
    const bundle = await build({
      entryPoints: [join(DIST, "index.js")],
      bundle: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      write: false,
      metafile: true,
      logLevel: "silent",
    });
    const inputs = Object.keys(bundle.metafile.inputs);
    expect(inputs.some((f) => f.startsWith("node:"))).toBe(false);
    expect(inputs.filter((f) => f.includes("packages/client/")).every((f) => f.includes("packages/client/dist/"))).toBe(true);
  });

  it("a NodeNext TypeScript project typechecks against the published declarations", { timeout: 120_000 }, () => {
    const project = join(scratch, "consumer");
    mkdirSync(join(project, "node_modules", "@svc"), { recursive: true });
    // as `npm install <path>` links a local package
    symlinkSync(PKG, join(project, "node_modules", "@svc", "client"), "dir");
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          lib: ["ES2022", "DOM"],
          types: [],
          strict: true,
          noEmit: true,
          // the declarations themselves are checked, not only their use
          skipLibCheck: false,
        },
        files: ["index.ts"],
      }),
    );
    writeFileSync(
      join(project, "index.ts"),
      [
        'import { createSvcClient, SvcError, type Job, type paths } from "@svc/client";',
        'const svc = createSvcClient({ apiKey: "k", baseUrl: "http://127.0.0.1:1" });',
        "export async function run(): Promise<string> {",
        '  const { job } = await svc.signAndWait({ assetId: "ast_x", recipeId: "rcp_system_sign_only" });',
        '  const state: Job["state"] = job.state;',
        '  const path: keyof paths = "/v1/jobs/{job_id}";',
        "  try { await svc.verify(new Blob([])); } catch (e) { if (e instanceof SvcError) return e.code; }",
        '  return state + " " + path;',
        "}",
        "// a wrong use must fail: the types are real, not any",
        "// @ts-expect-error",
        "svc.sign({ assetId: 1 });",
        "",
      ].join("\n"),
    );
    const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
    const run = spawnSync(process.execPath, [tsc, "-p", project], { encoding: "utf8" });
    expect(run.status, run.stdout + run.stderr).toBe(0);
  });
});
