/** Helpers the ISO BMFF timing tests share: ffmpeg output read back, and a walk of a file's boxes. */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** ffmpeg's output of `args` written to `dir/name` and read back (errors only on stderr). */
export function ffmpegFile(dir: string, name: string, args: string[]): Uint8Array {
  const out = join(dir, name);
  execFileSync("ffmpeg", ["-v", "error", "-y", ...args, out]);
  return new Uint8Array(readFileSync(out));
}

/** What ffmpeg decodes `bytes`' first audio stream to, in seconds (its mono 16-bit WAV's data size over the rate). */
export function decoded(dir: string, bytes: Uint8Array, name: string): number {
  const src = join(dir, `in-${name}`);
  const wav = join(dir, `${name}.wav`);
  execFileSync("sh", ["-c", 'cat > "$1"', "sh", src], { input: bytes });
  execFileSync("ffmpeg", ["-v", "error", "-y", "-i", src, "-map", "0:a:0", "-c:a", "pcm_s16le", "-ac", "1", wav]);
  const w = readFileSync(wav);
  const rate = w.readUInt32LE(24);
  for (let at = 12; at + 8 <= w.length; at += 8 + w.readUInt32LE(at + 4)) {
    if (w.toString("latin1", at, at + 4) === "data") return w.readUInt32LE(at + 4) / 2 / rate;
  }
  throw new Error("no data chunk");
}

const CONTAINERS = new Set(["moov", "trak", "mdia", "minf", "stbl", "edts", "mvex", "moof", "traf"]);

/** Every box as [type, offset, size], the containers the timing reads descended, in file order. */
export function boxList(b: Uint8Array, start = 0, end = b.length, out: [string, number, number][] = []): [string, number, number][] {
  const view = new DataView(b.buffer, b.byteOffset);
  for (let at = start; at + 8 <= end; ) {
    const size = view.getUint32(at);
    const type = String.fromCharCode(...b.subarray(at + 4, at + 8));
    out.push([type, at, size]);
    if (CONTAINERS.has(type)) boxList(b, at + 8, at + size, out);
    at += size;
  }
  return out;
}
