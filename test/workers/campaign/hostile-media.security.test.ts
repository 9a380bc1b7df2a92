import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { prng } from "../../support/prng";
import { count, table } from "../../support/tally";
import { api, createTenant, fixture, json, sha256HexOf, waitForJob } from "../support/helpers";
import { signedCopy } from "../support/verify-helpers";

/**
 * Hostile media over the public HTTP API and the queue consumer (#22): every media type the service reads, signed and
 * unsigned, broken in seeded ways — truncated, bit-flipped, a length or box-size field inflated to the top of its
 * range, dimensions set huge in a small file (a PNG IHDR with its CRC recomputed, a JPEG SOF), a file spliced into
 * itself, and in the campaign seven more (bytes deleted, 16-bit fields at edge values, little-endian lengths, broken
 * box headers, a slice repeated a thousand times, the header alone, damage inside the C2PA store) — then verified
 * (`POST /v1/verify`, multipart, each from its own address) and, for a sample, uploaded and signed. Every verify
 * answers a verdict or the envelope (never a 5xx) within a bound; every signing job reaches a terminal state
 * (completed, or failed/rejected with an error code) — never left running.
 *
 * CI (CAMPAIGN_INPUTS ≤ 1000): 240 verifications and 12 jobs drawn at random from the first seven breaks, one request
 * at a time. `npm run campaign` (CAMPAIGN_INPUTS 10,000) enumerates classes instead of repeating draws: every media
 * fixture (and signed copies of seven formats) × every break, one seeded variant of each (a further one per 10,000
 * inputs above that, video excepted: its every verification decodes it), byte-identical inputs sent once; the 15
 * typed sources × every break uploaded and signed, several at a time. Reach grows with distinct classes, run time
 * with requests.
 */
const bindings = env as unknown as { CAMPAIGN_INPUTS?: string; CAMPAIGN_SEED?: string; TEST_FIXTURES: Record<string, string> };
const SCALE = Number(bindings.CAMPAIGN_INPUTS ?? 1000) / 1000;
const SEED = Number(bindings.CAMPAIGN_SEED ?? 22);
const CAMPAIGN = SCALE > 1;
const VERIFIES = Math.round(240 * SCALE);
const JOBS = Math.round(12 * SCALE);
/**
 * Campaign: seeded variants of each (seed file, break) class; 1 at 10,000 inputs (686 verifications and 210
 * signing uploads, about 3 minutes on the loaded 2-core machine). It found a bit-flipped TIFF whose LZW strip
 * looped utif2's decoder forever (now our bounded decoder, media/codecs/tiff-lzw.ts).
 */
const VARIANTS = Math.max(1, Math.round(SCALE / 10));
/** Campaign: requests in flight at once (the Worker waits on D1, R2 and the media Worker between CPU slices). */
const IN_FLIGHT = CAMPAIGN ? 4 : 1;
/** A verification slower than this counts as a hang. */
const ANSWER_BOUND_MS = 60_000;
const VIDEO = /\.(mp4|mov|avi)$/;

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

/** A seeded break: a fresh copy of `input` broken one way (the input is never modified). */
type Break = (input: Uint8Array, rand: () => number) => { bytes: Uint8Array; how: string };

/** Positions of 32-bit fields (big- or little-endian) holding a plausible length: a box size, a chunk length. */
function lengthFields(bytes: Uint8Array, littleEndian: boolean): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at: number[] = [];
  for (let i = 0; i + 4 <= Math.min(bytes.length, 4096); i++) {
    const v = view.getUint32(i, littleEndian);
    if (v >= 8 && v < bytes.length) at.push(i);
  }
  return at;
}

/** Where a C2PA store begins (its JUMBF `jumb` box or `c2pa` label), or -1. */
function manifestAt(bytes: Uint8Array): number {
  for (let i = 0; i + 4 <= bytes.length; i++) {
    if (bytes[i] === 0x6a && bytes[i + 1] === 0x75 && bytes[i + 2] === 0x6d && bytes[i + 3] === 0x62) return i; // jumb
    if (bytes[i] === 0x63 && bytes[i + 1] === 0x32 && bytes[i + 2] === 0x70 && bytes[i + 3] === 0x61) return i; // c2pa
  }
  return -1;
}

