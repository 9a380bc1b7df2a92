import { readFileSync } from "node:fs";
process.chdir("/work/wt/s9-express");
const { WasmWatermarker } = await import("/work/wt/s9-express/src/media/watermark/kernel.ts");
const { makeImage, jpegEnc, jpegDec } = await import("/work/wt/s9-express/bench/lib/images.mjs");
const wm = new WasmWatermarker(new WebAssembly.Module(readFileSync("wasm/build/watermark.wasm")));
const [W,H] = (process.argv[2]||"4000x3000").split("x").map(Number);
const img = makeImage("photo", W, H, 7);
const fr = (im) => ({ data: new Uint8ClampedArray(im.data.buffer, im.data.byteOffset, im.data.length), width: im.width, height: im.height, colorSpace: "srgb" });
const src = new Uint8Array(await jpegEnc.default(fr(img), { quality: 90 }));
const t = async (f) => { const s = performance.now(); const r = await f(); return [performance.now()-s, r]; };
const psnr = (a, b) => { let se=0,n=0; for (let i=0;i<a.length;i+=4){ for(let c=0;c<3;c++){const d=a[i+c]-b[i+c]; se+=d*d; n++;} } return 10*Math.log10(255*255/(se/n)); };
for (let rep=0; rep<2; rep++) {
  const [td, dec] = await t(() => jpegDec.default(src.slice().buffer));
  const d = { width: dec.width, height: dec.height, data: new Uint8Array(dec.data.buffer) };
  const [te, m] = await t(() => wm.embed({ image: d, payload: new Uint8Array([1,2,3,4,5,6,7,8]), strength: "balanced" }));
  console.log(`decode ${td.toFixed(0)} embed ${te.toFixed(0)}`);
  for (const [name, o] of [
    ["current q90 prog+opt+trellis", { quality: 90, quant_table: 0 }],
    ["baseline, opt on", { quality: 90, quant_table: 0, baseline: true, progressive: false }],
    ["baseline, opt off", { quality: 90, quant_table: 0, baseline: true, progressive: false, optimize_coding: false }],
    ["nonprog opt off", { quality: 90, quant_table: 0, progressive: false, optimize_coding: false }],

  ]) {
    const [tt, out] = await t(() => jpegEnc.default(fr(m.image), o));
    const back = await jpegDec.default(out);
    const found = wm.detect({ width: W, height: H, data: new Uint8Array(back.data.buffer) });
    console.log(`${name.padEnd(34)} ${tt.toFixed(0)} ms  ${out.byteLength} B  psnr ${psnr(m.image.data, back.data).toFixed(2)} ${found.status}`);
  }
}
