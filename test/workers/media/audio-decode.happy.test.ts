/**
 * The audio decoder inside workerd, as the Worker builds it (codecs/audio/workerd.ts: the decoders' wasm imported as
 * modules, no compilation from bytes): every fixture decodes to the same PCM as in Node (the committed digests,
 * which test/node/media/audio-decode.conformance.test.ts holds against FFmpeg), signed-style files as their
 * originals, maxSeconds, and hostile files to a status.
 */
import { describe, expect, it } from "vitest";
import { audioDecoder } from "../../../src/media/codecs/audio/workerd";
import {
  AUDIO_FIXTURES,
  collect,
  flacWithApplicationBlock,
  HOSTILE,
  manifestLike,
  mp3WithGeob,
  sha256Hex,
  wavWithC2paChunk,
} from "./audio-decode.helpers";

/** test/fixtures/audio, inlined by Vite as base64 data URLs (only this file loads them). */
const INLINED = import.meta.glob(["../../fixtures/audio/*.{wav,flac,mp3,m4a}", "../../fixtures/audio/hostile/*"], {
  query: "?inline",
  import: "default",
  eager: true,
}) as Record<string, string>;
const FIXTURES = new Map(
  Object.entries(INLINED).map(([path, url]) => [
    path.slice(path.indexOf("/audio/") + "/audio/".length),
    Uint8Array.from(atob(url.slice(url.indexOf(",") + 1)), (c) => c.charCodeAt(0)),
  ]),
);
const fixture = (name: string) => {
  const bytes = FIXTURES.get(name);
  if (!bytes) throw new Error(`fixture ${name} not inlined`);
  return bytes;
};

describe("audio decoding in workerd", () => {
  it("runs where wasm cannot be compiled from bytes (so the packages' own loading would fail)", async () => {
    const empty = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
    const compile = (WebAssembly as unknown as { compile(b: Uint8Array): Promise<unknown> }).compile;
    await expect(compile(empty)).rejects.toThrow(/disallowed/);
    // The loading placeholder (worker-placeholder.ts) is gone once the packages are loaded.
    expect(typeof (globalThis as { Worker?: unknown }).Worker).toBe("undefined");
  });

  it("has the fixtures", () => {
    expect(FIXTURES.size).toBeGreaterThanOrEqual(Object.keys(AUDIO_FIXTURES).length + 10);
    expect(FIXTURES.get("hostile/empty.wav")?.length).toBe(0);
  });

  for (const [name, want] of Object.entries(AUDIO_FIXTURES)) {
    it(`${name}: ${want.frames} frames at ${want.sampleRate} Hz, the PCM of the Node decode`, async () => {
      const { result, pcm } = await collect(audioDecoder, fixture(name), want.type);
      expect(result).toEqual({
        status: "decoded",
        sampleRate: want.sampleRate,
        channels: want.channels,
        frames: want.frames,
        truncated: false,
      });
      expect(await sha256Hex(pcm)).toBe(want.sha256);
    });
  }

  it("signed-style carriers (C2PA chunk, ID3v2 GEOB, FLAC APPLICATION block) decode as the originals", async () => {
    const payload = manifestLike(12_345);
    const cases = [
      ["speech-music.wav", wavWithC2paChunk(fixture("speech-music.wav"), payload)],
      ["speech-music-64k.mp3", mp3WithGeob(fixture("speech-music-64k.mp3"), payload)],
      ["speech-music.flac", flacWithApplicationBlock(fixture("speech-music.flac"), payload)],
    ] as const;
    for (const [name, signed] of cases) {
      const { result, pcm } = await collect(audioDecoder, signed, AUDIO_FIXTURES[name].type);
      expect(result, name).toMatchObject({ status: "decoded", frames: AUDIO_FIXTURES[name].frames });
      expect(await sha256Hex(pcm), name).toBe(AUDIO_FIXTURES[name].sha256);
    }
  });

  it("maxSeconds stops early with truncated", async () => {
    for (const name of ["speech-music.flac", "speech-music-128k.mp3"] as const) {
      const { result } = await collect(audioDecoder, fixture(name), AUDIO_FIXTURES[name].type, 2);
      expect(result, name).toEqual({ status: "decoded", sampleRate: 44100, channels: 2, frames: 88_200, truncated: true });
    }
  });

  it("hostile files and AAC get a status", async () => {
    for (const [file, type, status] of HOSTILE) {
      const { result } = await collect(audioDecoder, fixture(file), type);
      expect(result.status, `${file} as ${type}`).toBe(status);
    }
  });
});