/**
 * The ways a file is broken. The first seven are the CI sample's (drawn at random, in this order, so its inputs are
 * those of every earlier run); the campaign enumerates all of them for every seed file.
 */
const BREAKS: [string, Break][] = [
  [
    "truncated",
    (input, rand) => {
      const keep = Math.max(1, Math.floor(input.length * rand()));
      return { bytes: input.slice(0, keep), how: `truncated to ${keep}` };
    },
  ],
  [
    "bits flipped",
    (input, rand) => {
      const bytes = input.slice();
      const flips = 1 + Math.floor(rand() * 24);
      for (let i = 0; i < flips; i++) bytes[Math.floor(rand() * bytes.length)]! ^= 1 << Math.floor(rand() * 8);
      return { bytes, how: `${flips} bits flipped` };
    },
  ],
  [
    "u32 BE length inflated",
    (input, rand) => {
      // A 32-bit big-endian field holding a small length (a box size, a chunk length) inflated to the top.
      const bytes = input.slice();
      const candidates = lengthFields(bytes, false);
      if (candidates.length === 0) return { bytes, how: "unchanged" };
      const at = candidates[Math.floor(rand() * candidates.length)]!;
      new DataView(bytes.buffer).setUint32(at, rand() < 0.5 ? 0xfffffff0 : rand() < 0.5 ? 1 : 0);
      return { bytes, how: `u32 at ${at} inflated` };
    },
  ],
  [
    "huge dimensions",
    (input, rand) => {
      // Huge dimensions in a small file: PNG IHDR (CRC recomputed, so only the size is wrong) or a JPEG SOF.
      const bytes = input.slice();
      const view = new DataView(bytes.buffer);
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
    },
  ],
  [
    "spliced into itself",
    (input, rand) => {
      const at = Math.floor(rand() * input.length);
      const out = new Uint8Array(input.length * 2);
      out.set(input.subarray(0, at));
      out.set(input, at);
      out.set(input.subarray(at), at + input.length);
      return { bytes: out, how: `spliced into itself at ${at}` };
    },
  ],
  [
    "bytes blanked",
    (input, rand) => {
      const bytes = input.slice();
      const at = Math.floor(rand() * bytes.length);
      const len = Math.min(bytes.length - at, 1 + Math.floor(rand() * 512));
      bytes.fill(rand() < 0.5 ? 0 : 0xff, at, at + len);
      return { bytes, how: `${len} bytes blanked at ${at}` };
    },
  ],
  [
    "magic then noise",
    (input, rand) => {
      const noise = new Uint8Array(1 + Math.floor(rand() * 4096));
      for (let i = 0; i < noise.length; i++) noise[i] = Math.floor(rand() * 256);
      noise.set(input.subarray(0, Math.min(16, input.length, noise.length)));
      return { bytes: noise, how: "the magic bytes, then noise" };
    },
  ],
  // The campaign's further classes.
  [
    "bytes deleted",
    (input, rand) => {
      // Every offset after the cut moves: lengths and box sizes now point into the wrong place.
      const at = Math.floor(rand() * input.length);
      const len = Math.min(input.length - at, 1 + Math.floor(rand() * Math.min(4096, Math.max(1, input.length >> 2))));
      const out = new Uint8Array(input.length - len);
      out.set(input.subarray(0, at));
      out.set(input.subarray(at + len), at);
      return { bytes: out, how: `${len} bytes deleted at ${at}` };
    },
  ],
  [
    "u16 BE field set",
    (input, rand) => {
      // JPEG segment lengths, PNG/TIFF counts, SOF sizes: 16-bit fields set to an edge value.
      const bytes = input.slice();
      const at = Math.floor(rand() * Math.max(1, Math.min(bytes.length, 4096) - 2));
      const value = [0, 1, 2, 0x7fff, 0xffff][Math.floor(rand() * 5)]!;
      if (at + 2 <= bytes.length) new DataView(bytes.buffer).setUint16(at, value);
      return { bytes, how: `u16 at ${at} set to ${value}` };
    },
  ],
  [
    "u32 LE length inflated",
    (input, rand) => {
      // RIFF chunk sizes (WAV, WebP, AVI) and TIFF offsets are little-endian.
      const bytes = input.slice();
      const candidates = lengthFields(bytes, true);
      if (candidates.length === 0) return { bytes: bytes.slice(0, Math.max(1, bytes.length - 1)), how: "last byte cut" };
      const at = candidates[Math.floor(rand() * candidates.length)]!;
      new DataView(bytes.buffer).setUint32(at, rand() < 0.5 ? 0xfffffff0 : rand() < 0.5 ? 1 : 0, true);
      return { bytes, how: `u32 LE at ${at} inflated` };
    },
  ],
  [
    "box header broken",
    (input, rand) => {
      // ISO BMFF and JUMBF boxes (MP4, MOV, AVIF, HEIC, M4A, the C2PA store): a size then a four-letter type.
      const bytes = input.slice();
      const view = new DataView(bytes.buffer);
      const boxes: number[] = [];
      for (let i = 0; i + 16 <= bytes.length && boxes.length < 4096; i++) {
        const printable = [4, 5, 6, 7].every((k) => bytes[i + k]! >= 0x61 && bytes[i + k]! <= 0x7a);
        const size = view.getUint32(i);
        if (printable && size >= 8 && size <= bytes.length - i) boxes.push(i);
      }
      if (boxes.length === 0) return { bytes: bytes.slice(0, Math.max(1, bytes.length >> 2)), how: "quartered" };
      const at = boxes[Math.floor(rand() * boxes.length)]!;
      const how = Math.floor(rand() * 4);
      if (how === 0) {
        // size 1: a 64-bit size follows, here far beyond the file
        view.setUint32(at, 1);
        view.setUint32(at + 8, 0xffffffff);
        view.setUint32(at + 12, 0xfffffff0);
      } else view.setUint32(at, [0, 4, 0xffffffff][how - 1]!);
      return { bytes, how: `box at ${at} sized ${["64-bit huge", "to end", "below its header", "2^32-1"][how]}` };
    },
  ],
  [
    "slice repeated",
    (input, rand) => {
      // A segment, box or chunk repeated many times in place: nesting and repetition a parser must bound.
      const at = Math.floor(rand() * input.length);
      const len = Math.min(input.length - at, 16 + Math.floor(rand() * 4096));
      const times = Math.max(2, Math.min(1000, Math.floor((2 * 1024 * 1024) / Math.max(1, len))));
      const out = new Uint8Array(input.length + len * times);
      out.set(input.subarray(0, at));
      for (let k = 0; k <= times; k++) out.set(input.subarray(at, at + len), at + k * len);
      out.set(input.subarray(at + len), at + (times + 1) * len);
      return { bytes: out, how: `${len} bytes at ${at} repeated ${times} times` };
    },
  ],
  [
    "header only",
    (input, rand) => {
      const keep = Math.min(input.length, 4 + Math.floor(rand() * 60));
      return { bytes: input.slice(0, keep), how: `the first ${keep} bytes` };
    },
  ],
  [
    "manifest damaged",
    (input, rand) => {
      // Inside the C2PA store (JUMBF boxes, CBOR claims) when the file has one: cut there, or bits flipped there.
      const start = manifestAt(input);
      const from = Math.max(start, 0);
      const span = Math.min(input.length - from, start < 0 ? 1024 : 16384);
      if (rand() < 0.5) {
        const keep = Math.max(1, from + Math.floor(rand() * span));
        return { bytes: input.slice(0, keep), how: `cut ${keep - from} bytes into the ${start < 0 ? "header" : "manifest"}` };
      }
      const bytes = input.slice();
      const flips = 1 + Math.floor(rand() * 16);
      for (let i = 0; i < flips; i++) bytes[from + Math.floor(rand() * span)]! ^= 1 << Math.floor(rand() * 8);
      return { bytes, how: `${flips} bits flipped in the ${start < 0 ? "header" : "manifest"}` };
    },
  ],
];

