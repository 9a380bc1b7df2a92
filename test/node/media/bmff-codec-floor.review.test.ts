/**
 * The codec floor of an audio track: samples × the codec's frame length / its rate, whatever `stts` states. An M4A
 * (`-use_editlist 0`) with every `stts` delta patched to 1 tick and mvhd/mdhd/tkhd patched played 10 s and was billed
 * 0.01 s. The floor must never exceed what a decoder outputs: over many real ffmpeg files, each with its timing
 * patched the same way (so the figure is the floor alone, cut by any edit list), both upload paths give at most the
 * seconds ffmpeg decodes the valid file to (and at least a stated share of them: the floor is there).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ByteSniffingInspector } from "../../../src/media/inspect";
import {
  AC3_MAXIMUM_BYTE_RATE,
  codecFloor,
  EAC3_MAXIMUM_BYTE_RATE,
  MovieTiming,
  STSD_KEPT,
} from "../../../src/media/inspect/isobmff-timing";
import { inspectStreamed } from "../../../src/uploads/large-inspection";
import { decoded } from "./bmff-support";
import { installDigestStream, streamOf } from "./stream-support";

const dir = mkdtempSync(join(tmpdir(), "bmff-floor-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => installDigestStream());

const A = (d: number, rate = 44100, channels = 1) => [
  "-f",
  "lavfi",
  "-i",
  `sine=frequency=440:duration=${d}:sample_rate=${rate}`,
  ...(channels === 2 ? ["-ac", "2"] : []),
];

function make(name: string, args: string[]): Uint8Array {
  const out = join(dir, name);
  execFileSync("ffmpeg", ["-v", "error", "-y", ...args, out]);
  return new Uint8Array(readFileSync(out));
}

const CONTAINERS = new Set(["moov", "trak", "mdia", "minf", "stbl", "edts", "moof", "traf", "mvex"]);
function each(b: Uint8Array, visit: (type: string, at: number, size: number) => void, start = 0, end = b.length): void {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  for (let at = start; at + 8 <= end; ) {
    const size = v.getUint32(at);
    const type = String.fromCharCode(...b.subarray(at + 4, at + 8));
    visit(type, at, size);
    if (CONTAINERS.has(type)) each(b, visit, at + 8, at + size);
    if (size < 8) break;
    at += size;
  }
}

/** Every `stts` delta (and `trun`/`tfhd`/`trex` default durations) 1 tick; mvhd/tkhd/mdhd/mehd durations 1 tick. */
function patched(source: Uint8Array): Uint8Array {
  const b = source.slice();
  const v = new DataView(b.buffer);
  each(b, (type, at) => {
    const body = at + 8;
    const v1 = b[body] === 1;
    if (type === "stts") for (let i = 0; i < v.getUint32(body + 4); i++) v.setUint32(body + 8 + i * 8 + 4, 1);
    if (type === "mvhd" || type === "mdhd") v1 ? v.setBigUint64(body + 24, 1n) : v.setUint32(body + 16, 1);
    if (type === "tkhd") v1 ? v.setBigUint64(body + 28, 1n) : v.setUint32(body + 20, 1);
    if (type === "mehd") v1 ? v.setBigUint64(body + 4, 1n) : v.setUint32(body + 4, 1);
    if (type === "trex") v.setUint32(body + 12, 1);
    if (type === "tfhd") {
      const flags = v.getUint32(body) & 0xff_ffff;
      const d = body + 8 + (flags & 1 ? 8 : 0) + (flags & 2 ? 4 : 0);
      if (flags & 8) v.setUint32(d, 1);
    }
    if (type === "tfdt") v1 ? v.setBigUint64(body + 4, 0n) : v.setUint32(body + 4, 0);
    if (type === "trun") {
      const flags = v.getUint32(body) & 0xff_ffff;
      const width = (flags & 0x100 ? 4 : 0) + (flags & 0x200 ? 4 : 0) + (flags & 0x400 ? 4 : 0) + (flags & 0x800 ? 4 : 0);
      const first = body + 8 + (flags & 1 ? 4 : 0) + (flags & 4 ? 4 : 0);
      if (flags & 0x100) for (let i = 0; i < v.getUint32(body + 4); i++) v.setUint32(first + i * width, 1);
    }
  });
  return b;
}

