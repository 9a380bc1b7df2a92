/**
 * Shared by the audio decoder's tests in Node (test/node/media/audio-decode*.test.ts) and in workerd
 * (audio-decode*.test.ts here): the fixtures' expected decodes, a sink that checks the streaming contract, and the
 * "signed-style" variants of the fixtures (the carriers a C2PA signer adds: a WAV chunk, an ID3v2 GEOB frame, a
 * FLAC APPLICATION block), built here instead of committed twice. No Node APIs: both runtimes import it.
 */
import { expect } from "vitest";
import type { AudioDecodeResult, AudioDecoder } from "../../../src/media/codecs/audio";

/**
 * test/fixtures/audio (see its README): media type, expected format and length (FFmpeg 5.1's decode gives the same
 * frame counts), and the SHA-256 of our decode's interleaved s16le PCM (the same in Node and workerd).
 */
export const AUDIO_FIXTURES = {
  "speech-music.wav": {
    type: "audio/wav",
    sampleRate: 44100,
    channels: 2,
    frames: 132_300,
    sha256: "3398187f1cf0457a385810992379117a5fd3a652912f8ed2eab6fd0e7b2eec91",
  },
  "speech-music.flac": {
    type: "audio/flac",
    sampleRate: 44100,
    channels: 2,
    frames: 308_700,
    sha256: "38728fa040880a4dfe1c784b25fdae74dc755034fe450e3c146b7f052203b101",
  },
  "speech-music-128k.mp3": {
    type: "audio/mpeg",
    sampleRate: 44100,
    channels: 2,
    frames: 661_500,
    sha256: "9eafa43c13de9424895e676c4da2d16d9c7bad6b78f189a9e037418d33355aba",
  },
  "speech-music-64k.mp3": {
    type: "audio/mpeg",
    sampleRate: 44100,
    channels: 2,
    frames: 661_500,
    sha256: "aa7f66f4b1a89ce5031b3fd57236119dc6cecc9489a84784e3ae3e7389bfaf89",
  },
  "speech-music-48k-64k.mp3": {
    type: "audio/mpeg",
    sampleRate: 48000,
    channels: 2,
    frames: 720_000,
    sha256: "2da603d89541f86eacc561d671ee87519156608d781c6e68b57d26ff3b81b15e",
  },
} as const;
export type AudioFixtureName = keyof typeof AUDIO_FIXTURES;

/** test/fixtures/audio/hostile (and the M4A): what each must decode to, as a media type and a status. */
export const HOSTILE: readonly [file: string, type: string, status: "failed" | "unsupported"][] = [
  ["hostile/empty.wav", "audio/wav", "failed"],
  ["hostile/wav-cut-in-fmt.wav", "audio/wav", "failed"],
  ["hostile/wav-zero-data.wav", "audio/wav", "failed"],
  ["hostile/wav-data-size-absurd.wav", "audio/wav", "failed"],
  ["hostile/wav-fmt-size-absurd.wav", "audio/wav", "failed"],
  ["hostile/wav-zero-channels.wav", "audio/wav", "failed"],
  ["hostile/wav-block-align-lies.wav", "audio/wav", "failed"],
  ["hostile/wav-adpcm.wav", "audio/wav", "unsupported"],
  ["hostile/mp3-tag-then-garbage.mp3", "audio/mpeg", "failed"],
  ["hostile/mp3-tag-size-absurd.mp3", "audio/mpeg", "failed"],
  ["hostile/mp3-cut.mp3", "audio/mpeg", "failed"],
  ["hostile/flac-cut-in-streaminfo.flac", "audio/flac", "failed"],
  ["hostile/flac-block-size-absurd.flac", "audio/flac", "failed"],
  ["hostile/flac-no-frames.flac", "audio/flac", "failed"],
  ["hostile/garbage.mp3", "audio/wav", "failed"],
  ["hostile/garbage.mp3", "audio/mpeg", "failed"],
  ["hostile/garbage.mp3", "audio/flac", "failed"],
  ["speech-music-96k.m4a", "audio/mp4", "unsupported"],
  ["speech-music-96k.m4a", "audio/aac", "unsupported"],
  ["speech-music.wav", "audio/ogg", "unsupported"],
];

export interface Collected {
  result: AudioDecodeResult;
  /** The writes concatenated. */
  pcm: Int16Array;
  /** Frames in each write. */
  writeFrames: number[];
}

