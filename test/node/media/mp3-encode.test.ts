/**
 * #20: the MP3 re-encode (src/media/codecs/audio/mp3-encode.ts, LAME in wasm): what it keeps of a source
 * (`mp3Source`: bitrate, VBR average, tags), that the per-isolate LAME instance carries nothing from one encode to the
 * next, and that input LAME cannot take is `failed` before it runs.
 *
 * Audio: test/fixtures/audio/speech-music-*.mp3 (see that folder's README) and ffmpeg-made variants.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mp3Source } from "../../../src/media/codecs/audio/mp3-encode";
import { nodeAudioEncoders } from "../../../src/media/codecs/audio/node";

const AUDIO = join(import.meta.dirname, "..", "..", "fixtures", "audio");
const encoders = await nodeAudioEncoders();
const fixture = (name: string) => new Uint8Array(readFileSync(join(AUDIO, name)));
const ffmpeg = (args: string[]) =>
  new Uint8Array(execFileSync("/usr/bin/ffmpeg", ["-v", "error", "-i", join(AUDIO, "speech-music-128k.mp3"), ...args, "-f", "mp3", "-"]));

describe("MP3 re-encode", () => {
  it("reads a source's bitrate, rate and channels; a VBR source's average is rounded up to a CBR value", () => {
    expect(mp3Source(fixture("speech-music-128k.mp3"))).toMatchObject({ sampleRate: 44100, channels: 2, layer: 3, kbps: 128, vbr: false });
    expect(mp3Source(fixture("speech-music-48k-64k.mp3"))).toMatchObject({ sampleRate: 48000, kbps: 64, vbr: false });
    const vbr = mp3Source(ffmpeg(["-c:a", "libmp3lame", "-q:a", "5"]));
    if ("error" in vbr) throw new Error(vbr.error);
    expect(vbr.vbr).toBe(true);
    expect([80, 96, 112, 128, 160]).toContain(vbr.kbps);
    const mono = mp3Source(ffmpeg(["-ac", "1", "-ar", "16000", "-c:a", "libmp3lame", "-b:a", "32k"]));
    expect(mono).toMatchObject({ sampleRate: 16000, channels: 1, kbps: 32, vbr: false });
    expect(mp3Source(new Uint8Array(1000))).toHaveProperty("error");
  });

  it("the LAME instance is reused: the same samples encode to the same bytes every time, at the bitrate asked", async () => {
    const pcm = Int16Array.from({ length: 44100 * 2 * 3 }, (_, i) => Math.round(8000 * Math.sin(i / 20) + ((i * 7919) % 601) - 300));
    const a = await encoders.mp3({ pcm, sampleRate: 44100, channels: 2, kbps: 128 });
    const other = await encoders.mp3({ pcm: pcm.subarray(0, 44100), sampleRate: 22050, channels: 1, kbps: 48 });
    const b = await encoders.mp3({ pcm, sampleRate: 44100, channels: 2, kbps: 128 });
    if (a.status !== "encoded" || b.status !== "encoded" || other.status !== "encoded") throw new Error("not encoded");
    expect(Buffer.from(b.bytes).equals(Buffer.from(a.bytes))).toBe(true);
    // 3 s at 128 kb/s: 48 000 bytes of frames, give or take the encoder's delay and padding.
    expect(a.bytes.length).toBeGreaterThan(46_000);
    expect(a.bytes.length).toBeLessThan(56_000);
  });

  it("refuses what LAME cannot take, before it runs", async () => {
    const pcm = new Int16Array(44100 * 3);
    for (const input of [
      { pcm, sampleRate: 44100, channels: 3, kbps: 128 },
      { pcm, sampleRate: 12345, channels: 1, kbps: 128 },
      { pcm, sampleRate: 44100, channels: 1, kbps: 8 },
      { pcm, sampleRate: 22050, channels: 1, kbps: 320 },
      { pcm, sampleRate: 44100, channels: 1, kbps: 100 },
      { pcm: new Int16Array(3), sampleRate: 44100, channels: 2, kbps: 128 },
    ])
      expect((await encoders.mp3(input)).status, JSON.stringify({ ...input, pcm: input.pcm.length })).toBe("failed");
  });
});
