import { describe, expect, it } from "vitest";
import { createTenant, fixture } from "../support/helpers";
import { optIn, signAndCharge, topUp } from "./wallet-helpers";

/*
 * A job is priced by its upload's inspected duration (billing/metering.ts takes the stored inspection). A FLAC whose
 * STREAMINFO total was patched smaller (flac -t still passes it; test/node/media/duration-honesty.test.ts) is
 * inspected, and so charged, as long as its frames play: the same as the unpatched file, not what STREAMINFO says.
 */

const FLAC = import.meta.glob(["../../fixtures/audio/flac-frames/fixed.flac"], {
  query: "?inline",
  import: "default",
  eager: true,
}) as Record<string, string>;
const bytesOf = (url: string) => Uint8Array.from(atob(url.slice(url.indexOf(",") + 1)), (c) => c.charCodeAt(0));

/** STREAMINFO's body offset in a bare FLAC (`fLaC`, then the STREAMINFO block header). */
const SI = 8;

function withTotal(flac: Uint8Array, total: number): Uint8Array {
  const out = flac.slice();
  out[SI + 13] = out[SI + 13]! & 0xf0;
  new DataView(out.buffer).setUint32(SI + 14, total);
  return out;
}

describe("a job's metered duration is what the frames play", () => {
  it("a FLAC whose STREAMINFO claims 4096 samples is charged as the unpatched file", { timeout: 120_000 }, async () => {
    const honest = bytesOf(Object.values(FLAC)[0]!);
    expect(String.fromCharCode(...honest.subarray(0, 4))).toBe("fLaC");
    const t = await createTenant();
    await optIn(t.key);
    await topUp(t.tenantId, 10_000_000);
    const real = await signAndCharge(t.key, honest, "audio/flac");
    const patched = await signAndCharge(t.key, withTotal(honest, 4096), "audio/flac");
    const seconds = real.job.media_inspection.duration_seconds;
    expect(seconds).toBeGreaterThan(2);
    // What STREAMINFO claims would be 4096 samples (< 0.1 s at the file's rate).
    expect(patched.job.media_inspection.duration_seconds).toBe(seconds);
    const perSecond = (c: { lines: { unit: string; quantity: string }[] }) => c.lines.find((l) => l.unit === "second");
    expect(perSecond(real.charge)?.quantity).toBe(String(seconds));
    expect(perSecond(patched.charge)?.quantity).toBe(String(seconds));
    expect(patched.charge.amount_usd).toBe(real.charge.amount_usd);
  });
});

describe("a fragmented M4A is charged on what its fragments carry", () => {
  it("sample-fragmented.m4a: mvhd states its first fragment (1.022 s), the job is charged its 3.023 s", { timeout: 120_000 }, async () => {
    const bytes = fixture("sample-fragmented.m4a");
    const t = await createTenant();
    await optIn(t.key);
    await topUp(t.tenantId, 10_000_000);
    const { job, charge } = await signAndCharge(t.key, bytes, "audio/mp4");
    // ffprobe: 3.023220 s (3 s of AAC and its 1024 priming samples in 1 s fragments).
    expect(job.media_inspection.duration_seconds).toBe(3.023);
    const perSecond = charge.lines.find((l: { unit: string }) => l.unit === "second");
    expect(perSecond?.quantity).toBe("3.023");
  });
});