async function both(bytes: Uint8Array, type: string): Promise<number[]> {
  const out: number[] = [];
  const memory = new ByteSniffingInspector().inspect(bytes, type);
  if (memory.status === "ok") out.push(memory.facts.duration_seconds ?? 0);
  else expect(memory.status).toBe("codec_unsupported");
  for (const chunk of [1, 7, 4096, 65536]) {
    const { inspection } = await inspectStreamed(streamOf(bytes, chunk), bytes.length, type, "audio");
    expect(inspection.status, `parts of ${chunk}`).toBe("ok");
    if (inspection.status === "ok") out.push(inspection.facts.duration_seconds ?? 0);
  }
  return out;
}

const CASES: [string, string, string[], number][] = [
  // name, type, ffmpeg arguments, the least share of the decoded seconds the floor must reach.
  ["aac-8k.m4a", "audio/mp4", [...A(7, 8000), "-c:a", "aac"], 0.9],
  ["aac-22k.m4a", "audio/mp4", [...A(5, 22050, 2), "-c:a", "aac"], 0.9],
  ["aac-44k.m4a", "audio/mp4", [...A(5, 44100), "-c:a", "aac", "-use_editlist", "0"], 0.9],
  ["aac-48k.m4a", "audio/mp4", [...A(5, 48000, 2), "-c:a", "aac"], 0.9],
  ["aac-48k.mov", "video/quicktime", [...A(4, 48000), "-c:a", "aac"], 0.9],
  ["aac-frag.m4a", "audio/mp4", [...A(5, 44100), "-c:a", "aac", "-movflags", "frag_keyframe+empty_moov", "-frag_duration", "300000"], 0.9],
  ["alac.m4a", "audio/mp4", [...A(5, 44100, 2), "-c:a", "alac"], 0.8],
  ["alac-96k.mov", "video/quicktime", [...A(3, 96000), "-c:a", "alac"], 0.8],
  ["pcm-s16-mono.mov", "video/quicktime", [...A(3, 44100), "-c:a", "pcm_s16le"], 0.99],
  ["pcm-s16-stereo.mov", "video/quicktime", [...A(3, 48000, 2), "-c:a", "pcm_s16le"], 0.99],
  ["pcm-s24.mov", "video/quicktime", [...A(3, 48000, 2), "-c:a", "pcm_s24le"], 0.99],
  ["pcm-f32.mov", "video/quicktime", [...A(3, 22050), "-c:a", "pcm_f32le"], 0.99],
  ["ac3.mp4", "audio/mp4", [...A(4, 48000, 2), "-c:a", "ac3"], 0.9],
  ["ac3-44k.mp4", "audio/mp4", [...A(4, 44100, 2), "-c:a", "ac3"], 0.8],
  ["eac3.mp4", "audio/mp4", [...A(4, 48000, 2), "-c:a", "eac3"], 0.1],
  ["mp3.mp4", "audio/mp4", [...A(4, 44100), "-c:a", "libmp3lame"], 0.2],
  ["mp3-22k.mp4", "audio/mp4", [...A(4, 22050), "-c:a", "libmp3lame"], 0.2],
  ["opus.mp4", "audio/mp4", [...A(4, 48000), "-c:a", "libopus"], 0.1],
  ["mp3.mov", "video/quicktime", [...A(4, 44100), "-c:a", "libmp3lame"], 0.5],
  ["mp3-16k.mov", "video/quicktime", [...A(4, 16000), "-c:a", "libmp3lame"], 0.3],
  ["ac3.mov", "video/quicktime", [...A(3, 32000, 2), "-c:a", "ac3"], 0.6],
  ["pcm-s24be.mov", "video/quicktime", [...A(3, 96000, 2), "-c:a", "pcm_s24be"], 0.99],
  ["pcm-u8.mov", "video/quicktime", [...A(3, 8000), "-c:a", "pcm_u8"], 0.99],
];

