/**
 * Hostile media on the media paths added since the first campaign (#22), through the public HTTP API of the real
 * Worker bundle (bare Miniflare): fragmented MP4 timing (trun/tfhd/tfdt/mehd), edit lists and sample tables
 * (elst/stts/stsz), the audio codec floor (esds AAC, ALAC, AC-3, E-AC-3, Opus, QuickTime PCM), FLAC frame scanning,
 * the streamed inspection of uploads above the embedded limit, and the JPEG decoder (progressive, restart intervals)
 * behind verify's pixel facts.
 *
 * Seeds are real files made by ffmpeg at test time (and the committed progressive JPEG fixtures); each trial breaks
 * one seed with a seeded structural break (test/support/media-mutations.ts) and sends it:
 * - `POST /v1/verify` (keyed, multipart): a verdict or the contract's envelope with a code of the closed registry;
 * - upload (create, PUT, complete), and for an accepted upload `POST /v1/sign` (sign-only, or the default recipe for
 *   audio and images) to a terminal job; some BMFF breaks padded past the embedded limit, so the streamed inspection
 *   reads them.
 * Invariants: never a 5xx, every refusal the envelope with a registered code, every answer within a hang bound, every
 * job terminal with an error code unless completed; a duration billed for an accepted audio/video file never below
 * what ffprobe's packets play (within a packet); no half-written state (a refused completion leaves no ready asset,
 * a failed job no publication, no held wallet reservation, no stored object without its row); the workerd process's
 * memory bounded across the run.
 *
 * CI (CAMPAIGN_INPUTS unset): 100 verifications (half of them of signed copies, half keyed), 30 uploads (3 of them
 * streamed; the suite's time is shared), and the breaks found, replayed. `npm run campaign` (10,000): 2,000 and 600, with the media Worker
 * (CAMPAIGN_SEED replays a run). It and a node-side sweep of the same breaks found four ways a file was billed less
 * than it plays (all fixed; node tests flac-frame-rate, bmff-untimed-track and bmff-fragment-escape .security): a FLAC
 * whose STREAMINFO rate was patched above its frames' (0.024 s billed for 2 s), an MP4 track left untimed by removing
 * its `mdhd` (1.2 s billed, 10.2 s played), the same for a fragmented track (1.2 s billed, 11 s played, streamed), and
 * a `moof` sized 8, whose `traf` FFmpeg still plays from the top level.
 */
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JOB_ERROR_CODES } from "../../../src/jobs/job-errors";
import { ERROR_CODE_LIST } from "../../../src/platform/errors";
import { BMFF_MUTATIONS, boxes, FLAC_MUTATIONS, JPEG_MUTATIONS, type Mutation, RAW_MUTATIONS } from "../../support/media-mutations";
import { prng } from "../../support/prng";
import { withMdat } from "../../support/stream-media";
import {
  completeUpload,
  createUpload,
  download,
  putBytes,
  type SignedService,
  signAndWait,
  startSignedService,
  TERMINAL_JOB_STATES,
} from "../../support/svc-client";
import { count, table } from "../../support/tally";

const INPUTS = Number(process.env.CAMPAIGN_INPUTS ?? 500);
const SEED = Number(process.env.CAMPAIGN_SEED ?? 22);
const SCALE = INPUTS / 1000;
const VERIFIES = Math.round(200 * SCALE);
const UPLOADS = Math.round(60 * SCALE);
/** One upload in ten is padded past the embedded limit (BMFF seeds only): the streamed inspection reads it. */
const STREAMED_EVERY = 10;
/** A hang guard, not a speed bound. */
const ANSWER_BOUND_MS = 60_000;
const MiB = 1024 * 1024;

const dir = mkdtempSync(join(tmpdir(), "hostile-media-paths-"));
let svc: SignedService;

const ERROR_CODES = new Set<string>(ERROR_CODE_LIST);
const JOB_CODES = new Set<string>(Object.keys(JOB_ERROR_CODES));