/** The CI sample's draw: one of the first seven breaks at random (the sample of every earlier run). */
function breakMedia(input: Uint8Array, rand: () => number): { bytes: Uint8Array; how: string } {
  return BREAKS[Math.floor(rand() * 7)]![1](input, rand);
}

/** Runs `work` over `items`, `limit` at a time, in order of start. */
async function pool<T>(items: T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await work(items[i]!, i);
      }
    }),
  );
}

describe("campaign: hostile media through verification and signing", () => {
  it(`${CAMPAIGN ? "every media fixture × every break" : VERIFIES} verified: a verdict or the envelope, never a 5xx`, async () => {
    const { key } = await createTenant({ name: "hostile media" });
    // Keyed verifications rotate over tenants in the campaign, so several in flight stay under one tenant's
    // verify rate (600 a minute) and the answers are the inputs', not the limiter's.
    const keys = [key];
    if (CAMPAIGN) for (let t = 1; t < IN_FLIGHT; t++) keys.push((await createTenant({ name: `hostile media ${t}` })).key);
    // The inputs: CI draws VERIFIES at random from the first seven breaks over SOURCES and two signed copies; the
    // campaign enumerates every fixture (and seven signed copies) × every break × VARIANTS seeded variants.
    // Each input is made when its request starts (in order, so the CI sample's shared stream is drawn as before):
    // the campaign's inputs, a few MiB each at most, are never all held at once.
    const inputs: (() => { seed: string; bytes: Uint8Array; how: string })[] = [];
    if (!CAMPAIGN) {
      const seeds: Uint8Array[] = [];
      for (const [name, type] of SOURCES) {
        seeds.push(fixture(name));
        if (type === "image/jpeg" || type === "image/png") seeds.push((await signedCopy(key, fixture(name), type)).bytes);
      }
      const rand = prng(SEED);
      for (let n = 0; n < VERIFIES; n++)
        inputs.push(() => ({ seed: `#${n % seeds.length}`, ...breakMedia(seeds[n % seeds.length]!, rand) }));
    } else {
      const names = Object.keys(bindings.TEST_FIXTURES).sort();
      const signedTypes = SOURCES.filter(([name]) => /\.(jpg|png|webp|tif|avif|mp3|wav)$/.test(name));
      const signed = await Promise.all(
        signedTypes.map(
          async ([name, type]): Promise<[string, Uint8Array]> => [`signed ${name}`, (await signedCopy(key, fixture(name), type)).bytes],
        ),
      );
      const seeds: [string, Uint8Array][] = [...names.map((name) => [name, fixture(name)] as [string, Uint8Array]), ...signed];
      for (const [s, [seedName, seedBytes]] of seeds.entries())
        for (const [b, [, breakIt]] of BREAKS.entries())
          for (let v = 0; v < (VIDEO.test(seedName) ? 1 : VARIANTS); v++)
            inputs.push(() => ({ seed: seedName, ...breakIt(seedBytes, prng(SEED * 1_000_003 + (s * BREAKS.length + b) * 97 + v)) }));
    }
    /** SHA-256 of every input sent: a byte-identical input (a break that changed nothing new) is sent once. */
    const sent = new Set<string>();
    let duplicates = 0;
    const failures: string[] = [];
    const statuses = new Map<string, number>();
    const timeByFamily = new Map<string, { n: number; ms: number; max: number }>();
    const started = Date.now();
    await pool(inputs, IN_FLIGHT, async (make, n) => {
      const { seed, bytes, how } = make();
      if (CAMPAIGN) {
        const digest = await sha256HexOf(bytes);
        if (sent.has(digest)) {
          duplicates++;
          return;
        }
        sent.add(digest);
      }
      const form = new FormData();
      form.append("file", new File([bytes as Uint8Array<ArrayBuffer>], "f"));
      const keyed = n % 2 === 1;
      const t0 = Date.now();
      // Names a request that is taking long while it is still running, so a hang shows its input.
      const watchdog = setTimeout(() => console.log(`hostile media: #${n} (${seed}, ${how}) still unanswered after 10 s`), 10_000);
      const answer = await exports.default.fetch(
        new Request("http://svc.test/v1/verify", {
          method: "POST",
          body: form,
          headers: {
            "cf-connecting-ip": `10.22.${n >> 8}.${n & 255}`,
            ...(keyed ? { authorization: `Bearer ${keys[(n >> 1) % keys.length]}` } : {}),
          },
        }),
      );
      const text = await answer.text();
      clearTimeout(watchdog);
      const ms = Date.now() - t0;
      const family = seed.startsWith("#") ? "sample" : (/\.([a-z0-9]+)$/.exec(seed)?.[1] ?? "?");
      const f = timeByFamily.get(family) ?? { n: 0, ms: 0, max: 0 };
      timeByFamily.set(family, { n: f.n + 1, ms: f.ms + ms, max: Math.max(f.max, ms) });
      if (ms > ANSWER_BOUND_MS) failures.push(`#${n} ${seed} ${how}: answered after ${ms} ms`);
      let bucket = `${answer.status}`;
      try {
        const body = JSON.parse(text);
        bucket += answer.status >= 400 ? ` ${body.code}` : ` ${body.status ?? body.result?.status ?? ""}`;
        if (answer.status >= 400 && typeof body.code !== "string") failures.push(`#${n} ${seed} ${how}: ${answer.status} without a code`);
      } catch {
        failures.push(`#${n} ${seed} ${how}: ${answer.status} not JSON`);
      }
      if (answer.status >= 500) failures.push(`#${n} ${seed} ${how}: ${answer.status} ${text.slice(0, 160)}`);
      count(statuses, bucket);
      if (CAMPAIGN && (n + 1) % 100 === 0)
        console.log(`hostile media: ${n + 1} of ${inputs.length} started, ${((Date.now() - started) / 1000).toFixed(0)} s`);
    });
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `hostile media: ${inputs.length - duplicates} verifications (seed ${SEED}${CAMPAIGN ? `, ${BREAKS.length} breaks × ${VARIANTS} variants, ${duplicates} byte-identical inputs skipped` : ""}) in ${seconds.toFixed(0)} s, ${IN_FLIGHT} in flight\n${table(statuses)}\ntime by seed type (n, mean ms, max ms): ${[
        ...timeByFamily,
      ]
        .sort((a, b) => b[1].ms - a[1].ms)
        .map(([k, t]) => `${k} ${t.n}/${(t.ms / t.n).toFixed(0)}/${t.max}`)
        .join(", ")}`,
    );
    expect(failures).toEqual([]);
  }, 1_800_000);

  it(`${CAMPAIGN ? "every typed source × every break" : JOBS} uploaded and signed: every job ends, completed or refused with a code`, async () => {
    const { key } = await createTenant({ name: "hostile signing" });
    const cases: { name: string; type: string; bytes: Uint8Array; how: string }[] = [];
    if (!CAMPAIGN) {
      const rand = prng(SEED + 1);
      for (let n = 0; n < JOBS; n++) {
        const [name, type] = SOURCES[n % SOURCES.length]!;
        cases.push({ name, type, ...breakMedia(fixture(name), rand) });
      }
    } else {
      for (const [s, [name, type]] of SOURCES.entries())
        for (const [b, [, breakIt]] of BREAKS.entries())
          cases.push({ name, type, ...breakIt(fixture(name), prng(SEED * 2_000_003 + (s * BREAKS.length + b) * 97)) });
    }
    const failures: string[] = [];
    const ends = new Map<string, number>();
    const started = Date.now();
    await pool(cases, CAMPAIGN ? 6 : 1, async ({ name, type, bytes, how }, n) => {
      const created = await api("/v1/uploads", {
        method: "POST",
        key,
        body: { byte_length: bytes.length, declared_media_type: type, mode: "single", sha256: await sha256HexOf(bytes) },
      });
      if (created.status !== 201) {
        count(ends, `upload ${created.status}`);
        if (created.status >= 500) failures.push(`#${n} ${name} ${how}: upload ${created.status}`);
        return;
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
        count(ends, bucket);
        if (completed.status >= 500) failures.push(`#${n} ${name} ${how}: ${bucket}`);
        return;
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
        count(ends, `sign ${signed.status} ${body.code}`);
        return;
      }
      const job = await waitForJob(key, body.job_id, CAMPAIGN ? 600_000 : 90_000);
      count(ends, `job ${job.state}${job.error_code ? ` ${job.error_code}` : ""}`);
      if (!["completed", "failed", "rejected"].includes(job.state)) failures.push(`#${n} ${name} ${how}: job left ${job.state}`);
      if (job.state !== "completed" && !job.error_code) failures.push(`#${n} ${name} ${how}: ${job.state} without an error code`);
    });
    console.log(
      `hostile signing: ${cases.length} uploads (seed ${SEED + 1}${CAMPAIGN ? `, ${SOURCES.length} sources × ${BREAKS.length} breaks` : ""}) in ${((Date.now() - started) / 1000).toFixed(0)} s\n${table(ends)}`,
    );
    expect(failures).toEqual([]);
  }, 1_800_000);
});