describe("the codec floor of real ffmpeg audio", () => {
  it("never exceeds what ffmpeg decodes, on both paths at several part sizes", async () => {
    for (const [name, type, args, least] of CASES) {
      const original = make(name, args);
      const bytes = patched(original);
      const seconds = decoded(dir, original, name);
      // The floor read from the valid file's own sample descriptions and counts (the patch changes neither) against
      // what the valid file decodes to. (A patched file with an edit list decodes less: its edit now cuts by the
      // patched timestamps; billing it more is the floor's point.)
      const figures = await both(bytes, type);
      // Patched to one `stts` entry of 1 tick, FFmpeg demuxes the track by chunks (a sample one decoded frame or a
      // byte): no codec floor is read there but PCM's and AC-3/E-AC-3's bytes (checked below, by the bytes).
      let entries = 0;
      each(original, (type, at) => {
        if (type === "stts") entries = new DataView(original.buffer).getUint32(at + 12);
      });
      const floorRead = entries !== 1 || name.startsWith("pcm");
      if (process.env.FLOOR_LOG) console.log(name, seconds, floorRead, figures.join(" "));
      for (const figure of figures) {
        expect(figure, `${name}: ${figure} vs ${seconds} decoded`).toBeLessThanOrEqual(seconds + 0.0005);
        if (floorRead) expect(figure, `${name}: ${figure} vs ${seconds} decoded`).toBeGreaterThanOrEqual(seconds * least);
      }
      // The unpatched file is measured as before (the floor is below what its timing plays).
      const probe = Number(
        execFileSync("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", join(dir, name)]).toString(),
      );
      for (const figure of await both(original, type)) expect(figure, name).toBeCloseTo(probe, 2);
    }
  }, 600_000);
});

describe("the patched M4A (no edit list, every stts delta 1 tick, stated durations 1 tick)", () => {
  it("is measured at its 10 s, in memory and streamed", async () => {
    const bytes = patched(make("attack.m4a", [...A(10, 44100), "-c:a", "aac", "-use_editlist", "0"]));
    expect(decoded(dir, bytes, "attack")).toBeGreaterThan(10);
    for (const figure of await both(bytes, "audio/mp4")) expect(figure).toBeGreaterThanOrEqual(9.9);
  }, 120_000);
});

