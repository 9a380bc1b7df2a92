import { describe, expect, it } from "vitest";
import { createTenant, fixture } from "../support/helpers";
import { optIn, signAndCharge, topUp } from "./wallet-helpers";

/*
 * Through the upload, sign and charge routes: an M4A whose edit list repeats its one segment 3 times plays 3 s
 * (FFmpeg presents each segment: ffprobe's packets run to 3.0 s) while its media holds 1 s. With mvhd, tkhd and mdhd
 * patched to 1 tick it was charged 1 s (the edit list was read as a cut of the media, never more than it).
 */

/** sample.m4a (moov before mdat, one track, one elst entry) with that entry 3 times and its stated durations 1 tick. */
function repeatedEdits(m4a: Uint8Array): Uint8Array {
  const view = new DataView(m4a.buffer, m4a.byteOffset, m4a.byteLength);
  const found: Record<string, number> = {};
  const parents: number[] = [];
  const walk = (start: number, end: number, path: number[]) => {
    for (let at = start; at + 8 <= end; ) {
      const size = view.getUint32(at);
      const type = String.fromCharCode(...m4a.subarray(at + 4, at + 8));
      found[type] ??= at;
      if (type === "elst") parents.push(...path);
      if (["moov", "trak", "mdia", "minf", "stbl", "edts"].includes(type)) walk(at + 8, at + size, [...path, at]);
      at += size;
    }
  };
  walk(0, m4a.length, []);
  const elst = found.elst!;
  expect(view.getUint32(elst + 12)).toBe(1);
  const entry = m4a.slice(elst + 16, elst + 28);
  const out = new Uint8Array(m4a.length + 24);
  out.set(m4a.subarray(0, elst + 28));
  out.set(entry, elst + 28);
  out.set(entry, elst + 40);
  out.set(m4a.subarray(elst + 28), elst + 52);
  const o = new DataView(out.buffer);
  for (const p of [...parents, elst]) o.setUint32(p, o.getUint32(p) + 24);
  o.setUint32(elst + 12, 3);
  // The chunk offsets move with mdat (stco after the inserted bytes).
  const stco = found.stco! + 24;
  for (let i = 0; i < o.getUint32(stco + 12); i++) o.setUint32(stco + 16 + i * 4, o.getUint32(stco + 16 + i * 4) + 24);
  o.setUint32(found.mvhd! + 8 + 16, 1);
  o.setUint32(found.tkhd! + 8 + 20, 1);
  o.setUint32(found.mdhd! + 24 + 8 + 16, 1);
  return out;
}

describe("an edit list presenting its media 3 times", () => {
  it("is charged the 3 s it plays, not the 1 s of media", { timeout: 120_000 }, async () => {
    const bytes = repeatedEdits(fixture("sample.m4a"));
    const t = await createTenant();
    await optIn(t.key);
    await topUp(t.tenantId, 10_000_000);
    const { job, charge } = await signAndCharge(t.key, bytes, "audio/mp4");
    expect(job.media_inspection.duration_seconds).toBe(3);
    expect(charge.lines.find((l: { unit: string }) => l.unit === "second")?.quantity).toBe("3");
  });
});