interface Seed {
  name: string;
  type: string;
  bytes: Uint8Array;
  breaks: [string, Mutation][];
  /** Audio or video: its billed duration is compared with ffprobe. */
  timed: boolean;
  /** Streamed when padded past the embedded limit (a trailing mdat is valid BMFF). */
  paddable: boolean;
  /** The unbroken file's billed duration, when it signs. */
  seconds?: number;
}
const seeds: Seed[] = [];
/** Signed copies of the seeds (verify only). */
const signedSeeds: Seed[] = [];

function ffmpeg(name: string, args: string[]): Uint8Array {
  const out = join(dir, name);
  execFileSync("ffmpeg", ["-v", "error", "-y", ...args, out]);
  return new Uint8Array(readFileSync(out));
}

/**
 * What a player plays, by ffprobe's packets: per stream, the last packet's end less the first packet's start (never
 * before 0); the longest stream; and the longest packet (the tolerance). null when ffprobe reads no packet.
 */
function playable(bytes: Uint8Array, n: number): { seconds: number; packet: number } | null {
  const path = join(dir, `probe-${n}`);
  writeFileSync(path, bytes);
  let text = "";
  try {
    text = execFileSync("ffprobe", ["-v", "quiet", "-show_entries", "packet=stream_index,pts_time,duration_time", "-of", "csv=p=0", path], {
      maxBuffer: 64 * MiB,
      timeout: 60_000,
    }).toString();
  } catch {
    return null;
  } finally {
    rmSync(path, { force: true });
  }
  const streams = new Map<string, { start: number; end: number }>();
  let packet = 0;
  for (const line of text.split("\n")) {
    const [stream, pts, dur] = line.split(",");
    const t = Number(pts);
    const d = Number(dur);
    if (!stream || !Number.isFinite(t)) continue;
    const len = Number.isFinite(d) ? d : 0;
    packet = Math.max(packet, len);
    const s = streams.get(stream) ?? { start: t, end: t + len };
    streams.set(stream, { start: Math.min(s.start, t), end: Math.max(s.end, t + len) });
  }
  if (streams.size === 0) return null;
  const seconds = Math.max(...[...streams.values()].map((s) => s.end - Math.max(0, s.start)));
  return { seconds, packet };
}

/** The resident memory of the workerd processes under this test (kB), from /proc. */
function workerdRssKb(): number {
  let total = 0;
  try {
    const pids = execFileSync("pgrep", ["-P", String(process.pid)])
      .toString()
      .split("\n")
      .filter(Boolean);
    const all = [...pids];
    for (const p of pids) {
      try {
        all.push(...execFileSync("pgrep", ["-P", p]).toString().split("\n").filter(Boolean));
      } catch {}
    }
    for (const p of all) {
      const status = `/proc/${p}/status`;
      if (!existsSync(status)) continue;
      const text = readFileSync(status, "utf8");
      if (!/Name:\s*workerd/.test(text)) continue;
      total += Number(/VmRSS:\s*(\d+)/.exec(text)?.[1] ?? 0);
    }
  } catch {}
  return total;
}