/** An `stsd` body of one `mp4a` entry (version 0, `rate` in 16.16) holding `esds` with the descriptor bytes `dsi`. */
function mp4aStsd(dsi: number[], rate = 44100, oti = 0x40): Uint8Array {
  const dc = [oti, 0x15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x05, dsi.length, ...dsi];
  const es = [0, 1, 0, 0x04, dc.length, ...dc];
  const esdsBody = [0, 0, 0, 0, 0x03, es.length, ...es];
  const esds = [...be32(8 + esdsBody.length), ...ascii("esds"), ...esdsBody];
  const entryBody = [0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 16, 0, 0, 0, 0, ...be32(rate * 65536), ...esds];
  const entry = [...be32(8 + entryBody.length), ...ascii("mp4a"), ...entryBody];
  return new Uint8Array([0, 0, 0, 0, 0, 0, 0, 1, ...entry]);
}
function be32(n: number): number[] {
  return [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
}
function ascii(s: string): number[] {
  return [...s].map((c) => c.charCodeAt(0));
}
/** AudioSpecificConfig bits: fields "value/width", space-separated, packed big-endian and padded with zeros. */
function bits(fields: string): number[] {
  let s = "";
  for (const field of fields.split(" ")) {
    const [value, width] = field.split("/").map(Number) as [number, number];
    s += value.toString(2).padStart(width, "0");
  }
  s = s.padEnd(Math.ceil(s.length / 8) * 8, "0");
  return s.match(/.{8}/g)!.map((x) => Number.parseInt(x, 2));
}

describe("codecFloor on hand-built descriptions", () => {
  it("reads AAC-LC, 960-sample frames, and HE-AAC / HE-AACv2 by their core", () => {
    expect(codecFloor(mp4aStsd(bits("2/5 4/4 2/4 0/1"))).perSample).toBeCloseTo(1024 / 44100, 9);
    expect(codecFloor(mp4aStsd(bits("2/5 3/4 2/4 1/1"))).perSample).toBeCloseTo(960 / 48000, 9);
    // Explicit SBR: core 22.05 kHz, output 44.1 kHz (2048 samples at 44.1 kHz last as 1024 at 22.05 kHz).
    const he = bits("5/5 7/4 2/4 4/4 2/5 0/1");
    expect(codecFloor(mp4aStsd(he)).perSample).toBeCloseTo(1024 / 22050, 9);
    const ps = bits("29/5 7/4 1/4 4/4 2/5 0/1");
    expect(codecFloor(mp4aStsd(ps)).perSample).toBeCloseTo(1024 / 22050, 9);
    // An explicit 24-bit rate.
    expect(codecFloor(mp4aStsd(bits("2/5 15/4 16000/24 1/4 0/1"))).perSample).toBeCloseTo(1024 / 16000, 9);
  });

  it("gives no floor for unknown object types, and a conservative one without a config", () => {
    // USAC (42, escaped): no fixed frame read here.
    expect(codecFloor(mp4aStsd(bits("31/5 10/6 4/4 2/4"))).perSample).toBe(0);
    expect(codecFloor(mp4aStsd(bits("2/5"))).perSample).toBe(0); // cut short
    expect(codecFloor(mp4aStsd([], 44100, 0xdd)).perSample).toBe(0);
    // MPEG-1/2 audio in mp4a: layer I's 8 ms.
    expect(codecFloor(mp4aStsd([], 44100, 0x6b)).perSample).toBe(0.008);
  });

  it("reads hostile descriptions linearly, never past their bytes", () => {
    // Bogus descriptor lengths, an entry count of 2^32 - 1, entries past the body: no floor, no throw.
    const b = mp4aStsd(bits("2/5 4/4 2/4 0/1"));
    const long = b.slice();
    long[8 + 36 + 8 + 4 + 1] = 0xff; // ES_Descriptor length 255, past the box
    expect(codecFloor(long).perSample).toBeGreaterThan(0); // falls back to 960 at the stated rate
    expect(codecFloor(long).perSample).toBeLessThanOrEqual(1024 / 44100);
    const many = b.slice();
    many.set([0xff, 0xff, 0xff, 0xff], 4);
    expect(codecFloor(many).perSample).toBe(0);
    const deep = new Uint8Array(8 + 36 + 200_000);
    deep.set([0, 0, 0, 1], 4);
    deep.set([...be32(deep.length - 8), ...ascii("mp4a")], 8);
    for (let at = 8 + 36; at + 8 <= deep.length; at += 8) deep.set([0, 0, 0, 8, ...ascii("free")], at);
    const started = performance.now();
    expect(codecFloor(deep).perSample).toBeGreaterThan(0);
    expect(performance.now() - started).toBeLessThan(5_000); // a hang guard only
  });

  it("refuses an audio sample description longer than it keeps, as both paths would", () => {
    const t = new MovieTiming();
    t.openTop("moov");
    t.open("trak");
    t.open("mdia");
    const hdlr = t.leaf("hdlr", 12)!;
    hdlr.take(new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0, ...ascii("soun")]));
    hdlr.end();
    t.open("minf");
    t.open("stbl");
    const stsd = t.leaf("stsd", STSD_KEPT + 1)!;
    stsd.take(new Uint8Array(STSD_KEPT + 1));
    stsd.end();
    t.close();
    t.close();
    t.close();
    expect(() => t.close()).toThrow(/sample description/);
  });
});

