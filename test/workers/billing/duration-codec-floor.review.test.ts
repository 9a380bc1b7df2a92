import { describe, expect, it } from "vitest";
import { createTenant } from "../support/helpers";
import { optIn, signAndCharge, topUp } from "./wallet-helpers";

/*
 * Through the upload, sign and charge routes: an M4A without an edit list whose every `stts` delta is patched to 1
 * tick and whose stated durations (mvhd, tkhd, mdhd) are 1 tick plays what its AAC frames decode to (15 s here:
 * FFmpeg decodes the patched file to 15.02 s) and was charged 0.01 s (container timing only). Its codec floor
 * (frames × 1024 / 44.1 kHz, less 3 frames) now bills it at least 14.9 s.
 */

const M4A = import.meta.glob(["../../fixtures/audio/speech-music-96k.m4a"], { query: "?inline", import: "default", eager: true }) as Record<
  string,
  string
>;
const AC3 = import.meta.glob(["../../fixtures/audio/speech-music-ac3-640k.mp4"], {
  query: "?inline",
  import: "default",
  eager: true,
}) as Record<string, string>;
const bytesOf = (url: string) => Uint8Array.from(atob(url.slice(url.indexOf(",") + 1)), (c) => c.charCodeAt(0));

const CONTAINERS = ["moov", "trak", "mdia", "minf", "stbl"];

/** The edit list dropped (its `edts` renamed `free`, as `-use_editlist 0` writes none), stts deltas and durations 1. */
function attack(m4a: Uint8Array): Uint8Array {
  const b = m4a.slice();
  const v = new DataView(b.buffer);
  const walk = (start: number, end: number) => {
    for (let at = start; at + 8 <= end; ) {
      const size = v.getUint32(at);
      const type = String.fromCharCode(...b.subarray(at + 4, at + 8));
      const body = at + 8;
      if (type === "edts") b.set([0x66, 0x72, 0x65, 0x65], at + 4);
      if (type === "stts") for (let i = 0; i < v.getUint32(body + 4); i++) v.setUint32(body + 12 + i * 8, 1);
      if (type === "mvhd" || type === "mdhd") b[body] === 1 ? v.setBigUint64(body + 24, 1n) : v.setUint32(body + 16, 1);
      if (type === "tkhd") b[body] === 1 ? v.setBigUint64(body + 28, 1n) : v.setUint32(body + 20, 1);
      if (CONTAINERS.includes(type)) walk(body, at + size);
      if (size < 8) break;
      at += size;
    }
  };
  walk(0, b.length);
  return b;
}

describe("an M4A whose stts deltas and stated durations are patched to 1 tick", () => {
  it("is charged what its AAC frames play, not 0.01 s", { timeout: 120_000 }, async () => {
    const bytes = attack(bytesOf(Object.values(M4A)[0]!));
    const t = await createTenant();
    await optIn(t.key);
    await topUp(t.tenantId, 10_000_000);
    const { job, charge } = await signAndCharge(t.key, bytes, "audio/mp4");
    const seconds = job.media_inspection.duration_seconds;
    expect(seconds).toBeGreaterThanOrEqual(14.9);
    expect(seconds).toBeLessThanOrEqual(15.02);
    expect(charge.lines.find((l: { unit: string }) => l.unit === "second")?.quantity).toBe(String(seconds));
  });
});

/*
 * The same patch on an AC-3 M4A (640 kb/s, 32 constant-size frames: FFmpeg decodes the patched file to 1.024 s) makes
 * its `stts` one entry of 1 tick, which FFmpeg demuxes by chunks: no codec floor held there, and it was charged its
 * ticks, 0.001 s. Its bytes over AC-3's highest byte rate (81,920 B ÷ 80,046 B/s) now bill it at least 1.023 s.
 */
describe("an AC-3 M4A patched into chunk form (one stts entry of 1 tick)", () => {
  it("is charged what its bytes play at AC-3's highest rate, not its ticks", { timeout: 120_000 }, async () => {
    const bytes = attack(bytesOf(Object.values(AC3)[0]!));
    const t = await createTenant();
    await optIn(t.key);
    await topUp(t.tenantId, 10_000_000);
    const { job, charge } = await signAndCharge(t.key, bytes, "audio/mp4");
    const seconds = job.media_inspection.duration_seconds;
    expect(seconds).toBeGreaterThanOrEqual(1.02);
    expect(seconds).toBeLessThanOrEqual(1.024);
    expect(charge.lines.find((l: { unit: string }) => l.unit === "second")?.quantity).toBe(String(seconds));
  });
});
