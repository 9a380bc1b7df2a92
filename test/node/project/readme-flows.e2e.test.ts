import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURES, type SignedService, startSignedService } from "../../support/svc-client";

/**
 * The README's typical flow, three ways (#21): the blocks marked `<!-- readme-flow: curl|sdk|cli -->` run exactly
 * as written against the real Worker bundle, from a directory holding `photo.jpg` and the `.svc/dev.env` that
 * `npm start` writes — so what the README shows is what works.
 */
const ROOT = join(import.meta.dirname, "..", "..", "..");
const README = readFileSync(join(ROOT, "README.md"), "utf8");
const BIN = join(ROOT, "node_modules", ".bin");

function block(name: string): string {
  const marker = `<!-- readme-flow: ${name} -->\n`;
  const at = README.indexOf(marker);
  expect(at, `README marker ${name}`).toBeGreaterThan(0);
  const fence = README.slice(at + marker.length);
  const start = fence.indexOf("\n") + 1;
  return fence.slice(start, fence.indexOf("\n```", start));
}

function sh(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      {
        cwd,
        env: { ...process.env, PATH: `${BIN}:${process.env.PATH ?? ""}`, NO_COLOR: "1", ...env },
        timeout: 180_000,
        maxBuffer: 16 << 20,
      },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out: stdout, err: stderr }),
    );
  });
}

let svc: SignedService;
let base: string;
let work: string;

beforeAll(async () => {
  svc = await startSignedService();
  base = new URL(String(await svc.worker.mf.ready)).origin;
  // Inside the repository, so `@svc/client` and `npx svc` resolve as they do for a reader of the README.
  mkdirSync(join(ROOT, "dist"), { recursive: true });
  work = mkdtempSync(join(ROOT, "dist", "readme-flow-"));
  mkdirSync(join(work, ".svc"));
  writeFileSync(join(work, ".svc", "dev.env"), `SVC_API_BASE_URL=${base}\nSVC_API_KEY=${svc.key}\n`);
  copyFileSync(join(FIXTURES, "sample.jpg"), join(work, "photo.jpg"));
}, 180_000);

afterAll(async () => {
  await svc?.dispose();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("#21 the README's typical flow, three ways", () => {
  it("curl: upload, complete, sign, poll, download with its hash checked, preview, receipt", async () => {
    const script = join(work, "flow.sh");
    writeFileSync(script, block("curl"));
    const r = await sh("bash", ["-euo", "pipefail", script], work);
    expect(r.code, r.err + r.out).toBe(0);
    expect(r.out).toMatch(/"state": "completed"/);
    expect(r.out).toMatch(/: OK$/m); // sha256sum -c of the download
    expect(readdirSync(work)).toContain("preview.jpg");
  }, 170_000);

  it("SDK: the same flow in TypeScript ends completed and verified", async () => {
    const file = join(work, "flow.mts");
    writeFileSync(file, block("sdk"));
    const r = await sh(join(BIN, "node"), ["--env-file=.svc/dev.env", "flow.mts"], work);
    expect(r.code, r.err + r.out).toBe(0);
    expect(r.out).toMatch(/^completed \S+\.jpg verified_manifest/m);
  });

  it("CLI: sign, verify in plain language and as JSON, list assets", async () => {
    const script = join(work, "cli.sh");
    writeFileSync(script, block("cli"));
    const r = await sh("bash", ["-euo", "pipefail", script], work);
    expect(r.code, r.err + r.out).toBe(0);
    expect(r.out).toMatch(/^verified_manifest$/m);
    expect(readdirSync(join(work, "signed")).filter((f) => f.endsWith(".jpg"))).toHaveLength(1);
  });
});