describe("a hostile sample count", () => {
  it("is measured alike by both paths (its floor past the 4 h limit, which refuses it downstream), never thrown", async () => {
    const b = patched(make("huge.m4a", [...A(1, 44100), "-c:a", "aac", "-use_editlist", "0"]));
    const v = new DataView(b.buffer);
    each(b, (type, at) => {
      if (type === "stsz") v.setUint32(at + 8 + 8, 0xffff_ffff);
    });
    const figures = await both(b, "audio/mp4");
    expect(figures.length).toBe(5);
    expect(new Set(figures).size).toBe(1);
    // 2^32 - 1 frames of 1024 samples at 44.1 kHz: about 10^8 s, over the 4 h (14,400 s) any upload may bill.
    expect(figures[0]).toBeGreaterThan(14_400);
  }, 60_000);
});

describe("several sample descriptions", () => {
  const aac = mp4aStsd(bits("2/5 4/4 2/4 0/1"));
  /** `stsd` body with the entries of `first` then of `rest` (entry count summed). */
  function joined(first: Uint8Array, ...rest: Uint8Array[]): Uint8Array {
    const parts = [first, ...rest.map((r) => r.subarray(8))];
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    new DataView(out.buffer).setUint32(4, 1 + rest.length);
    return out;
  }
  const unknown = aac.slice();
  unknown.set(ascii("zzzz"), 12);

  it("an unknown description added after the first does not undo the floor", () => {
    expect(codecFloor(joined(aac, unknown)).perSample).toBeCloseTo(1024 / 44100, 9);
  });
  it("an unknown first description gives none, and the least known one is taken", () => {
    expect(codecFloor(joined(unknown, aac)).perSample).toBe(0);
    expect(codecFloor(joined(aac, mp4aStsd(bits("2/5 3/4 2/4 1/1")))).perSample).toBeCloseTo(960 / 48000, 9);
  });
});

/**
 * QuickTime's chunk-demuxed audio (FFmpeg's rule: the track's `stts` is one entry of 1 tick): each sample is one
 * decoded frame, the chunk holds whole packets (v1 description: samples and bytes per packet). From an ffmpeg MP3 MOV
 * (CBR at 48 kHz, 384-byte frames, one chunk, no edit list), the same packets indexed that way: stsz 1 byte × the
 * decoded frames, stts one entry of 1 tick, stsc those frames per chunk. FFmpeg plays it its 5 s; the floor read each
 * sample as an MP3 packet (24 ms) and billed it 5,806 s.
 */
function chunked(source: Uint8Array): Uint8Array {
  const b = source.slice();
  const v = new DataView(b.buffer);
  const at: Record<string, [number, number]> = {};
  each(b, (type, start, size) => {
    at[type] ??= [start, size];
  });
  const [stsz] = at.stsz!;
  const packet = v.getUint32(stsz + 12);
  const packets = v.getUint32(stsz + 16);
  expect(packet).toBeGreaterThan(0); // constant-size packets
  const entry = at.stsd![0] + 16;
  expect(v.getUint16(entry + 16)).toBe(1); // ffmpeg's v1 sound description
  const perPacket = v.getUint32(entry + 36);
  const frames = packets * perPacket;
  v.setUint32(stsz + 12, 1);
  v.setUint32(stsz + 16, frames);
  const [stts, sttsSize] = at.stts!;
  v.setUint32(stts + 12, 1);
  v.setUint32(stts + 16, frames);
  v.setUint32(stts + 20, 1);
  if (sttsSize > 24) {
    v.setUint32(stts, 24);
    v.setUint32(stts + 24, sttsSize - 24);
    b.set(ascii("free"), stts + 28);
  }
  // Each chunk's packets, as decoded frames.
  const stsc = at.stsc![0];
  for (let i = 0; i < v.getUint32(stsc + 12); i++) v.setUint32(stsc + 20 + i * 12, v.getUint32(stsc + 20 + i * 12) * perPacket);
  v.setInt16(entry + 24, 0); // compression ID: fixed
  v.setUint32(entry + 40, packet); // bytes per packet
  v.setUint32(entry + 44, packet); // bytes per frame
  v.setUint32(entry + 48, 2); // bytes per sample
  if (at.edts) b.set(ascii("free"), at.edts[0] + 4);
  return b;
}

