// Shared by the image benchmarks (bench/watermark-robustness.mjs, bench/fingerprint-recall.mjs): seeded test-image
// generators and the attacks/transformations (JPEG and PNG round trips through @jsquash, area resize, crop,
// brightness). Importing this module initializes the @jsquash codecs (Node compiles their wasm from node_modules).
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const jpegEnc = await import("@jsquash/jpeg/encode.js");
export const jpegDec = await import("@jsquash/jpeg/decode.js");
export const pngEnc = await import("@jsquash/png/encode.js");
export const pngDec = await import("@jsquash/png/decode.js");
const nm = (p) => readFileSync(join(root, "node_modules", p));
await jpegEnc.init(new WebAssembly.Module(nm("@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm")));
await jpegDec.init(new WebAssembly.Module(nm("@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm")));
await pngEnc.init(new WebAssembly.Module(nm("@jsquash/png/codec/pkg/squoosh_png_bg.wasm")));
await pngDec.init(new WebAssembly.Module(nm("@jsquash/png/codec/pkg/squoosh_png_bg.wasm")));

// ------------------------------------------------------------------------------------------------------------
// Test images (seeded): photo-like scenes, textures, shapes, gradients, flat, low/high key, documents, stripes

export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
export function valueNoise(W, H, cell, rnd) {
  const gw = Math.ceil(W / cell) + 2;
  const gh = Math.ceil(H / cell) + 2;
  const g = new Float32Array(gw * gh).map(() => rnd());
  const out = new Float32Array(W * H);
  // per-column lattice index and smoothstep weight, computed once (the same double arithmetic as per pixel)
  const ix = new Int32Array(W),
    sxs = new Float64Array(W);
  for (let x = 0; x < W; x++) {
    const u = x / cell,
      i = Math.floor(u),
      fx = u - i;
    ix[x] = i;
    sxs[x] = fx * fx * (3 - 2 * fx);
  }
  for (let y = 0; y < H; y++) {
    const v = y / cell,
      j = Math.floor(v),
      fy = v - j,
      sy = fy * fy * (3 - 2 * fy);
    const r0 = j * gw,
      r1 = (j + 1) * gw,
      o = y * W;
    for (let x = 0; x < W; x++) {
      const i = ix[x],
        sx = sxs[x];
      const a = g[r0 + i],
        b = g[r0 + i + 1],
        c = g[r1 + i],
        d = g[r1 + i + 1];
      out[o + x] = (a * (1 - sx) + b * sx) * (1 - sy) + (c * (1 - sx) + d * sx) * sy;
    }
  }
  return out;
}
export function fractal(W, H, rnd, base, octaves, persistence) {
  const out = new Float32Array(W * H);
  let amp = 1,
    cell = base,
    tot = 0;
  for (let o = 0; o < octaves && cell >= 1; o++) {
    const n = valueNoise(W, H, cell, rnd);
    for (let i = 0; i < out.length; i++) out[i] += amp * (n[i] - 0.5);
    tot += amp;
    amp *= persistence;
    cell /= 2;
  }
  for (let i = 0; i < out.length; i++) out[i] /= tot;
  return out;
}
export function makeImage(kind, W, H, seed) {
  const rnd = rng(seed * 7919 + 17);
  const d = new Uint8Array(W * H * 4);
  const put = (i, r, g, b) => {
    d[4 * i] = Math.max(0, Math.min(255, Math.round(r)));
    d[4 * i + 1] = Math.max(0, Math.min(255, Math.round(g)));
    d[4 * i + 2] = Math.max(0, Math.min(255, Math.round(b)));
    d[4 * i + 3] = 255;
  };
  const c1 = [rnd() * 255, rnd() * 255, rnd() * 255];
  const c2 = [rnd() * 255, rnd() * 255, rnd() * 255];
  if (kind === "gradient") {
    const ang = rnd() * Math.PI,
      ca = Math.cos(ang),
      sa = Math.sin(ang);
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) {
        const t = Math.min(1, Math.max(0, ((x - W / 2) * ca + (y - H / 2) * sa) / Math.hypot(W, H) + 0.5));
        put(y * W + x, c1[0] * (1 - t) + c2[0] * t, c1[1] * (1 - t) + c2[1] * t, c1[2] * (1 - t) + c2[2] * t);
      }
  } else if (kind === "flat") {
    for (let i = 0; i < W * H; i++) put(i, c1[0], c1[1], c1[2]);
  } else if (kind === "noise") {
    const n = fractal(W, H, rnd, 4, 3, 0.7);
    const amp = 60 + rnd() * 80;
    for (let i = 0; i < W * H; i++) put(i, 128 + amp * n[i] * 2, 120 + amp * n[i] * 2, 110 + amp * n[i] * 2);
  } else if (kind === "shapes") {
    for (let i = 0; i < W * H; i++) put(i, c1[0], c1[1], c1[2]);
    const ns = 5 + Math.floor(rnd() * 15);
    for (let s = 0; s < ns; s++) {
      const col = [rnd() * 255, rnd() * 255, rnd() * 255];
      const cx = rnd() * W,
        cy = rnd() * H,
        r = (0.05 + rnd() * 0.25) * Math.min(W, H),
        circ = rnd() < 0.5;
      for (let y = Math.max(0, Math.floor(cy - r)); y < Math.min(H, cy + r); y++)
        for (let x = Math.max(0, Math.floor(cx - r)); x < Math.min(W, cx + r); x++) {
          if (circ && (x - cx) ** 2 + (y - cy) ** 2 > r * r) continue;
          put(y * W + x, col[0], col[1], col[2]);
        }
    }
  } else if (kind === "document") {
    // white page, dark text-like strokes in lines, a grey figure box
    for (let i = 0; i < W * H; i++) put(i, 250, 250, 248);
    const lineH = 14 + Math.floor(rnd() * 10);
    for (let y0 = 40; y0 + lineH < H - 40; y0 += lineH * 2) {
      let x = 40;
      while (x < W - 60) {
        const w = 10 + Math.floor(rnd() * 50);
        for (let y = y0; y < y0 + lineH; y++)
          for (let xx = x; xx < Math.min(W - 40, x + w); xx++) if ((xx * 7 + y * 3) % 5 < 3) put(y * W + xx, 20, 20, 30);
        x += w + 8 + Math.floor(rnd() * 10);
      }
    }
    const bx = Math.floor(W * 0.55),
      by = Math.floor(H * 0.2),
      bw = Math.floor(W * 0.35),
      bh = Math.floor(H * 0.3);
    for (let y = by; y < by + bh; y++) for (let x = bx; x < bx + bw; x++) put(y * W + x, 180 + 40 * Math.sin(x / 30), 190, 200);
  } else if (kind === "stripes") {
    const p = 3 + rnd() * 20,
      ang = rnd() * Math.PI,
      ca = Math.cos(ang),
      sa = Math.sin(ang);
    const n = fractal(W, H, rnd, 64, 4, 0.5);
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) {
        const v = 128 + 90 * Math.sin((2 * Math.PI * (x * ca + y * sa)) / p) + 60 * n[y * W + x];
        put(y * W + x, (v * c1[0]) / 255 + 30, (v * c1[1]) / 255 + 30, (v * c1[2]) / 255 + 30);
      }
  } else {
    // photo-like: a fractal landscape under a sky gradient; variants: textured ground, low key, high key
    const n = fractal(W, H, rnd, Math.max(W, H) / 3, 8, 0.55);
    const tex = fractal(W, H, rnd, 8, 3, 0.8);
    const horizon = H * (0.3 + rnd() * 0.4);
    const sat = rnd();
    const gain = kind === "lowkey" ? 0.25 : 1;
    const lift = kind === "highkey" ? 110 : 0;
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) {
        const i = y * W + x;
        const h = horizon + n[i] * H * 0.4;
        if (y < h) {
          const t = y / H;
          let v = [90 + 120 * t, 140 + 80 * t, 220 + 30 * t];
          if (sat > 0.7 && n[i] > 0.15) v = [255, 255, 255];
          put(i, (v[0] + 10 * n[i]) * gain + lift, (v[1] + 10 * n[i]) * gain + lift, v[2] * gain + lift);
        } else {
          const k = 0.5 + n[i];
          const tt = kind === "photo-textured" ? tex[i] * 120 : tex[i] * 40;
          put(i, (c1[0] * k + tt) * gain + lift, (c1[1] * k + tt * 0.9) * gain + lift, (c1[2] * k * 0.6 + tt * 0.5) * gain + lift);
        }
      }
  }
  return { width: W, height: H, data: d };
}

