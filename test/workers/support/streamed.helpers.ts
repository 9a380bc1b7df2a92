import { wavOf, withMdat } from "../../support/stream-media";
import { api, fixture, json } from "./helpers";

/* Large files and the verification poll shared by the streamed-verification tests (verify-streamed.*). */

/** Deterministic noise (xorshift): the bytes of a large file no codec needs to decode. */
export function noise(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** sample.mp4 followed by a top-level `mdat` of noise: a valid BMFF file of `total` bytes. */
export function largeMp4(total: number, seed = 7): Uint8Array {
  const base = fixture("sample.mp4");
  const extra = total - base.length - 8;
  const out = withMdat(base, extra);
  out.set(noise(extra, seed), base.length + 8);
  return out;
}

/** A 16-bit stereo 48 kHz PCM WAV of about `total` bytes (a low tone with noise, so it has content). */
export function largeWav(total: number): Uint8Array {
  const dataBytes = (total - 44) & ~3;
  const out = wavOf(dataBytes);
  const v = new DataView(out.buffer);
  const n = noise(dataBytes / 2, 11);
  for (let i = 0; i < dataBytes / 2; i++) v.setInt16(44 + i * 2, Math.round(8000 * Math.sin((i >> 1) / 30) + (n[i]! - 128) * 20), true);
  return out;
}

/** POST /v1/verifications of a stored object (a fresh idempotency key). */
export const startVerification = (key: string, objectId: string) =>
  api("/v1/verifications", { method: "POST", key, body: { object_id: objectId }, headers: { "idempotency-key": crypto.randomUUID() } });

/** Polls a verification until it is completed or failed (hang guard: 60 s). */
export async function waitForVerification(key: string, id: string) {
  for (let i = 0; i < 240; i++) {
    const body = await json(await api(`/v1/verifications/${id}`, { key }));
    if (body.state === "completed" || body.state === "failed") return body;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("verification did not finish");
}
