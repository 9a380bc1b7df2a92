import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { prng } from "../../support/prng";
import { api, createTenant, fixture, json, sha256HexOf, waitForJob } from "../support/helpers";
import { signedCopy } from "../support/verify-helpers";

/**
 * Hostile media over the public HTTP API and the queue consumer (#22): every media type the service reads, signed and
 * unsigned, broken in seeded ways — truncated, bit-flipped, a length or box-size field inflated to the top of its
 * range, dimensions set huge in a small file (a PNG IHDR with its CRC recomputed, a JPEG SOF), a file spliced into
 * itself — then verified (`POST /v1/verify`, multipart, each from its own address) and, for a sample, uploaded and
 * signed. Every verify answers a verdict or the envelope (never a 5xx); every signing job reaches a terminal state
 * (completed, or failed/rejected with an error code) — never left running. CI runs 240 (and 12 jobs);
 * `npm run campaign` 2,400 (and 120).
 */
const bindings = env as unknown as { CAMPAIGN_INPUTS?: string; CAMPAIGN_SEED?: string };
const SCALE = Number(bindings.CAMPAIGN_INPUTS ?? 1000) / 1000;
const SEED = Number(bindings.CAMPAIGN_SEED ?? 22);
const VERIFIES = Math.round(240 * SCALE);
const JOBS = Math.round(12 * SCALE);

const SOURCES: [string, string][] = [
  ["sample.jpg", "image/jpeg"],
  ["sample.png", "image/png"],
  ["sample.webp", "image/webp"],
  ["sample.avif", "image/avif"],
  ["sample.tif", "image/tiff"],
  ["sample.heic", "image/heic"],
  ["sample.gif", "image/gif"],
  ["sample.mp4", "video/mp4"],
  ["sample.mov", "video/quicktime"],
  ["sample.mp3", "audio/mpeg"],
  ["sample.wav", "audio/wav"],
  ["sample.flac", "audio/flac"],
  ["sample.m4a", "audio/mp4"],
  ["sample.pdf", "application/pdf"],
  ["sample.svg", "image/svg+xml"],
];

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** One seeded break of `input` (a fresh copy). */
function breakMedia(input: Uint8Array, rand: () => number): { bytes: Uint8Array; how: string } {
  const bytes = input.slice();
  const view = new DataView(bytes.buffer);
  switch (Math.floor(rand() * 7)) {
    case 0: {
      const keep = Math.max(1, Math.floor(bytes.length * rand()));
      return { bytes: bytes.slice(0, keep), how: `truncated to ${keep}` };
    }
    case 1: {
      const flips = 1 + Math.floor(rand() * 24);
      for (let i = 0; i < flips; i++) bytes[Math.floor(rand() * bytes.length)]! ^= 1 << Math.floor(rand() * 8);
      return { bytes, how: `${flips} bits flipped` };
    }
    case 2: {
      // A 32-bit big-endian field holding a small length (a box size, a chunk length) inflated to the top.
      const candidates: number[] = [];
      for (let i = 0; i + 4 <= Math.min(bytes.length, 4096); i++) {
        const v = view.getUint32(i);
        if (v >= 8 && v < bytes.length) candidates.push(i);
      }
      if (candidates.length === 0) return { bytes, how: "unchanged" };
      const at = candidates[Math.floor(rand() * candidates.length)]!;
      view.setUint32(at, rand() < 0.5 ? 0xfffffff0 : rand() < 0.5 ? 1 : 0);
      return { bytes, how: `u32 at ${at} inflated` };
    }
    case 3: {
      // Huge dimensions in a small file: PNG IHDR (CRC recomputed, so only the size is wrong) or a JPEG SOF.
      if (bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) {
        view.setUint32(16, 0x7fff0000 + Math.floor(rand() * 0xffff));
        view.setUint32(20, 0x7fff0000);
        view.setUint32(29, crc32(bytes.subarray(12, 29)));
        return { bytes, how: "PNG IHDR 2^31 x 2^31" };
      }
      for (let i = 2; i + 9 < bytes.length; i++) {
        if (bytes[i] === 0xff && (bytes[i + 1] === 0xc0 || bytes[i + 1] === 0xc2)) {
          view.setUint16(i + 5, 65500);
          view.setUint16(i + 7, 65500);
          return { bytes, how: "JPEG SOF 65500 x 65500" };
        }
      }
      return { bytes: bytes.slice(0, Math.max(1, bytes.length >> 1)), how: "halved" };
    }
    case 4: {
      const at = Math.floor(rand() * bytes.length);
      const out = new Uint8Array(bytes.length * 2);
      out.set(bytes.subarray(0, at));
      out.set(bytes, at);
      out.set(bytes.subarray(at), at + bytes.length);
      return { bytes: out, how: `spliced into itself at ${at}` };
    }
    case 5: {
      const at = Math.floor(rand() * bytes.length);
      const len = Math.min(bytes.length - at, 1 + Math.floor(rand() * 512));
      bytes.fill(rand() < 0.5 ? 0 : 0xff, at, at + len);
      return { bytes, how: `${len} bytes blanked at ${at}` };
    }
    default: {
      const noise = new Uint8Array(1 + Math.floor(rand() * 4096));
      for (let i = 0; i < noise.length; i++) noise[i] = Math.floor(rand() * 256);
      noise.set(bytes.subarray(0, Math.min(16, bytes.length, noise.length)));
      return { bytes: noise, how: "the magic bytes, then noise" };
    }
  }
}

