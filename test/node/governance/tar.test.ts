import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BLOCK, readTar, tarEnd, tarHeader, tarPadding } from "../../../src/governance/exports/tar";

function archiveOf(members: { name: string; bytes: Uint8Array }[]): Uint8Array {
  const parts = members.flatMap((m) => [tarHeader(m.name, m.bytes.length, Date.UTC(2026, 10, 25)), m.bytes, tarPadding(m.bytes.length)]);
  parts.push(tarEnd());
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

describe("ustar writer (governance exports)", () => {
  const members = [
    { name: "records/assets/000001.jsonl", bytes: new TextEncoder().encode('{"id":"ast_abcdefghij234567"}\n') },
    { name: "objects/aob_abcdefghij234567", bytes: new Uint8Array(BLOCK * 2 + 17).map((_, i) => i & 0xff) },
    { name: "empty", bytes: new Uint8Array(0) },
  ];

  it("writes block-aligned members that read back byte for byte", () => {
    const archive = archiveOf(members);
    expect(archive.length % BLOCK).toBe(0);
    expect(readTar(archive)).toEqual(members);
  });

  it("is read by the system tar (a POSIX ustar archive, checksums valid)", () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-tar-"));
    const file = join(dir, "a.tar");
    writeFileSync(file, archiveOf(members));
    const listing = execFileSync("tar", ["-tvf", file], { encoding: "utf8" });
    for (const m of members) expect(listing).toContain(m.name);
    execFileSync("tar", ["-xf", file, "-C", dir]);
    expect(new Uint8Array(readFileSync(join(dir, members[1]!.name)))).toEqual(members[1]!.bytes);
  });

  it("refuses names it cannot store portably", () => {
    expect(() => tarHeader("x".repeat(101), 1, 0)).toThrow(TypeError);
    expect(() => tarHeader("a b", 1, 0)).toThrow(TypeError);
    expect(() => tarHeader("ok", -1, 0)).toThrow(TypeError);
  });
});
