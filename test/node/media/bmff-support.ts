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
