import type { DecodeScale, RgbaImage, RowSource } from "../types";

/**
 * The whole image of `source` at 1/`scale` per side, read once into one RGBA buffer (for callers that need every
 * pixel at once; streaming callers hand `read` their own sink). A source that hands out more or fewer rows than
 * its image has is a failed read, never a partly filled image.
 */
export function readWholeImage(
  source: RowSource,
  scale: DecodeScale = 1,
): { status: "read"; image: RgbaImage } | { status: "failed"; message: string } {
  const width = Math.ceil(source.width / scale);
  const height = Math.ceil(source.height / scale);
  const data = new Uint8Array(width * height * 4);
  let at = 0;
  const read = source.read(
    {
      restart: () => {
        at = 0;
      },
      rows: (rows, count) => {
        const n = count * width * 4;
        if (at + n > data.length) throw new RangeError("the decoder handed out more rows than the image has");
        data.set(rows.subarray(0, n), at);
        at += n;
      },
    },
    scale,
  );
  if (read.status !== "read") return { status: "failed", message: read.message };
  if (at !== data.length) return { status: "failed", message: "The decoder handed out fewer rows than the image has." };
  return { status: "read", image: { width, height, data } };
}
