/**
 * #19: a verification's reduced decode is written into the isolate's reused RGBA buffer (verify-pixels.ts
 * ImageBufferLease), not a fresh one. Checked: a lease reuses the idle buffer and two leases at once never share one;
 * a buffer over the pooled size is never kept; and nothing of one measurement's image reaches the next: after the
 * idle buffers are filled with garbage (or hold a larger image), every fact of a measurement is the one fresh
 * buffers give, and the decode and the query windows' image are byte for byte a fresh read's (a decode writes every
 * byte it hands on; readWholeImage refuses a buffer of the wrong size; boxReduce copies its whole plane).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readWholeImage } from "../../../src/media/codecs/rows.ts";
import { IsccImageFingerprinter, PdqFingerprinter } from "../../../src/media/fingerprint/index.ts";
import type { ImageServices, RowSource } from "../../../src/media/types.ts";
import { WasmWatermarker } from "../../../src/media/watermark/kernel.ts";
import { measureImagePixels } from "../../../src/verifications/pixel-facts.ts";
import { ImageBufferLease, verifyPixels } from "../../../src/verifications/verify-pixels.ts";
import { nodeImageCodec } from "../../support/node-codec.ts";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const Module = WebAssembly.Module as unknown as new (bytes: Uint8Array) => WebAssembly.Module;
const fingerprintModule = new Module(readFileSync(join(ROOT, "wasm", "build", "fingerprint.wasm")));
const pdq = new PdqFingerprinter(fingerprintModule);
const services: ImageServices = {
  codec: nodeImageCodec(),
  watermarker: new WasmWatermarker(new Module(readFileSync(join(ROOT, "wasm", "build", "watermark.wasm")))),
  fingerprinters: new Map<string, PdqFingerprinter | IsccImageFingerprinter>([
    ["pdq", pdq],
    ["iscc-image", new IsccImageFingerprinter(fingerprintModule)],
  ]),
};
const fixture = (path: string) => new Uint8Array(readFileSync(join(ROOT, "test", "fixtures", path)));
const PHOTO = fixture("media/photo-bridge.jpg"); // 1600 x 1004: read at 1/2, 800 x 502
const SAMPLE = fixture("media/sample.jpg"); // small: read at full size

/** The facts of `bytes` measured on a fresh buffer (the pool emptied first: a lease taken and kept). */
async function freshFacts(bytes: Uint8Array) {
  const held = new ImageBufferLease();
  held.take(4 * 1024 * 1024); // takes the idle buffer, if any, so the measurement below allocates its own
  const facts = await measureImagePixels(services, bytes, "image/jpeg");
  return { facts, held };
}

/** Leaves the isolate's idle buffers (one per size, each at least that long) filled with 0xa5. */
function poisonIdle(...sizes: number[]): void {
  const leases = sizes.map(() => new ImageBufferLease());
  leases.forEach((lease, i) => lease.take(sizes[i]!).fill(0xa5));
  for (const lease of leases) lease.release();
}
/** The photograph's decode (800 x 502) and its query windows' image (400 x 251), both leased by a measurement. */
const PHOTO_BUFFERS = [800 * 502 * 4, 400 * 251 * 4];

describe("ImageBufferLease", () => {
  it("reuses the idle buffer, never hands one buffer to two leases at once, and keeps none over the pooled size", () => {
    const a = new ImageBufferLease();
    const first = a.take(1000);
    expect(first.length).toBe(1000);
    a.release();
    const b = new ImageBufferLease();
    const c = new ImageBufferLease();
    const again = b.take(800);
    expect(again.buffer).toBe(first.buffer); // the idle one, reused
    expect(again.length).toBe(800);
    const other = c.take(800);
    expect(other.buffer).not.toBe(first.buffer); // b holds it: c gets its own
    b.release();
    c.release();
    const big = new ImageBufferLease();
    const huge = big.take(4 * 1024 * 1024 + 4);
    big.release();
    const d = new ImageBufferLease();
    expect(d.take(100).buffer).not.toBe(huge.buffer);
    d.release();
  });

  it("refuses a buffer of another length than the image's", () => {
    const source: RowSource = { width: 2, height: 2, read: () => ({ status: "read" }) };
    const r = readWholeImage(source, 1, () => new Uint8Array(15));
    expect(r.status).toBe("failed");
  });

  it("gives every fact a fresh buffer gives, after the idle buffer held garbage or a larger image", async () => {
    const { facts: photo, held: h1 } = await freshFacts(PHOTO);
    const { facts: sample, held: h2 } = await freshFacts(SAMPLE);
    h1.release();
    h2.release();
    expect(photo.status).toBe("decoded");
    expect(sample.status).toBe("decoded");
    // garbage in the reused buffers (the decode's and the query windows' image's)
    poisonIdle(...PHOTO_BUFFERS);
    expect(await measureImagePixels(services, PHOTO, "image/jpeg")).toEqual(photo);
    poisonIdle(...PHOTO_BUFFERS);
    expect(await measureImagePixels(services, SAMPLE, "image/jpeg")).toEqual(sample);
    // a larger image's pixels left in it, then the smaller one, then the larger again
    expect(await measureImagePixels(services, PHOTO, "image/jpeg")).toEqual(photo);
    expect(await measureImagePixels(services, SAMPLE, "image/jpeg")).toEqual(sample);
    expect(await measureImagePixels(services, PHOTO, "image/jpeg")).toEqual(photo);
  });

  it("decodes into the leased buffer exactly the image a fresh one gives", async () => {
    const fresh = await verifyPixels(services, PHOTO, "image/jpeg");
    poisonIdle(...PHOTO_BUFFERS);
    const lease = new ImageBufferLease();
    const leased = await verifyPixels(services, PHOTO, "image/jpeg", lease.take);
    if (fresh.status !== "decoded" || leased.status !== "decoded") throw new Error("not decoded");
    expect(leased.pixels.full.width).toBe(800);
    expect(Buffer.from(leased.pixels.full.data).equals(Buffer.from(fresh.pixels.full.data))).toBe(true);
    lease.release();
  });
});