beforeAll(async () => {
  // The campaign runs the media Worker (video decoding and fingerprints) behind VIDEO as deployed, so broken video
  // reaches it; CI leaves it out (it doubles the run; the workers campaign's video seeds reach it in CI).
  svc = await startSignedService({ video: SCALE > 1 });
  const sine = (rate: number, seconds = 1.3) => ["-f", "lavfi", "-i", `sine=frequency=440:duration=${seconds}:sample_rate=${rate}`];
  const video = ["-f", "lavfi", "-i", "testsrc=duration=1.2:size=64x48:rate=10"];
  const h264 = ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "5"];
  const bmff = [...BMFF_MUTATIONS, ...RAW_MUTATIONS];
  const add = (name: string, type: string, bytes: Uint8Array, breaks: [string, Mutation][], timed = true, paddable = true) =>
    seeds.push({ name, type, bytes, breaks, timed, paddable });
  add(
    "fragmented MP4",
    "video/mp4",
    ffmpeg("frag.mp4", [...video, ...sine(44100, 1.2), ...h264, "-c:a", "aac", "-shortest", "-movflags", "frag_keyframe+empty_moov"]),
    bmff,
  );
  add(
    "fragmented M4A",
    "audio/mp4",
    ffmpeg("frag.m4a", [...sine(44100), "-c:a", "aac", "-movflags", "frag_keyframe+empty_moov", "-frag_duration", "300000"]),
    bmff,
  );
  add("MP4 with edit lists", "video/mp4", ffmpeg("edit.mp4", [...video, ...sine(44100, 1.2), ...h264, "-c:a", "aac", "-shortest"]), bmff);
  add("M4A AAC", "audio/mp4", ffmpeg("aac.m4a", [...sine(44100), "-c:a", "aac", "-movflags", "+faststart"]), bmff);
  add("M4A ALAC", "audio/mp4", ffmpeg("alac.m4a", [...sine(44100, 0.6), "-c:a", "alac"]), bmff);
  add("MOV PCM", "video/quicktime", ffmpeg("pcm.mov", [...video, ...sine(8000, 1.2), ...h264, "-c:a", "pcm_s16le", "-shortest"]), bmff);
  add("AC-3 in MP4", "audio/mp4", ffmpeg("ac3.mp4", [...sine(48000), "-c:a", "ac3", "-f", "mp4"]), bmff);
  add("E-AC-3 in MP4", "audio/mp4", ffmpeg("eac3.mp4", [...sine(48000), "-c:a", "eac3", "-f", "mp4"]), bmff);
  add("Opus in MP4", "audio/mp4", ffmpeg("opus.mp4", [...sine(48000), "-c:a", "libopus", "-f", "mp4"]), bmff);
  add("FLAC", "audio/flac", ffmpeg("a.flac", [...sine(8000, 2), "-c:a", "flac"]), [...FLAC_MUTATIONS, ...RAW_MUTATIONS], true, false);
  for (const name of ["progressive-420.jpg", "progressive-422-restart.jpg", "gray-progressive-restart.jpg"])
    add(
      name,
      "image/jpeg",
      new Uint8Array(readFileSync(join(import.meta.dirname, "../../fixtures/jpegdec", name))),
      [...JPEG_MUTATIONS, ...RAW_MUTATIONS],
      false,
      false,
    );
  // Each seed signed unbroken: its duration (the baseline a valid rewrite must keep) and its signed copy, a further
  // seed for verify (a broken signed file reaches the manifest's hash checks over boxes, frames and segments).
  for (const seed of [...seeds]) {
    const created = await createUpload(svc, seed.bytes, seed.type, "seed");
    await (await putBytes(svc, created.body, seed.bytes)).arrayBuffer();
    if ((await completeUpload(svc, created.body.upload_id)).status !== 200) continue;
    const job = await signAndWait(svc, created.body.asset_id, "rcp_system_sign_only", 120_000);
    if (job.state !== "completed") continue;
    seed.seconds = job.media_inspection?.duration_seconds ?? undefined;
    const { bytes } = await download(svc, created.body.asset_id);
    signedSeeds.push({ ...seed, name: `signed ${seed.name}`, bytes });
  }
}, 300_000);