describe("chunk-demuxed QuickTime audio (one stts entry of 1 tick)", () => {
  it("is billed what it plays, not its decoded frames as packets, on both paths", async () => {
    const original = make("mp3-chunked.mov", [...A(5, 48000), "-c:a", "libmp3lame", "-b:a", "128k"]);
    const bytes = chunked(original);
    const seconds = decoded(dir, bytes, "mp3-chunked");
    expect(seconds).toBeGreaterThan(4.9);
    for (const figure of await both(bytes, "video/quicktime")) {
      expect(figure).toBeLessThanOrEqual(seconds + 0.0005);
      expect(figure).toBeGreaterThanOrEqual(seconds * 0.95);
    }
  }, 120_000);
});

/** The first `type` box's [offset, size] in `b`. */
function first(b: Uint8Array, type: string): [number, number] {
  let found: [number, number] | null = null;
  each(b, (t, at, size) => {
    if (t === type && !found) found = [at, size];
  });
  if (!found) throw new Error(`no ${type}`);
  return found;
}
/** `stsz`'s constant sample size × its count: the bytes FFmpeg reads for a constant-size track. */
function payload(b: Uint8Array): number {
  const [at] = first(b, "stsz");
  const v = new DataView(b.buffer, b.byteOffset);
  expect(v.getUint32(at + 12)).toBeGreaterThan(0); // constant-size packets (CBR)
  return v.getUint32(at + 12) * v.getUint32(at + 16);
}
/** Whether the track is chunk-demuxed: its `stts` is one entry of 1 tick. */
function chunkForm(b: Uint8Array): boolean {
  const [at] = first(b, "stts");
  const v = new DataView(b.buffer, b.byteOffset);
  return v.getUint32(at + 12) === 1 && v.getUint32(at + 20) === 1;
}
function ffprobeSeconds(name: string): number {
  return Number(execFileSync("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", join(dir, name)]).toString());
}

