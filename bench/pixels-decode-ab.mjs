// #19 diagnostic: two builds of our JPEG decoder (wasm/build/jpegdec.wasm of two checkouts) compared on the bench
// photograph of bench/verify.mjs (2.8 MP, progressive 4:2:0, decoded at 1/2 as a verification does):
//  1. equivalence: every scale's RGBA (or failure) equal on the repo's JPEG fixtures, the bench photograph, N seeded
//     MozJPEG encodes of varied settings (progressive or not, gray, 4:4:4/4:2:0, trellis, quantiser tables, odd sizes),
//     and truncated and bit-flipped copies of a third of them;
//  2. CPU per decode in Node (interleaved, medians: the entropy pass `start`, then the rows);
//  3. CPU per decode inside workerd (two Miniflare workers, one per build, each decoding the photograph 20 times per
//     request; CPU from /proc per request, alternating): the runtime the service runs in.
//   node bench/pixels-decode-ab.mjs OLD.wasm NEW.wasm [--generated N] [--rounds N]
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import "./lib/ts-resolve.mjs";

const ROOT = join(import.meta.dirname, "..");
const opt = (name, fallback) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback);
const [oldFile, newFile] = process.argv.slice(2).filter((a) => a.endsWith(".wasm"));
if (!oldFile || !newFile) throw new Error("usage: node bench/pixels-decode-ab.mjs OLD.wasm NEW.wasm [--generated N] [--rounds N]");
const generated = opt("--generated", 80);
const rounds = opt("--rounds", 20);
const { JpegStreamDecoder } = await import("../src/media/codecs/jpeg-decoder.ts");
const images = await import("./lib/images.mjs");
const photo = (await images.benchPhotograph()).bytes;

// 1. equivalence
const A = new JpegStreamDecoder(new WebAssembly.Module(readFileSync(oldFile)));
const B = new JpegStreamDecoder(new WebAssembly.Module(readFileSync(newFile)));
const files = [];
const walk = (d) => {
  for (const e of readdirSync(d)) {
    const p = join(d, e);
    if (statSync(p).isDirectory()) walk(p);
    else if (/\.jpe?g$/i.test(e)) files.push(new Uint8Array(readFileSync(p)));
  }
};
walk(join(ROOT, "test", "fixtures"));
files.push(photo);
const kinds = ["photo-textured", "gradient", "photo", "shapes"];
for (let i = 0; i < generated; i++) {
  const w = 17 + ((i * 97) % 900);
  const h = 9 + ((i * 61) % 700);
  const img = images.makeImage(kinds[i % kinds.length], w, h, i + 1);
  const options = {
    quality: [10, 30, 50, 75, 90, 98][i % 6],
    progressive: i % 3 !== 2,
    color_space: i % 7 === 0 ? 1 : 3,
    auto_subsample: false,
    chroma_subsample: i % 4 === 0 ? 1 : 2,
    trellis_multipass: i % 5 === 0,
    quant_table: i % 9,
  };
  const data = new Uint8ClampedArray(img.data.buffer, img.data.byteOffset, img.data.length);
  files.push(new Uint8Array(await images.jpegEnc.default({ data, width: w, height: h }, options)));
}
const whole = files.length;
for (let i = 0; i < whole; i += 3) {
  const b = files[i];
  files.push(b.slice(0, Math.max(4, Math.floor(b.length * 0.6))));
  const f = b.slice();
  for (let j = 0; j < 20; j++) f[Math.floor(b.length * 0.3 + j * 997) % b.length] ^= 1 << (j % 8);
  files.push(f);
}
const result = (d, bytes, scale) => {
  const r = d.decode(bytes, scale, 50_000_000);
  return r.status === "decoded" ? createHash("sha256").update(r.image.data).digest("hex") : `${r.status} ${r.message}`;
};
let equal = 0;
let differ = 0;
let decoded = 0;
for (const bytes of files)
  for (const scale of [1, 2, 4, 8]) {
    const a = result(A, bytes, scale);
    if (a === result(B, bytes, scale)) equal++;
    else differ++;
    if (a.length === 64) decoded++;
  }