afterAll(async () => {
  await svc?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

/** Trial `n`'s input: a seed, a break (round robin over seeds, the break drawn), all from SEED and n. */
function trial(n: number, salt: number, pool = seeds): { seed: Seed; bytes: Uint8Array; how: string } {
  const rand = prng(SEED * 1_000_003 + salt * 7919 + n);
  const seed = pool[n % pool.length]!;
  const [name, breakIt] = seed.breaks[Math.floor(rand() * seed.breaks.length)]!;
  const { bytes, how } = breakIt(seed.bytes, rand);
  return { seed, bytes, how: `${name}: ${how}` };
}

/** The envelope of a refusal: a registered code and a request id; "" when it holds. */
function envelopeProblem(status: number, body: any): string {
  if (status >= 500) return `${status} ${JSON.stringify(body)?.slice(0, 200)}`;
  if (status < 400) return "";
  if (!body || typeof body.code !== "string") return `${status} without a code`;
  if (!ERROR_CODES.has(body.code)) return `${status} code ${body.code} outside the registry`;
  if (typeof body.request_id !== "string") return `${status} ${body.code} without a request_id`;
  return "";
}

/**
 * `POST /v1/verify` (multipart, built by hand: Miniflare's dispatchFetch does not serialize Node's FormData), keyed or
 * anonymous from its own address. A 429 is waited out (its Retry-After) and sent again: the limiter is not under test,
 * and the campaign's thousands of verifications outrun one tenant's verify rate.
 */
async function verify(bytes: Uint8Array, n: number, retried: { count: number }): Promise<{ status: number; body: any }> {
  const boundary = `svc${randomUUID().replace(/-/g, "")}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    Buffer.from(bytes),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const headers: Record<string, string> = {
    "content-type": `multipart/form-data; boundary=${boundary}`,
    ...(n % 2 === 0 ? { authorization: `Bearer ${svc.key}` } : { "cf-connecting-ip": `10.44.${(n >> 8) & 255}.${n & 255}` }),
  };
  for (;;) {
    const [res, text] = await bounded(
      `verify #${n}`,
      (async () => {
        const res = await svc.worker.fetch("/v1/verify", { method: "POST", headers, body });
        return [res, await res.text()] as const;
      })(),
    );
    let parsed: any = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = { unparsed: text.slice(0, 200) };
    }
    if (res.status !== 429) return { status: res.status, body: parsed };
    retried.count++;
    await new Promise((r) => setTimeout(r, 1000 * Math.min(30, Math.max(1, Number(res.headers.get("retry-after") ?? 1)))));
  }
}