/** Decodes through a sink that checks the contract: one start before any write, whole frames, at most 1 s each. */
export async function collect(decoder: AudioDecoder, bytes: Uint8Array, type: string, maxSeconds?: number): Promise<Collected> {
  let format: { rate: number; channels: number } | null = null;
  const parts: Int16Array[] = [];
  const writeFrames: number[] = [];
  const result = await decoder.decode(
    bytes,
    type,
    {
      start(rate, channels) {
        expect(format, "start called once").toBeNull();
        format = { rate, channels };
      },
      write(chunk) {
        expect(format, "start before write").not.toBeNull();
        const { rate, channels } = format!;
        expect(chunk).toBeInstanceOf(Int16Array);
        expect(chunk.length % channels).toBe(0);
        expect(chunk.length).toBeGreaterThan(0);
        expect(chunk.length / channels).toBeLessThanOrEqual(rate);
        parts.push(chunk);
        writeFrames.push(chunk.length / channels);
      },
    },
    maxSeconds === undefined ? undefined : { maxSeconds },
  );
  const pcm = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    pcm.set(p, at);
    at += p.length;
  }
  if (result.status === "decoded") {
    expect(format).toEqual({ rate: result.sampleRate, channels: result.channels });
    expect(pcm.length).toBe(result.frames * result.channels);
  } else {
    expect(pcm.length).toBe(0);
  }
  return { result, pcm, writeFrames };
}

export async function sha256Hex(pcm: Int16Array): Promise<string> {
  const bytes = new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const le32 = (v: number) => new Uint8Array([v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, v >>> 24]);
const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

/**
 * A payload standing in for a C2PA manifest: JUMBF-like bytes with every pattern a parser might take for audio
 * (MPEG and FLAC frame syncs, "data", "fLaC", "ID3").
 */
export function manifestLike(length: number): Uint8Array {
  const out = new Uint8Array(length);
  const marks = [0xff, 0xfb, 0x90, 0x64, 0xff, 0xf8, 0xc9, 0x08, ...ascii("datafLaCID3jumbc2pa")];
  for (let i = 0; i < length; i++) out[i] = i % 97 < marks.length ? marks[i % 97]! : (i * 131 + 17) & 0xff;
  return out;
}

/** The WAV with a `C2PA` chunk (odd-sized, so padded) before its data chunk, or after it (at the end of the file). */
export function wavWithC2paChunk(wav: Uint8Array, payload: Uint8Array, where: "before-data" | "at-end" = "before-data"): Uint8Array {
  let at = 12;
  if (where === "at-end") at = wav.length;
  else
    while (String.fromCharCode(...wav.subarray(at, at + 4)) !== "data") {
      const size = wav[at + 4]! | (wav[at + 5]! << 8) | (wav[at + 6]! << 16) | (wav[at + 7]! << 24);
      at += 8 + size + (size & 1);
    }
  const chunk = concat(ascii("C2PA"), le32(payload.length), payload, payload.length & 1 ? new Uint8Array(1) : new Uint8Array(0));
  const out = concat(wav.subarray(0, at), chunk, wav.subarray(at));
  out.set(le32(out.length - 8), 4);
  return out;
}

/** The MP3 behind an ID3v2.4 tag holding a GEOB frame (the C2PA manifest's carrier) and some junk after the tag. */
export function mp3WithGeob(mp3: Uint8Array, payload: Uint8Array, junk = 517): Uint8Array {
  // Skip the file's own ID3v2 tag, if any: the signed file has one tag.
  let audio = mp3;
  if (mp3[0] === 0x49 && mp3[1] === 0x44 && mp3[2] === 0x33) {
    const size = (mp3[6]! << 21) | (mp3[7]! << 14) | (mp3[8]! << 7) | mp3[9]!;
    audio = mp3.subarray(10 + size);
  }
  const syncsafe = (v: number) => new Uint8Array([(v >> 21) & 0x7f, (v >> 14) & 0x7f, (v >> 7) & 0x7f, v & 0x7f]);
  const geobBody = concat(
    new Uint8Array([3]),
    ascii("application/x-c2pa-manifest-store\0"),
    ascii("c2pa\0"),
    ascii("c2pa manifest store\0"),
    payload,
  );
  const frame = concat(ascii("GEOB"), syncsafe(geobBody.length), new Uint8Array([0, 0]), geobBody);
  const tag = concat(ascii("ID3"), new Uint8Array([4, 0, 0]), syncsafe(frame.length), frame);
  const garbage = Uint8Array.from({ length: junk }, (_, i) => (i * 29 + 3) & 0x7f);
  return concat(tag, garbage, audio);
}

/** The FLAC with an APPLICATION block (id "c2pa") right after STREAMINFO, as a signer adds its manifest. */
export function flacWithApplicationBlock(flac: Uint8Array, payload: Uint8Array): Uint8Array {
  const streamInfoEnd = 4 + 4 + 34;
  const header = flac.slice(0, streamInfoEnd);
  const wasLast = (header[4]! & 0x80) !== 0;
  header[4] = header[4]! & 0x7f;
  const size = 4 + payload.length;
  const block = concat(new Uint8Array([(wasLast ? 0x80 : 0) | 2, size >> 16, (size >> 8) & 0xff, size & 0xff]), ascii("c2pa"), payload);
  return concat(header, block, flac.subarray(streamInfoEnd));
}