describe("AC-3 and E-AC-3 held to their bytes over the codec's highest byte rate", () => {
  it("the rates are A/52's: AC-3 640 kbit/s (1,394 words per 1,536 samples at 44.1 kHz), E-AC-3 6.144 Mbit/s", () => {
    expect(AC3_MAXIMUM_BYTE_RATE).toBeCloseTo(80_046.09, 2);
    expect(EAC3_MAXIMUM_BYTE_RATE).toBe(768_000);
  });

  // name, type, ffmpeg arguments, the codec's highest byte rate, whether the bytes alone reach the decoded length.
  const FILES: [string, string, string[], number, boolean][] = [
    ["ac3-640k-48k.mp4", "audio/mp4", [...A(4, 48000, 2), "-c:a", "ac3", "-b:a", "640k"], AC3_MAXIMUM_BYTE_RATE, true],
    ["ac3-640k-32k.mp4", "audio/mp4", [...A(4, 32000, 2), "-c:a", "ac3", "-b:a", "640k"], AC3_MAXIMUM_BYTE_RATE, true],
    ["ac3-192k.mp4", "audio/mp4", [...A(4, 48000, 2), "-c:a", "ac3"], AC3_MAXIMUM_BYTE_RATE, false],
    ["eac3-6144k.mp4", "audio/mp4", [...A(4, 48000, 2), "-c:a", "eac3", "-b:a", "6144k"], EAC3_MAXIMUM_BYTE_RATE, true],
    ["eac3-default.mp4", "audio/mp4", [...A(4, 48000, 2), "-c:a", "eac3"], EAC3_MAXIMUM_BYTE_RATE, false],
    ["ac3-640k.mov", "video/quicktime", [...A(3, 48000, 2), "-c:a", "ac3", "-b:a", "640k"], AC3_MAXIMUM_BYTE_RATE, true],
    ["eac3.mov", "video/quicktime", [...A(3, 48000, 2), "-c:a", "eac3"], EAC3_MAXIMUM_BYTE_RATE, false],
  ];

  it("a valid file is measured as ffprobe measures it, never above it (the bytes are a floor, not the figure)", async () => {
    for (const [name, type, args, rate] of FILES) {
      const original = make(name, args);
      const probe = ffprobeSeconds(name);
      // ffmpeg's CBR output: a second of it never holds more bytes than the codec's highest rate plays.
      expect(payload(original) / rate, name).toBeLessThanOrEqual(decoded(dir, original, name) + 256 / 32000);
      for (const figure of await both(original, type)) {
        expect(figure, name).toBeCloseTo(probe, 2);
        expect(figure, name).toBeLessThanOrEqual(probe + 0.0005);
      }
    }
  }, 300_000);

  it("patched into chunk form (every stts delta 1 tick, stated lengths 1 tick): billed at least its bytes, never more than it decodes to", async () => {
    // Before: the chunk-demuxed track kept no codec floor, so its ticks were billed (0.003 s for 4 s).
    for (const [name, type, args, rate, reaches] of FILES) {
      const original = make(name, args);
      const bytes = patched(original);
      expect(chunkForm(bytes), name).toBe(true);
      const seconds = decoded(dir, original, name);
      const floor = Math.min(payload(original) / rate, seconds);
      for (const figure of await both(bytes, type)) {
        expect(figure, `${name}: ${figure} vs ${seconds} decoded`).toBeLessThanOrEqual(seconds + 0.0005);
        expect(figure, `${name}: ${figure} vs its bytes' ${floor} s`).toBeGreaterThanOrEqual(floor - 0.001);
        if (reaches) expect(figure, name).toBeGreaterThanOrEqual(seconds * 0.99);
      }
    }
  }, 300_000);

  it("a valid chunk-read QuickTime file (a sample one decoded frame, packets stated in the description) is billed what it plays; with its timescale patched, still its bytes", async () => {
    for (const [name, args, rate, reaches] of [
      ["ac3-640k-chunked.mov", [...A(4, 48000, 2), "-c:a", "ac3", "-b:a", "640k"], AC3_MAXIMUM_BYTE_RATE, true],
      ["ac3-32k-chunked.mov", [...A(4, 32000, 2), "-c:a", "ac3", "-b:a", "640k"], AC3_MAXIMUM_BYTE_RATE, true],
      ["ac3-192k-chunked.mov", [...A(4, 48000, 2), "-c:a", "ac3"], AC3_MAXIMUM_BYTE_RATE, false],
      ["eac3-6144k-chunked.mov", [...A(4, 48000, 2), "-c:a", "eac3", "-b:a", "6144k"], EAC3_MAXIMUM_BYTE_RATE, true],
    ] as const) {
      const original = make(name, [...args]);
      const bytes = chunked(original);
      const seconds = decoded(dir, bytes, name);
      expect(seconds, name).toBeGreaterThan(3.9);
      for (const figure of await both(bytes, "video/quicktime")) {
        expect(figure, name).toBeLessThanOrEqual(seconds + 0.0005);
        expect(figure, name).toBeGreaterThanOrEqual(seconds * 0.99);
      }
      // mdhd's timescale × 1000 and the stated lengths 1 tick: FFmpeg decodes the same bytes, its ticks say 4 ms.
      const fast = bytes.slice();
      const v = new DataView(fast.buffer);
      const [mdhd] = first(fast, "mdhd");
      v.setUint32(mdhd + 20, v.getUint32(mdhd + 20) * 1000);
      v.setUint32(mdhd + 24, 1);
      v.setUint32(first(fast, "mvhd")[0] + 24, 1);
      v.setUint32(first(fast, "tkhd")[0] + 28, 1);
      expect(decoded(dir, fast, `${name}-fast`), name).toBeCloseTo(seconds, 3);
      const floor = payload(original) / rate;
      for (const figure of await both(fast, "video/quicktime")) {
        expect(figure, name).toBeLessThanOrEqual(seconds + 0.0005);
        expect(figure, `${name}: ${figure} vs its bytes' ${floor} s`).toBeGreaterThanOrEqual(floor - 0.001);
        if (reaches) expect(figure, name).toBeGreaterThanOrEqual(seconds * 0.99);
      }
    }
  }, 300_000);
});

