/**
 * MP3 out: 16-bit PCM to MPEG audio layer III with LAME (npm wasm-media-encoders: LAME 3.100 built to wasm, its
 * module injected as the decoders' are, since workerd cannot compile wasm from bytes), at a constant bitrate and the
 * source's sample rate (LAME would otherwise resample at low bitrates). Plus what a re-encode keeps of its source
 * (`mp3Source`): its bitrate (a VBR source's average, rounded up to a CBR value: its stated equivalent), its rate and
 * channels, and its ID3v2 tags and ID3v1 tag, copied as they were. Invariant: never throws; an input LAME cannot take
 * is `failed` before LAME sees it.
 */
import { createEncoder, type WasmMediaEncoder } from "wasm-media-encoders";
import { firstFrame, frameHeader, id3v2Length } from "./mpeg";

/** The bitrates LAME encodes at a constant rate, kb/s (MPEG-1 takes 32–320; MPEG-2/2.5 8–160). */
export const MP3_CBR_KBPS = [8, 16, 24, 32, 40, 48, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320] as const;
export type Mp3Kbps = (typeof MP3_CBR_KBPS)[number];
const MP3_RATES = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000] as const;

export interface Mp3EncodeInput {
  /** Interleaved 16-bit samples, 1 or 2 channels. */
  pcm: Int16Array;
  sampleRate: number;
  channels: number;
  kbps: number;
  /** Written before the audio (ID3v2 tags) and after it (an ID3v1 tag), as they are. */
  prefix?: Uint8Array;
  suffix?: Uint8Array;
}

export type Mp3EncodeResult = { status: "encoded"; bytes: Uint8Array } | { status: "failed"; message: string };

/** What a re-encode of an MP3 keeps: see the file's comment. */
export interface Mp3Source {
  sampleRate: number;
  channels: 1 | 2;
  layer: 1 | 2 | 3;
  /** The bitrate to encode at: the source's (CBR), or its average rounded up to a CBR value (VBR). */
  kbps: Mp3Kbps;
  vbr: boolean;
  /** The ID3v2 tags at the start, and the tags after the audio: an appended ID3v2.4 tag (with its footer) and an ID3v1 tag (empty when none). */
  id3v2: Uint8Array;
  trailer: Uint8Array;
}

const failed = (message: string) => ({ status: "failed" as const, message });

/** MPEG-1 takes 32–320 kb/s; MPEG-2 and 2.5 (rates below 32 kHz) 8–160. */
function allowedKbps(sampleRate: number): readonly number[] {
  return sampleRate >= 32000 ? MP3_CBR_KBPS.filter((k) => k >= 32) : MP3_CBR_KBPS.filter((k) => k <= 160);
}

/** The source's parameters, walking its frame headers (bounded: one step per frame); or why it has none. */
export function mp3Source(bytes: Uint8Array): Mp3Source | { error: string } {
  const first = firstFrame(bytes);
  if ("error" in first) return first;
  const { header } = first;
  const tagsEnd = Math.max(0, id3v2Length(bytes, 0));
  const hasV1 =
    bytes.length >= 128 + first.offset && String.fromCharCode(...bytes.subarray(bytes.length - 128, bytes.length - 125)) === "TAG";
  const v1Start = hasV1 ? bytes.length - 128 : bytes.length;
  // An ID3v2.4 tag may be appended after the audio (before any ID3v1 tag), found by its footer "3DI".
  const footer = v1Start - 10;
  let audioEnd = v1Start;
  if (footer >= first.offset && bytes[footer] === 0x33 && bytes[footer + 1] === 0x44 && bytes[footer + 2] === 0x49) {
    const size =
      ((bytes[footer + 6]! & 0x7f) << 21) |
      ((bytes[footer + 7]! & 0x7f) << 14) |
      ((bytes[footer + 8]! & 0x7f) << 7) |
      (bytes[footer + 9]! & 0x7f);
    if (footer - size - 10 >= first.offset) audioEnd = footer - size - 10;
  }
  // A Xing/Info tag sits in the first frame, after the side information: "Xing" marks VBR, LAME's "Info" CBR.
  const firstBytes = bytes.subarray(first.offset, Math.min(first.offset + header.length, audioEnd));
  const tag = new TextDecoder("latin1").decode(firstBytes.subarray(0, Math.min(64, firstBytes.length)));
  let vbr = tag.includes("Xing") || tag.includes("VBRI");
  const info = tag.includes("Info");
  const samplesPerFrame = header.layer === 1 ? 384 : header.layer === 3 && header.version !== 1 ? 576 : 1152;
  let frames = 0;
  let audioBytes = 0;
  let at = first.offset + (vbr || info ? header.length : 0);
  const rates = new Set<number>();
  for (let h = frameHeader(bytes, at); h && at + h.length <= audioEnd; h = frameHeader(bytes, at)) {
    if (h.sampleRate !== header.sampleRate || h.layer !== header.layer) break;
    rates.add(h.kbps);
    frames++;
    audioBytes += h.length;
    at += h.length;
  }
  if (frames === 0) return { error: "no MPEG audio frame after the first" };
  if (rates.size > 1) vbr = true;
  const allowed = allowedKbps(header.sampleRate);
  const average = (audioBytes * 8 * header.sampleRate) / (frames * samplesPerFrame) / 1000;
  const wanted = vbr ? average : [...rates][0]!;
  const kbps = (allowed.find((k) => k >= wanted - 0.5) ?? allowed[allowed.length - 1]!) as Mp3Kbps;
  return {
    sampleRate: header.sampleRate,
    channels: header.channels,
    layer: header.layer,
    kbps,
    vbr,
    id3v2: bytes.subarray(0, tagsEnd),
    trailer: bytes.subarray(audioEnd),
  };
}