// ------------------------------------------------------------------------------------------------------------
// Attacks / transformations (RGBA in, RGBA out)

export async function jpeg(img, quality) {
  const frame = {
    data: new Uint8ClampedArray(img.data.buffer, img.data.byteOffset, img.data.length),
    width: img.width,
    height: img.height,
    colorSpace: "srgb",
  };
  const bytes = await jpegEnc.default(frame, { quality });
  const out = await jpegDec.default(bytes);
  return { width: out.width, height: out.height, data: new Uint8Array(out.data.buffer, out.data.byteOffset, out.data.length) };
}
export async function png(img) {
  const frame = {
    data: new Uint8ClampedArray(img.data.buffer, img.data.byteOffset, img.data.length),
    width: img.width,
    height: img.height,
  };
  const bytes = await pngEnc.default(frame);
  const out = await pngDec.default(bytes);
  return { width: out.width, height: out.height, data: new Uint8Array(out.data.buffer, out.data.byteOffset, out.data.length) };
}
/** Area-average resize (what a decent downscaler does). */
export function resize(img, W2, H2) {
  const { width: W, height: H, data } = img;
  const out = new Uint8Array(W2 * H2 * 4);
  const sx = W / W2,
    sy = H / H2;
  for (let y = 0; y < H2; y++) {
    const y0 = y * sy,
      y1 = (y + 1) * sy;
    for (let x = 0; x < W2; x++) {
      const x0 = x * sx,
        x1 = (x + 1) * sx;
      let r = 0,
        g = 0,
        b = 0,
        a = 0,
        wt = 0;
      for (let yy = Math.floor(y0); yy < Math.min(H, Math.ceil(y1)); yy++) {
        const wy = Math.min(y1, yy + 1) - Math.max(y0, yy);
        for (let xx = Math.floor(x0); xx < Math.min(W, Math.ceil(x1)); xx++) {
          const w = wy * (Math.min(x1, xx + 1) - Math.max(x0, xx));
          const p = 4 * (yy * W + xx);
          r += w * data[p];
          g += w * data[p + 1];
          b += w * data[p + 2];
          a += w * data[p + 3];
          wt += w;
        }
      }
      const q = 4 * (y * W2 + x);
      out[q] = Math.round(r / wt);
      out[q + 1] = Math.round(g / wt);
      out[q + 2] = Math.round(b / wt);
      out[q + 3] = Math.round(a / wt);
    }
  }
  return { width: W2, height: H2, data: out };
}
export function crop(img, x0, y0, W2, H2) {
  const out = new Uint8Array(W2 * H2 * 4);
  for (let y = 0; y < H2; y++)
    out.set(img.data.subarray(4 * ((y + y0) * img.width + x0), 4 * ((y + y0) * img.width + x0 + W2)), 4 * y * W2);
  return { width: W2, height: H2, data: out };
}
export function brightness(img, f) {
  const out = new Uint8Array(img.data.length);
  for (let i = 0; i < out.length; i++) out[i] = (i & 3) === 3 ? img.data[i] : Math.max(0, Math.min(255, Math.round(img.data[i] * f)));
  return { ...img, data: out };
}