describe("chunk-demuxed audio counted by its chunks", () => {
  it("a PCM MOV whose stts and stsz counts and stated lengths are patched to 1 is billed what FFmpeg plays (was 0.001 s)", async () => {
    const b = make("pcm-counts.mov", [...A(3, 48000), "-c:a", "pcm_s16le"]);
    expect(chunkForm(b)).toBe(true);
    const v = new DataView(b.buffer);
    v.setUint32(first(b, "stts")[0] + 16, 1);
    v.setUint32(first(b, "stsz")[0] + 16, 1);
    v.setUint32(first(b, "mdhd")[0] + 24, 1);
    v.setUint32(first(b, "mvhd")[0] + 24, 1);
    v.setUint32(first(b, "tkhd")[0] + 28, 1);
    const edts = first(b, "edts")[0];
    b.set(ascii("free"), edts + 4);
    // FFmpeg demuxes the chunks `stsc` and `stco` describe, whatever those counts say.
    const seconds = decoded(dir, b, "pcm-counts");
    expect(seconds).toBeGreaterThan(2.99);
    for (const figure of await both(b, "video/quicktime")) {
      expect(figure).toBeLessThanOrEqual(seconds + 0.0005);
      expect(figure).toBeGreaterThanOrEqual(seconds * 0.999);
    }
  }, 60_000);
});

describe("stsc is walked only where it can count", () => {
  /** A MovieTiming fed one audio track: `leaves` [type, body] in order inside stbl (mdhd at 48 kHz, hdlr soun first). */
  function track(leaves: [string, number[]][]): MovieTiming {
    const t = new MovieTiming();
    const leaf = (type: string, body: number[]) => {
      const sink = t.leaf(type, body.length);
      sink?.take(new Uint8Array(body));
      sink?.end();
    };
    t.openTop("moov");
    t.open("trak");
    t.open("mdia");
    leaf("mdhd", [0, 0, 0, 0, ...be32(0), ...be32(0), ...be32(48_000), ...be32(0), 0, 0, 0, 0]);
    leaf("hdlr", [0, 0, 0, 0, 0, 0, 0, 0, ...ascii("soun")]);
    t.open("minf");
    t.open("stbl");
    for (const [type, body] of leaves) leaf(type, body);
    t.close();
    t.close();
    t.close();
    t.close();
    t.close();
    return t;
  }
  const stts = (count: number, delta: number) => [0, 0, 0, 0, ...be32(1), ...be32(count), ...be32(delta)];
  const stsc = [0, 0, 0, 0, ...be32(1), ...be32(1), ...be32(48_000), ...be32(1)];
  const stco = [0, 0, 0, 0, ...be32(3), ...be32(0), ...be32(0), ...be32(0)];

  it("chunk-demuxed audio counts its chunks whatever the order of stts and stsc", () => {
    // 3 chunks of 48,000 samples (1 s each at 48 kHz), stts stating one sample of 1 tick.
    for (const order of [
      [
        ["stts", stts(1, 1)],
        ["stsc", stsc],
        ["stco", stco],
      ],
      [
        ["stsc", stsc],
        ["stco", stco],
        ["stts", stts(1, 1)],
      ],
    ] as [string, number[]][][])
      expect(track(order).seconds).toBeCloseTo(3, 9);
  });

  it("an stts after an stsc passed over, making the track chunk-demuxed, is refused (not billed without its chunks)", () => {
    // The first stts times samples one by one, so stsc is not walked; a second (malformed: FFmpeg reads the last)
    // turns the track into chunk-demuxed audio, whose chunks were not counted.
    expect(() =>
      track([
        ["stts", stts(10, 1024)],
        ["stsc", stsc],
        ["stco", stco],
        ["stts", stts(1, 1)],
      ]),
    ).toThrow(/stsc/);
  });
});
