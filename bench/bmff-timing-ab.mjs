// A/B of the ISO BMFF duration reading (src/media/inspect/isobmff-timing.ts): CPU ms of the in-memory inspection and
// of the streamed inspection of large uploads, another checkout (--old DIR, e.g. a `git worktree add` of the base
// commit) vs this one, interleaved (alternating order), medians. Inputs made by ffmpeg: a 300 s 160x120 H.264 + AAC
// movie fragmented every 0.1 s (about 2,700 moof), the same remuxed unfragmented, and the latter followed by a 64 MiB
// mdat (streamed). Each side's duration is printed (the old code reads none from the fragments).
//   npx tsx bench/bmff-timing-ab.mjs --old DIR [--runs N]   (tsx: src/ has TypeScript that type stripping cannot run)
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const opt = (name, fallback) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback);
const runs = Number(opt("--runs", 7));
const oldDir = resolve(opt("--old", join(import.meta.dirname, "..")));
const newDir = join(import.meta.dirname, "..");

// workerd's crypto.DigestStream (SHA-256), which the streamed inspection hashes the whole body with.
if (!globalThis.crypto.DigestStream) {
  globalThis.crypto.DigestStream = class extends WritableStream {
    constructor() {
      const hash = createHash("sha256");
      let done;
      const digest = new Promise((r) => (done = r));
      super({ write: (c) => void hash.update(c), close: () => done(new Uint8Array(hash.digest()).buffer) });
      this.digest = digest;
    }
  };
}

const load = async (dir) => ({
  Inspector: (await import(join(dir, "src/media/inspect/index.ts"))).ByteSniffingInspector,
  inspectStreamed: (await import(join(dir, "src/uploads/large-inspection.ts"))).inspectStreamed,
});
const sides = { old: await load(oldDir), new: await load(newDir) };

const dir = mkdtempSync(join(tmpdir(), "bmff-timing-ab-"));
const av = ["-f", "lavfi", "-i", "testsrc=duration=300:size=160x120:rate=25", "-f", "lavfi", "-i", "sine=duration=300"];
const codecs = ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "25", "-c:a", "aac", "-shortest"];
execFileSync("ffmpeg", [
  "-v",
  "error",
  "-y",
  ...av,
  ...codecs,
  "-movflags",
  "frag_keyframe+empty_moov",
  "-frag_duration",
  "100000",
  join(dir, "f.mp4"),
]);
execFileSync("ffmpeg", ["-v", "error", "-y", "-i", join(dir, "f.mp4"), "-c", "copy", "-movflags", "+faststart", join(dir, "p.mp4")]);
const frag = new Uint8Array(readFileSync(join(dir, "f.mp4")));
const plain = new Uint8Array(readFileSync(join(dir, "p.mp4")));
rmSync(dir, { recursive: true, force: true });
const big = new Uint8Array(plain.length + 64 * 1024 * 1024);
big.set(plain);
new DataView(big.buffer).setUint32(plain.length, big.length - plain.length);
big.set([0x6d, 0x64, 0x61, 0x74], plain.length + 4);

const streamOf = (bytes, size = 1 << 20) => {
  let at = 0;
  return new ReadableStream({
    pull(c) {
      if (at >= bytes.length) return c.close();
      c.enqueue(bytes.subarray(at, at + size));
      at += size;
    },
  });
};
const streamed = (s, bytes) => s.inspectStreamed(streamOf(bytes), bytes.length, "video/mp4", "video");
const cases = {
  [`in memory, fragmented ${(frag.length / 1e6).toFixed(1)} MB`]: async (s) => new s.Inspector().inspect(frag, "video/x-bmff-based"),
  [`in memory, unfragmented ${(plain.length / 1e6).toFixed(1)} MB`]: async (s) => new s.Inspector().inspect(plain, "video/mp4"),
  [`streamed, fragmented ${(frag.length / 1e6).toFixed(1)} MB`]: async (s) => (await streamed(s, frag)).inspection,
  [`streamed, unfragmented ${(big.length / 1048576).toFixed(0)} MiB`]: async (s) => (await streamed(s, big)).inspection,
};
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
for (const [name, run] of Object.entries(cases)) {
  const times = { old: [], new: [] };
  const seconds = {};
  for (let r = 0; r < runs; r++) {
    for (const side of r % 2 ? ["new", "old"] : ["old", "new"]) {
      const t = cpu();
      const result = await run(sides[side]);
      times[side].push(cpu() - t);
      seconds[side] = result.status === "ok" ? result.facts.duration_seconds : result.status;
    }
  }
  console.log(
    `${name}: old ${median(times.old).toFixed(2)} ms (duration ${seconds.old}), new ${median(times.new).toFixed(2)} ms (duration ${seconds.new}); CPU medians of ${runs}`,
  );
}