async function bounded<T>(what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: unanswered after ${ANSWER_BOUND_MS} ms`)), ANSWER_BOUND_MS);
  });
  try {
    return await Promise.race([work, guard]);
  } finally {
    clearTimeout(timer);
  }
}

/** Upload, complete and sign `bytes` (sign-only): the completion's refusal code, or the terminal job. */
async function uploadAndSign(bytes: Uint8Array, type: string): Promise<{ refused: string } | { job: any }> {
  const created = await createUpload(svc, bytes, type, "f");
  if (created.status !== 201) return { refused: `create ${created.status}` };
  await (await putBytes(svc, created.body, bytes)).arrayBuffer();
  const completed = await completeUpload(svc, created.body.upload_id);
  if (completed.status !== 200) return { refused: `${completed.status} ${completed.body?.code}` };
  return { job: await signAndWait(svc, created.body.asset_id, "rcp_system_sign_only", 120_000) };
}

describe("campaign: hostile media on the newer media paths, over HTTP", () => {
  it("the breaks the campaign found: refused, or billed at least what the file plays", { timeout: 300_000 }, async () => {
    // A FLAC's STREAMINFO sample rate patched to 655,350 Hz over frames that state 8 kHz (billed 0.024 s for 2 s).
    const flac = seeds.find((s) => s.name === "FLAC")!;
    const patched = flac.bytes.slice();
    [patched[18], patched[19], patched[20]] = [655_350 >> 12, (655_350 >> 4) & 0xff, ((655_350 & 15) << 4) | (patched[20]! & 15)];
    const flacEnd = await uploadAndSign(patched, "audio/flac");
    expect("job" in flacEnd && flacEnd.job.state, JSON.stringify(flacEnd)).toBe("completed");
    if ("job" in flacEnd) expect(flacEnd.job.media_inspection.duration_seconds).toBe(2);
    // A video track's mdhd removed: FFmpeg times it by mvhd's timescale (10.2 s played, 1.2 s billed): now refused.
    const movie = seeds.find((s) => s.name === "MP4 with edit lists")!;
    const mdhd = boxes(movie.bytes).find((b) => b.type === "mdhd")!;
    const cut = new Uint8Array(movie.bytes.length - mdhd.size);
    cut.set(movie.bytes.subarray(0, mdhd.at));
    cut.set(movie.bytes.subarray(mdhd.at + mdhd.size), mdhd.at);
    const view = new DataView(cut.buffer);
    for (const p of mdhd.parents) view.setUint32(p, view.getUint32(p) - mdhd.size);
    const plays = playable(cut, -1)!;
    expect(plays.seconds).toBeGreaterThan(10);
    for (const bytes of [cut, withMdat(cut, 10 * MiB + 4096)]) {
      const end = await uploadAndSign(bytes, "video/mp4");
      if ("refused" in end) expect(end.refused).toBe("422 svc.media.corrupt");
      else expect(end.job.media_inspection?.duration_seconds, JSON.stringify(end.job)).toBeGreaterThanOrEqual(plays.seconds - plays.packet);
    }
    // A fragmented MP4 whose tracks' mdhd are removed (its fragments untimed), streamed; a fragmented M4A whose every
    // moof is sized 8 (its traf boxes left at the top level, where FFmpeg still plays them): refused.
    const fragmented = seeds.find((s) => s.name === "fragmented MP4")!.bytes;
    let untimed = fragmented;
    for (let k = 0; k < 2; k++) {
      const box = boxes(untimed).find((b) => b.type === "mdhd");
      if (!box) break;
      const next = new Uint8Array(untimed.length - box.size);
      next.set(untimed.subarray(0, box.at));
      next.set(untimed.subarray(box.at + box.size), box.at);
      const v = new DataView(next.buffer);
      for (const p of box.parents) v.setUint32(p, v.getUint32(p) - box.size);
      untimed = next;
    }
    expect(await uploadAndSign(withMdat(untimed, 10 * MiB + 4096), "video/mp4")).toEqual({ refused: "422 svc.media.corrupt" });
    const emptied = seeds.find((s) => s.name === "fragmented M4A")!.bytes.slice();
    for (const b of boxes(emptied)) if (b.type === "moof") new DataView(emptied.buffer).setUint32(b.at, 8);
    expect(await uploadAndSign(emptied, "audio/mp4")).toEqual({ refused: "422 svc.media.corrupt" });
  });

  it(`${VERIFIES} broken files verified: a verdict or the envelope, never a 5xx`, { timeout: 1_800_000 }, async () => {
    const failures: string[] = [];
    const answers = new Map<string, number>();
    const retried = { count: 0 };
    const rssBefore = workerdRssKb();
    let rssPeak = rssBefore;
    const started = Date.now();
    for (let n = 0; n < VERIFIES; n++) {
      // Odd trials break a signed copy.
      const { seed, bytes, how } = n % 2 === 1 && signedSeeds.length > 0 ? trial(n >> 1, 3, signedSeeds) : trial(n >> 1, 1);
      const label = `verify #${n} ${seed.name} (${how})`;
      try {
        const answer = await verify(bytes, n, retried);
        const problem = envelopeProblem(answer.status, answer.body);
        if (problem) failures.push(`${label}: ${problem}`);
        count(
          answers,
          `${answer.status} ${answer.status >= 400 ? answer.body.code : (answer.body.status ?? answer.body.result?.status ?? "")}`,
        );
      } catch (error) {
        failures.push(`${label}: ${(error as Error).message.slice(0, 200)}`);
      }
      if (n % 20 === 19) rssPeak = Math.max(rssPeak, workerdRssKb());
    }
    const rssAfter = workerdRssKb();
    console.log(
      `hostile media paths: ${VERIFIES} verifications (seed ${SEED}; ${retried.count} rate-limited and sent again) in ${((Date.now() - started) / 1000).toFixed(0)} s; workerd RSS ${(rssBefore / 1024).toFixed(0)} → peak ${(rssPeak / 1024).toFixed(0)} → ${(rssAfter / 1024).toFixed(0)} MiB\n${table(answers)}`,
    );
    expect(failures).toEqual([]);
    // Memory bounded: a leak per input (a retained file, a kernel buffer never freed) would grow with the run.
    if (rssBefore > 0) expect(rssAfter - rssBefore).toBeLessThan(1024 * 1024);
  });

  it(`${UPLOADS} broken files uploaded and signed: refused with the envelope or billed at least what plays; state consistent`, {
    timeout: 1_800_000,
  }, async () => {
    const failures: string[] = [];
    const ends = new Map<string, number>();
    const refusedAssets: string[] = [];
    const jobs: string[] = [];
    const started = Date.now();
    for (let n = 0; n < UPLOADS; n++) {
      const t = trial(n, 2);
      const streamed = t.seed.paddable && n % STREAMED_EVERY === STREAMED_EVERY - 1;
      const bytes = streamed ? withMdat(t.bytes, 10 * MiB + 4096) : t.bytes;
      const label = `upload #${n} ${t.seed.name}${streamed ? " streamed" : ""} (${t.how})`;
      try {
        const created = await bounded(label, createUpload(svc, bytes, t.seed.type, "f"));
        let problem = envelopeProblem(created.status, created.body);
        if (problem || created.status !== 201) {
          count(ends, `create ${created.status} ${(created.body as any)?.code ?? ""}`);
          if (problem) failures.push(`${label}: create ${problem}`);
          continue;
        }
        const put = await bounded(label, putBytes(svc, created.body, bytes));
        await put.arrayBuffer().catch(() => undefined);
        if (put.status !== 200) failures.push(`${label}: PUT ${put.status}`);
        const completed = await bounded(label, completeUpload(svc, created.body.upload_id));
        problem = envelopeProblem(completed.status, completed.body);
        if (problem) failures.push(`${label}: complete ${problem}`);
        if (completed.status !== 200) {
          count(ends, `complete ${completed.status} ${completed.body?.code}`);
          refusedAssets.push(created.body.asset_id);
          // A refused upload's asset cannot be signed: the envelope, no job.
          const sign = await bounded(
            label,
            svc.call("POST", "/v1/sign", {
              body: { asset_id: created.body.asset_id, recipe_id: "rcp_system_sign_only" },
              idempotencyKey: true,
            }),
          );
          const signProblem = envelopeProblem(sign.status, sign.body);
          if (signProblem || sign.status < 400) failures.push(`${label}: sign of a refused upload answered ${sign.status} ${signProblem}`);
          continue;
        }
        // The default recipe (watermark, then sign) where this service watermarks: FLAC and JPEG, every other time.
        const recipe = /flac|jpeg/.test(t.seed.type) && n % 2 === 1 ? "rcp_system_sign" : "rcp_system_sign_only";
        const sign = await bounded(
          label,
          svc.call("POST", "/v1/sign", { body: { asset_id: created.body.asset_id, recipe_id: recipe }, idempotencyKey: true }),
        );
        problem = envelopeProblem(sign.status, sign.body);
        if (problem) failures.push(`${label}: sign ${problem}`);
        if (sign.status !== 202) {
          count(ends, `sign ${sign.status} ${sign.body?.code}`);
          continue;
        }
        jobs.push(sign.body.job_id);
        const job = await bounded(
          label,
          (async () => {
            for (;;) {
              const got = await svc.call("GET", `/v1/jobs/${sign.body.job_id}`);
              if (got.status !== 200) throw new Error(`GET job ${got.status} ${got.text.slice(0, 200)}`);
              if (TERMINAL_JOB_STATES.includes(got.body.state)) return got.body;
              await new Promise((r) => setTimeout(r, 200));
            }
          })(),
        );
        count(ends, `job ${job.state}${job.error_code ? ` ${job.error_code}` : ""}`);
        if (job.state !== "completed") {
          if (!job.error_code || !JOB_CODES.has(job.error_code)) failures.push(`${label}: job ${job.state} with code ${job.error_code}`);
          continue;
        }
        const billed = job.media_inspection?.duration_seconds;
        if (t.seed.timed) {
          const plays = playable(bytes, n);
          if (typeof billed !== "number") failures.push(`${label}: completed without a duration`);
          else if (plays && billed < plays.seconds - Math.max(plays.packet, 0.05))
            failures.push(`${label}: billed ${billed} s, ffprobe's packets play ${plays.seconds.toFixed(3)} s`);
          // A box rewritten in the 64-bit size form is the same movie: the same duration as the unbroken seed.
          if (/64-bit size$/.test(t.how) && !streamed && t.seed.seconds !== undefined && billed !== t.seed.seconds)
            failures.push(`${label}: billed ${billed} s, the same movie unbroken ${t.seed.seconds} s`);
        }
      } catch (error) {
        failures.push(`${label}: ${(error as Error).message.slice(0, 300)}`);
      }
    }

    // No half-written state. A refused completion: its upload failed with a code, its asset not ready, no job.
    const rows = async (sql: string, ...binds: unknown[]) =>
      (
        await svc.worker.db
          .prepare(sql)
          .bind(...binds)
          .all()
      ).results as any[];
    for (const assetId of refusedAssets) {
      const [asset] = await rows("SELECT status, published_object_id FROM assets WHERE id = ?", assetId);
      const [upload] = await rows("SELECT status, error_code FROM uploads WHERE asset_id = ?", assetId);
      const assetJobs = await rows("SELECT id FROM jobs WHERE asset_id = ?", assetId);
      if (asset?.published_object_id || ["ready", "available", "published"].includes(asset?.status))
        failures.push(`refused asset ${assetId}: ${JSON.stringify(asset)}`);
      if (upload?.status === "completed" || (upload?.status === "failed" && !upload.error_code))
        failures.push(`refused asset ${assetId}: upload ${JSON.stringify(upload)}`);
      if (assetJobs.length > 0) failures.push(`refused asset ${assetId}: ${assetJobs.length} jobs`);
    }
    // Every job terminal; a failed one published nothing; no wallet reservation left held.
    const jobStates = new Map<string, string>();
    for (const jobId of jobs) {
      const [job] = await rows("SELECT state, error_code, publication_id, asset_id FROM jobs WHERE id = ?", jobId);
      jobStates.set(jobId, job.state);
      if (!TERMINAL_JOB_STATES.includes(job.state)) failures.push(`job ${jobId} left ${job.state}`);
      if (job.state !== "completed" && job.publication_id)
        failures.push(`job ${jobId} ${job.state} with publication ${job.publication_id}`);
      const [asset] = await rows("SELECT published_job_id FROM assets WHERE id = ?", job.asset_id);
      if (job.state !== "completed" && asset?.published_job_id === jobId)
        failures.push(`job ${jobId} ${job.state} but its asset names it published`);
    }
    // The seeds' own jobs too (signed before the trials).
    for (const row of await rows("SELECT id, state FROM jobs")) jobStates.set(row.id, row.state);
    const held = await rows("SELECT job_id FROM wallet_reservations WHERE state = 'held'");
    if (held.length > 0) failures.push(`${held.length} wallet reservations left held: ${held.map((h) => h.job_id).join(", ")}`);
    // Every stored object has its row (no orphan bytes from a refusal).
    // Miniflare's R2 binding, typed by its own (not the Workers') declarations.
    const bucket = (await svc.worker.mf.getR2Bucket("OBJECTS")) as unknown as {
      list(options: { cursor?: string; limit: number }): Promise<{ objects: { key: string }[]; truncated: boolean; cursor?: string }>;
    };
    const known = new Set((await rows("SELECT r2_key FROM objects")).map((r) => r.r2_key));
    const orphans: string[] = [];
    const stepLeftovers: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await bucket.list({ cursor, limit: 1000 });
      for (const o of page.objects) {
        if (known.has(o.key)) continue;
        // A job's step artifacts (its manifest store) live under its prefix: published work's, or the job-objects
        // reconciler's to remove once the job ended otherwise (src/jobs/orphans.ts).
        const job = /^t\/[^/]+\/jobs\/([^/]+)\//.exec(o.key)?.[1];
        if (job && jobStates.get(job) === "completed") continue;
        if (job && jobStates.has(job)) stepLeftovers.push(o.key);
        else orphans.push(o.key);
      }
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor);

    console.log(
      `hostile media paths: ${UPLOADS} uploads (seed ${SEED}, every ${STREAMED_EVERY}th BMFF one streamed) in ${((Date.now() - started) / 1000).toFixed(0)} s; ${orphans.length} stored objects without a row, ${stepLeftovers.length} step artifacts of jobs that did not complete\n${table(ends)}`,
    );
    if (stepLeftovers.length > 0) console.log(`step artifacts of jobs that did not complete: ${stepLeftovers.slice(0, 20).join(", ")}`);
    if (orphans.length > 0) failures.push(`${orphans.length} stored objects without a row: ${orphans.slice(0, 20).join(", ")}`);
    expect(failures).toEqual([]);
  });
});