/** Samples handed to LAME per call: one second at 48 kHz. */
const CHUNK_FRAMES = 48_000;

/**
 * One LAME instance per module and isolate: its linear memory is 16 MiB whatever the recording, so a job must not
 * leave one more to the GC each time. `configure` frees the previous stream's state; an encode runs synchronously
 * from `configure` to `finalize`, so two jobs never interleave in it. An instance that threw is dropped.
 */
const instances = new WeakMap<WebAssembly.Module, Promise<WasmMediaEncoder<"audio/mpeg">>>();

function lameOf(module: WebAssembly.Module): Promise<WasmMediaEncoder<"audio/mpeg">> {
  let instance = instances.get(module);
  if (!instance) {
    instance = createEncoder("audio/mpeg", module);
    instances.set(module, instance);
    instance.catch(() => instances.delete(module));
  }
  return instance;
}

/** Encodes with LAME from `module` (wasm-media-encoders' mp3.wasm); see the file's comment. */
export async function encodeMp3(module: WebAssembly.Module, input: Mp3EncodeInput): Promise<Mp3EncodeResult> {
  const { pcm, sampleRate, channels, kbps } = input;
  if (channels !== 1 && channels !== 2) return failed(`MP3 takes 1 or 2 channels, not ${channels}`);
  if (!(MP3_RATES as readonly number[]).includes(sampleRate)) return failed(`MP3 has no ${sampleRate} Hz rate`);
  if (!allowedKbps(sampleRate).includes(kbps)) return failed(`MP3 at ${sampleRate} Hz has no ${kbps} kb/s constant bitrate`);
  if (pcm.length % channels !== 0) return failed("the samples are not a whole number of frames");
  const parts: Uint8Array[] = [];
  let total = 0;
  const keep = (bytes: Uint8Array) => {
    // The encoder's output view is of its wasm memory, reused by the next call: copied out.
    parts.push(bytes.slice());
    total += bytes.length;
  };
  let encoder: WasmMediaEncoder<"audio/mpeg"> | null = null;
  try {
    encoder = await lameOf(module);
    encoder.configure({
      channels,
      sampleRate,
      bitrate: kbps as Mp3Kbps,
      outputSampleRate: sampleRate as (typeof MP3_RATES)[number],
    });
    const frames = pcm.length / channels;
    const planes = Array.from({ length: channels }, () => new Float32Array(CHUNK_FRAMES));
    for (let from = 0; from < frames; from += CHUNK_FRAMES) {
      const n = Math.min(CHUNK_FRAMES, frames - from);
      for (let c = 0; c < channels; c++) {
        const plane = planes[c]!;
        for (let f = 0, k = from * channels + c; f < n; f++, k += channels) plane[f] = pcm[k]! / 32768;
      }
      keep(encoder.encode(n === CHUNK_FRAMES ? planes : planes.map((p) => p.subarray(0, n))));
    }
    keep(encoder.finalize());
  } catch (error) {
    if (encoder) instances.delete(module);
    return failed(`MP3 encoder error: ${error instanceof Error ? error.message : String(error)}`);
  }
  const prefix = input.prefix ?? new Uint8Array(0);
  const suffix = input.suffix ?? new Uint8Array(0);
  const out = new Uint8Array(prefix.length + total + suffix.length);
  out.set(prefix, 0);
  let at = prefix.length;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  out.set(suffix, at);
  return { status: "encoded", bytes: out };
}
