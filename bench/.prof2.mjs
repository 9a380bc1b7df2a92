import { readFileSync } from "node:fs";
import { WasmWatermarker } from "../src/media/watermark/kernel.ts";
import { BaselineJpegEncoder } from "../src/media/codecs/baseline-jpeg.ts";
import { makeImage, jpegEnc, jpegDec } from "./lib/images.mjs";
const wm = new WasmWatermarker(new WebAssembly.Module(readFileSync("wasm/build/watermark.wasm")));
const enc = new BaselineJpegEncoder(new WebAssembly.Module(readFileSync("wasm/build/jpegenc.wasm")));
const [W,H] = (process.argv[2]||"4000x3000").split("x").map(Number);
const img = makeImage("photo", W, H, 7);
const fr = (im) => ({ data: new Uint8ClampedArray(im.data.buffer, im.data.byteOffset, im.data.length), width: im.width, height: im.height, colorSpace: "srgb" });
const src = new Uint8Array(await jpegEnc.default(fr(img), { quality: 90 }));
const t = async (f) => { const s = performance.now(); const r = await f(); return [performance.now()-s, r]; };
const psnr = (a, b) => { let se=0,n=0; for (let i=0;i<a.length;i+=4){ for(let c=0;c<3;c++){const d=a[i+c]-b[i+c]; se+=d*d; n++;} } return 10*Math.log10(255*255/(se/n)); };
for (const q of [75, 90]) for (let rep=0; rep<2; rep++) {
  const [td, dec] = await t(() => jpegDec.default(src.slice().buffer));
  const d = { width: dec.width, height: dec.height, data: new Uint8Array(dec.data.buffer) };
  const [te, m] = await t(() => wm.embed({ image: d, payload: new Uint8Array([1,2,3,4,5,6,7,8]), strength: "balanced" }));
  console.log(`q${q} decode ${td.toFixed(0)} embed ${te.toFixed(0)}`);
  for (const [name, f] of [
    ["mozjpeg current", () => jpegEnc.default(fr(m.image), { quality: q, quant_table: 0 })],
    ["mozjpeg baseline opt off", () => jpegEnc.default(fr(m.image), { quality: q, quant_table: 0, baseline: true, progressive: false, optimize_coding: false })],
    ["ours " + (q >= 90 ? "444" : "420"), () => enc.encode(m.image, q, q >= 90 ? "4:4:4" : "4:2:0")],
  ]) {
    const [tt, out] = await t(f);
    const back = await jpegDec.default(out instanceof Uint8Array ? out.slice().buffer : out);
    const found = wm.detect({ width: W, height: H, data: new Uint8Array(back.data.buffer) });
    console.log(`${name.padEnd(34)} ${tt.toFixed(0)} ms  ${out.byteLength} B  psnr ${psnr(m.image.data, back.data).toFixed(2)} ${found.status}`);
  }
}