describe("campaign: hostile media through verification and signing", () => {
  it(`${VERIFIES} broken files verified: a verdict or the envelope, never a 5xx`, async () => {
    const { key } = await createTenant({ name: "hostile media" });
    const seeds: Uint8Array[] = [];
    for (const [name, type] of SOURCES) {
      seeds.push(fixture(name));
      if (type === "image/jpeg" || type === "image/png") seeds.push((await signedCopy(key, fixture(name), type)).bytes);
    }
    const rand = prng(SEED);
    const failures: string[] = [];
    const statuses = new Map<string, number>();
    for (let n = 0; n < VERIFIES; n++) {
      const { bytes, how } = breakMedia(seeds[n % seeds.length]!, rand);
      const form = new FormData();
      form.append("file", new File([bytes], "f"));
      const keyed = rand() < 0.5;
      const answer = await exports.default.fetch(
        new Request("http://svc.test/v1/verify", {
          method: "POST",
          body: form,
          headers: { "cf-connecting-ip": `10.22.${n >> 8}.${n & 255}`, ...(keyed ? { authorization: `Bearer ${key}` } : {}) },
        }),
      );
      const text = await answer.text();
      let bucket = `${answer.status}`;
      try {
        const body = JSON.parse(text);
        bucket += answer.status >= 400 ? ` ${body.code}` : ` ${body.status ?? body.result?.status ?? ""}`;
        if (answer.status >= 400 && typeof body.code !== "string") failures.push(`#${n} ${how}: ${answer.status} without a code`);
      } catch {
        failures.push(`#${n} ${how}: ${answer.status} not JSON`);
      }
      if (answer.status >= 500) failures.push(`#${n} ${how}: ${answer.status} ${text.slice(0, 160)}`);
      statuses.set(bucket, (statuses.get(bucket) ?? 0) + 1);
    }
    console.log(
      `hostile media: ${VERIFIES} verifications (seed ${SEED})\n${[...statuses.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([k, c]) => `${String(c).padStart(5)}  ${k}`)
        .join("\n")}`,
    );
    expect(failures).toEqual([]);
  }, 600_000);

  it(`${JOBS} broken files uploaded and signed: every job ends, completed or refused with a code`, async () => {
    const { key } = await createTenant({ name: "hostile signing" });
    const rand = prng(SEED + 1);
    const failures: string[] = [];
    const ends = new Map<string, number>();
    for (let n = 0; n < JOBS; n++) {
      const [name, type] = SOURCES[n % SOURCES.length]!;
      const { bytes, how } = breakMedia(fixture(name), rand);
      const created = await api("/v1/uploads", {
        method: "POST",
        key,
        body: { byte_length: bytes.length, declared_media_type: type, mode: "single", sha256: await sha256HexOf(bytes) },
      });
      if (created.status !== 201) {
        ends.set(`upload ${created.status}`, (ends.get(`upload ${created.status}`) ?? 0) + 1);
        if (created.status >= 500) failures.push(`#${n} ${name} ${how}: upload ${created.status}`);
        continue;
      }
      const upload = await json(created);
      const put = await exports.default.fetch(
        new Request(upload.upload.url, { method: upload.upload.method, headers: upload.upload.headers, body: bytes }),
      );
      if (put.status !== 200) failures.push(`#${n} ${name} ${how}: put ${put.status}`);
      const completed = await api(`/v1/uploads/${upload.upload_id}/complete`, {
        method: "POST",
        key,
        body: {},
        headers: { "idempotency-key": crypto.randomUUID() },
      });
      if (completed.status !== 200) {
        const bucket = `complete ${completed.status} ${(await json(completed)).code}`;
        ends.set(bucket, (ends.get(bucket) ?? 0) + 1);
        if (completed.status >= 500) failures.push(`#${n} ${name} ${how}: ${bucket}`);
        continue;
      }
      const signed = await api("/v1/sign", {
        method: "POST",
        key,
        body: { asset_id: upload.asset_id, recipe_id: "rcp_system_sign" },
        headers: { "idempotency-key": crypto.randomUUID() },
      });
      const body = await json(signed);
      if (signed.status >= 500) failures.push(`#${n} ${name} ${how}: sign ${signed.status}`);
      if (signed.status !== 202) {
        const bucket = `sign ${signed.status} ${body.code}`;
        ends.set(bucket, (ends.get(bucket) ?? 0) + 1);
        continue;
      }
      const job = await waitForJob(key, body.job_id);
      const bucket = `job ${job.state}${job.error_code ? ` ${job.error_code}` : ""}`;
      ends.set(bucket, (ends.get(bucket) ?? 0) + 1);
      if (!["completed", "failed", "rejected"].includes(job.state)) failures.push(`#${n} ${name} ${how}: job left ${job.state}`);
      if (job.state !== "completed" && !job.error_code) failures.push(`#${n} ${name} ${how}: ${job.state} without an error code`);
    }
    console.log(
      `hostile signing: ${JOBS} uploads (seed ${SEED + 1})\n${[...ends.entries()].map(([k, c]) => `${String(c).padStart(5)}  ${k}`).join("\n")}`,
    );
    expect(failures).toEqual([]);
  }, 600_000);
});
