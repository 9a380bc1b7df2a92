import type { DecodeScale, RgbaImage, RowSource } from "../types";

/**
 * The whole image of `source` at 1/`scale` per side, read once into one RGBA buffer (for callers that need every
 * pixel at once; streaming callers hand `read` their own sink). A source that hands out more or fewer rows than
 * its image has is a failed read, never a partly filled image. `buffer`, when given, supplies the RGBA buffer of
 * the image's byte length (a caller's reused buffer): a read writes every byte of it, so nothing earlier survives.
 */
export function readWholeImage(
  source: RowSource,
  scale: DecodeScale = 1,
  buffer?: (length: number) => Uint8Array,
): { status: "read"; image: RgbaImage } | { status: "failed"; message: string } {
  const width = Math.ceil(source.width / scale);
  const height = Math.ceil(source.height / scale);
  const length = width * height * 4;
  const data = buffer ? buffer(length) : new Uint8Array(length);
  if (data.length !== length) return { status: "failed", message: "The image buffer does not have the image's size." };
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
