// A/B of the pixel kernels: CPU ms of the reduced decode (jpegdec, 1/2 as verify reads these) and of the watermark
// detection, an older build (e.g. wasm/build/*.wasm copied before a change) vs this one,
// interleaved (alternating order), medians and minima; decoded pixels and detector outcomes compared exactly, the
// detector's diagnostics printed (a change of stage 2's hypotheses, as #19's whole-period scan, moves them).
//   node bench/pixels-ab.mjs --old-jpegdec FILE --old-watermark FILE [--runs N]
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import "./lib/ts-resolve.mjs";

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc");
const ROOT = join(import.meta.dirname, "..");
const opt = (name, fallback) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback);
const runs = Number(opt("--runs", 15));
const { WasmWatermarker } = await import("../src/media/watermark/kernel.ts");
const { JpegStreamDecoder } = await import("../src/media/codecs/jpeg-decoder.ts");
const { benchPhotograph, jpegEnc, makeImage } = await import("./lib/images.mjs");
const mod = (file) => new WebAssembly.Module(readFileSync(file));
const cur = { dec: mod(join(ROOT, "wasm/build/jpegdec.wasm")), wm: mod(join(ROOT, "wasm/build/watermark.wasm")) };
const old = {
  dec: mod(opt("--old-jpegdec", join(ROOT, "wasm/build/jpegdec.wasm"))),
  wm: mod(opt("--old-watermark", join(ROOT, "wasm/build/watermark.wasm"))),
};
const img = makeImage("photo-textured", 1280, 800, 1);
const keyed = new Uint8Array(
  await jpegEnc.default(
    { data: new Uint8ClampedArray(img.data.buffer, img.data.byteOffset, img.data.length), width: 1280, height: 800 },
    { quality: 90 },
  ),
);
const cases = [
  ["2.8 MP photo", (await benchPhotograph()).bytes],
  ["1 MP q90 keyed", keyed],
];
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const digest = (d) => createHash("sha256").update(d).digest("hex").slice(0, 16);
for (const [name, bytes] of cases) {
  const decs = [new JpegStreamDecoder(old.dec), new JpegStreamDecoder(cur.dec)];
  const wms = [new WasmWatermarker(old.wm), new WasmWatermarker(cur.wm)];
  const t = { dec: [[], []], wm: [[], []] };
  const outs = [];
  for (let r = 0; r < runs; r++)
    for (const i of r & 1 ? [1, 0] : [0, 1]) {
      gc();
      let t0 = cpu();
      const d = decs[i].decode(bytes, 2, 12_000_000);
      t.dec[i].push(cpu() - t0);
      gc();
      t0 = cpu();
      const w = wms[i].detect(d.image);
      t.wm[i].push(cpu() - t0);
      outs[i] = { d: digest(d.image.data), w: JSON.stringify(w), diag: JSON.stringify(wms[i].lastDetect ?? null) };
    }
  const f = (xs) => `${median(xs).toFixed(2)} (min ${Math.min(...xs).toFixed(2)})`;
  console.log(`${name}: decode 1/2 old ${f(t.dec[0])} new ${f(t.dec[1])} | detect old ${f(t.wm[0])} new ${f(t.wm[1])}`);
  console.log(
    `  same pixels ${outs[0].d === outs[1].d} same detect ${outs[0].w === outs[1].w} ${outs[1].w}; diagnostics ${outs[0].diag === outs[1].diag ? "equal" : `old ${outs[0].diag} new ${outs[1].diag}`}`,
  );
}