console.log(`equivalence: ${files.length} files x 4 scales: ${equal} equal (${decoded} decoded images), ${differ} differ`);

// 2. Node
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const kernels = [oldFile, newFile].map((f) => new WebAssembly.Instance(new WebAssembly.Module(readFileSync(f)), {}).exports);
const entropy = [[], []];
const rows = [[], []];
for (let r = 0; r < 10 * rounds + 1; r++)
  for (const i of r % 2 ? [1, 0] : [0, 1]) {
    const k = kernels[i];
    const p = k.inputAlloc(photo.length);
    new Uint8Array(k.memory.buffer, p, photo.length).set(photo);
    const t0 = cpu();
    if (k.header() !== 0 || k.start(1, 12e6) !== 0) throw new Error("decode failed");
    const t1 = cpu();
    while (k.next() > 0);
    const t2 = cpu();
    if (r > 0) {
      entropy[i].push(t1 - t0);
      rows[i].push(t2 - t1);
    }
  }
const node = (i) => `entropy ${median(entropy[i]).toFixed(2)} + rows ${median(rows[i]).toFixed(2)} ms`;
console.log(`Node ${process.version}, the photograph at 1/2 (medians of ${10 * rounds}): old ${node(0)}, new ${node(1)}`);

// 3. workerd
const script = `
import mod from "./jpegdec.wasm";
let k;
export default { async fetch(request) {
  const bytes = new Uint8Array(await request.arrayBuffer());
  k ??= new WebAssembly.Instance(mod, {}).exports;
  for (let i = 0; i < 20; i++) {
    const p = k.inputAlloc(bytes.length);
    new Uint8Array(k.memory.buffer, p, bytes.length).set(bytes);
    if (k.header() !== 0 || k.start(1, 12e6) !== 0) return new Response("failed", { status: 500 });
    while (k.next() > 0);
  }
  return new Response("ok");
} };`;
const worker = (file) =>
  new Miniflare(
    convertV4MiniflareOptions({
      workers: [
        {
          name: "decode",
          modulesRoot: "/w",
          modules: [
            { type: "ESModule", path: "/w/index.mjs", contents: script },
            { type: "CompiledWasm", path: "/w/jpegdec.wasm", contents: readFileSync(file) },
          ],
          compatibilityDate: "2025-01-01",
        },
      ],
    }),
  );
/** This process's child processes (the workerd of each Miniflare). */
const children = () => {
  try {
    return execFileSync("pgrep", ["-P", String(process.pid)])
      .toString()
      .trim()
      .split("\n");
  } catch {
    return []; // pgrep exits 1 when there is none
  }
};
const before = new Set(children());
const sides = [];
for (const f of [oldFile, newFile]) {
  const mf = worker(f);
  await mf.ready;
  const now = children();
  sides.push({ mf, pids: now.filter((p) => !before.has(p) && !sides.some((s) => s.pids.includes(p))) });
}
const cpuMs = (pids) =>
  pids.reduce((sum, pid) => {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return sum + (Number(f[11]) + Number(f[12])) * 10;
  }, 0);
const totals = [0, 0];
for (let r = 0; r < rounds + 1; r++)
  for (const i of r % 2 ? [1, 0] : [0, 1]) {
    const t0 = cpuMs(sides[i].pids);
    const res = await sides[i].mf.dispatchFetch("http://decode/", { method: "POST", body: photo });
    if ((await res.text()) !== "ok") throw new Error("workerd decode failed");
    if (r > 0) totals[i] += cpuMs(sides[i].pids) - t0;
  }
const per = (i) => (totals[i] / rounds / 20).toFixed(2);
console.log(
  `workerd, the photograph at 1/2 (${rounds} alternating requests of 20 decodes each): old ${per(0)}, new ${per(1)} ms per decode`,
);
for (const s of sides) await s.mf.dispose();
