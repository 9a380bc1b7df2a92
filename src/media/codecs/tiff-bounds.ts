/*
 * A bound check of a TIFF's directory structure before utif2 reads it. utif2 trusts each entry's 32-bit count:
 * it pushes that many values into an array whatever the file's length, and it follows the next-directory offsets
 * without noticing a cycle. A 1.8 KB TIFF whose first entry claims 2^24 values took 5.4 s and 287 MiB in utif2
 * (2^32 never ends); a directory pointing at itself loops for ever (#22, found by the campaign's hostile media).
 * Pure function, no I/O.
 */

/** Bytes per value of each TIFF field type (1..13); 0 marks an unknown type. */
const TYPE_SIZE = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8, 4] as const;
/** Tags whose values are offsets of further directories, which utif2 reads too (SubIFDs, Exif, GPS, Fuji). */
const SUB_DIRECTORY_TAGS = new Set([330, 34665, 34853, 61440]);
/** More directories than any real TIFF carries: past it the file is refused. */
const MAX_DIRECTORIES = 64;
const MAX_DEPTH = 4;

/** The verdict: `bounded` when every directory and every value it names lies inside the file, reached once. */
export type TiffBounds = { bounded: true } | { bounded: false; reason: string };

/**
 * Walks every directory utif2 would read (the main chain and sub-directories) and checks that each is inside the
 * file, reached once, and that every entry's values fit in the file. Invariant: when it answers `bounded`, utif2's
 * directory reading is linear in the file's length.
 */
export function tiffBounds(bytes: Uint8Array): TiffBounds {
  if (bytes.length < 8) return { bounded: false, reason: "shorter than a TIFF header" };
  const order = String.fromCharCode(bytes[0]!, bytes[1]!);
  if (order !== "II" && order !== "MM") return { bounded: false, reason: "no TIFF byte order mark" };
  const little = order === "II";
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (at: number) => view.getUint16(at, little);
  const u32 = (at: number) => view.getUint32(at, little);
  const visited = new Set<number>();

  const directory = (offset: number, depth: number): string | null => {
    if (depth > MAX_DEPTH) return "directories nested too deep";
    if (visited.has(offset)) return `directory at ${offset} reached twice`;
    if (visited.size >= MAX_DIRECTORIES) return "too many directories";
    visited.add(offset);
    if (offset + 2 > bytes.length) return `directory at ${offset} beyond the file`;
    const count = u16(offset);
    if (offset + 2 + count * 12 + 4 > bytes.length) return `directory at ${offset} runs past the file`;
    for (let e = 0; e < count; e++) {
      const at = offset + 2 + e * 12;
      const tag = u16(at);
      const type = u16(at + 2);
      const values = u32(at + 4);
      const size = TYPE_SIZE[type] ?? 0;
      if (size === 0) continue; // utif2 skips an unknown type without reading its values
      const byteCount = values * size;
      const start = byteCount <= 4 ? at + 8 : u32(at + 8);
      if (start + byteCount > bytes.length) return `tag ${tag}: ${values} values beyond the file`;
      // DNG private data: utif2 reads a directory at the offset its first four bytes name, when one seems to be there.
      if (tag === 50740 && byteCount >= 4) {
        const sub = u32(start);
        if (sub + 2 <= bytes.length && u16(sub) < 300) {
          const problem = directory(sub, depth + 1);
          if (problem) return problem;
        }
      }
      if (SUB_DIRECTORY_TAGS.has(tag) && (size === 4 || size === 2))
        for (let v = 0; v < values; v++) {
          const sub = size === 4 ? u32(start + 4 * v) : u16(start + 2 * v);
          const problem = directory(sub, depth + 1);
          if (problem) return problem;
        }
    }
    return null;
  };

  for (let next = u32(4); next !== 0; ) {
    const problem = directory(next, 0);
    if (problem) return { bounded: false, reason: problem };
    next = u32(next + 2 + u16(next) * 12);
  }
  return { bounded: true };
}