/**
 * The verify benches' real photograph: test/fixtures/media/photo-bridge.jpg (1600x1004) scaled bilinearly to
 * 2112x1326 (2.8 MP) and encoded at MozJPEG q30 (about 126 KiB, the size of the issue's file).
 */
export async function benchPhotograph() {
  const here = dirname(fileURLToPath(import.meta.url));
  const src = await jpegDec.default(new Uint8Array(readFileSync(join(here, "..", "..", "test/fixtures/media/photo-bridge.jpg"))).buffer);
  const W = 2112;
  const H = 1326;
  const out = new Uint8ClampedArray(W * H * 4);
  const { width: sw, height: sh, data: s } = src;
  for (let y = 0; y < H; y++) {
    const fy = ((y + 0.5) * sh) / H - 0.5;
    const y0 = Math.max(0, Math.floor(fy));
    const y1 = Math.min(sh - 1, y0 + 1);
    const wy = Math.min(1, Math.max(0, fy - y0));
    for (let x = 0; x < W; x++) {
      const fx = ((x + 0.5) * sw) / W - 0.5;
      const x0 = Math.max(0, Math.floor(fx));
      const x1 = Math.min(sw - 1, x0 + 1);
      const wx = Math.min(1, Math.max(0, fx - x0));
      for (let c = 0; c < 4; c++) {
        const top = s[(y0 * sw + x0) * 4 + c] * (1 - wx) + s[(y0 * sw + x1) * 4 + c] * wx;
        const bottom = s[(y1 * sw + x0) * 4 + c] * (1 - wx) + s[(y1 * sw + x1) * 4 + c] * wx;
        out[(y * W + x) * 4 + c] = top * (1 - wy) + bottom * wy;
      }
    }
  }
  return { bytes: new Uint8Array(await jpegEnc.default({ data: out, width: W, height: H }, { quality: 30 })), width: W, height: H };
}
