/**
 * Our audio watermark kernel (wasm/audiowm) inside workerd, from the `.wasm` imported as a module (workerd cannot
 * compile wasm from bytes): embed and detect a music-like clip, an excerpt of it, and the kernel's memory after a
 * minute of stereo audio. The Node suite has the full conformance (test/node/media/audio-watermark.conformance.test.ts).
 */
import { describe, expect, it } from "vitest";
import { WasmAudioWatermarker } from "../../../src/media/watermark/audio";
import audiowm from "../../../wasm/build/audiowm.wasm";
import { prng } from "../../support/prng";

const KEY = new TextEncoder().encode("workerd-test-key");
const PAYLOAD = Uint8Array.from([1, 2, 3, 4, 250, 251, 252, 253]);

/** Harmonic tones with envelopes over a noise floor, seeded (a compact cousin of the Node suite's generator). */
function clip(seed: number, seconds: number, rate: number, channels: number): Int16Array {
  const rnd = prng(seed);
  const n = Math.round(seconds * rate);
  const out = new Int16Array(n * channels);
  const noteLen = Math.round(rate * (0.2 + rnd() * 0.3));
  let f = 220;
  for (let i = 0; i < n; i++) {
    if (i % noteLen === 0) f = 110 * 2 ** (Math.floor(rnd() * 24) / 12);
    const t = (i % noteLen) / rate;
    const env = Math.min(1, t * 60) * Math.exp(-t * 3);
    let s = 0;
    for (let h = 1; h <= 10; h++) s += (0.7 ** h / h) * Math.sin((2 * Math.PI * f * h * i) / rate);
    const v = 9000 * env * s + 400 * (rnd() * 2 - 1);
    for (let c = 0; c < channels; c++) out[i * channels + c] = Math.round(v);
  }
  return out;
}

describe("svc-awm-stdm-1 in workerd", { timeout: 120_000 }, () => {
  const wm = new WasmAudioWatermarker(audiowm);

  it("embeds and detects the payload, also from a 10-s excerpt", () => {
    const pcm = clip(3, 14, 44100, 2);
    const e = wm.embed({ pcm, sampleRate: 44100, channels: 2, payload: PAYLOAD, key: KEY });
    expect(e.status).toBe("embedded");
    if (e.status !== "embedded") return;
    expect(e.snr_db).toBeGreaterThanOrEqual(30);
    const d = wm.detect({ pcm: e.pcm, sampleRate: 44100, channels: 2, key: KEY });
    expect(d.status).toBe("detected");
    if (d.status === "detected") expect(Array.from(d.payload)).toEqual(Array.from(PAYLOAD));
    const a = Math.round(2.71 * 44100) * 2;
    const excerpt = e.pcm.slice(a, a + 10 * 44100 * 2);
    const x = wm.detect({ pcm: excerpt, sampleRate: 44100, channels: 2, key: KEY });
    expect(x.status).toBe("detected");
    expect(wm.detect({ pcm, sampleRate: 44100, channels: 2, key: KEY }).status).toBe("not_detected");
    expect(wm.detect({ pcm: new Int16Array(3), sampleRate: 44100, channels: 2, key: KEY }).status).toBe("failed");
  });

  it("keeps its memory bounded: a minute of stereo 44.1 kHz", () => {
    const pcm = clip(4, 60, 44100, 2);
    const e = wm.embed({ pcm, sampleRate: 44100, channels: 2, payload: PAYLOAD, key: KEY });
    expect(e.status).toBe("embedded");
    // the canonical signal and its residual (64 KB per second each) plus ~3 MB of tables and buffers
    expect(wm.kernelMemoryBytes).toBeLessThan(12 * 2 ** 20);
  });
});
