/**
 * Area-average downscaling of RGBA pixels (each output pixel is the mean of the source pixels it covers,
 * weighted by coverage). Exact for integer factors and smooth for any other; good enough for previews and
 * free of another wasm module. Alpha is composited onto white, since the preview is a JPEG.
 */
export function downscaleToRgb(src: Uint8ClampedArray, width: number, height: number, outWidth: number, outHeight: number): Uint8Array {
  const out = new Uint8Array(outWidth * outHeight * 4);
  const sx = width / outWidth;
  const sy = height / outHeight;
  const acc = new Float64Array(outWidth * 4);
  const weights = new Float64Array(outWidth);
  for (let oy = 0; oy < outHeight; oy++) {
    acc.fill(0);
    weights.fill(0);
    const y0 = oy * sy;
    const y1 = y0 + sy;
    for (let y = Math.floor(y0); y < Math.min(height, Math.ceil(y1)); y++) {
      const wy = Math.min(y + 1, y1) - Math.max(y, y0);
      const row = y * width * 4;
      for (let ox = 0; ox < outWidth; ox++) {
        const x0 = ox * sx;
        const x1 = x0 + sx;
        for (let x = Math.floor(x0); x < Math.min(width, Math.ceil(x1)); x++) {
          const w = wy * (Math.min(x + 1, x1) - Math.max(x, x0));
          const i = row + x * 4;
          const a = src[i + 3]! / 255;
          acc[ox * 4] = acc[ox * 4]! + w * (src[i]! * a + 255 * (1 - a));
          acc[ox * 4 + 1] = acc[ox * 4 + 1]! + w * (src[i + 1]! * a + 255 * (1 - a));
          acc[ox * 4 + 2] = acc[ox * 4 + 2]! + w * (src[i + 2]! * a + 255 * (1 - a));
          weights[ox] = weights[ox]! + w;
        }
      }
    }
    for (let ox = 0; ox < outWidth; ox++) {
      const o = (oy * outWidth + ox) * 4;
      const w = weights[ox] || 1;
      out[o] = Math.round(acc[ox * 4]! / w);
      out[o + 1] = Math.round(acc[ox * 4 + 1]! / w);
      out[o + 2] = Math.round(acc[ox * 4 + 2]! / w);
      out[o + 3] = 255;
    }
  }
  return out;
}

/** The preview size: the longest edge at most `maxEdge`, aspect kept, never upscaled. */
export function previewSize(width: number, height: number, maxEdge: number): { width: number; height: number } {
  const scale = Math.min(1, maxEdge / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}
