/*
 * POSIX ustar (IEEE Std 1003.1-1988 "ustar" interchange format) headers, written by hand so the archive can be
 * streamed: a member is a 512-byte header, its bytes, then zeros up to the next 512-byte boundary; the archive ends
 * with two zero blocks. Only what exports need: regular files, names up to 100 bytes, sizes below 8 GiB.
 */

export const BLOCK = 512;
/** Largest member an 11-digit octal size field can state. */
export const MAX_MEMBER_BYTES = 8 ** 11 - 1;

const encoder = new TextEncoder();

function put(header: Uint8Array, offset: number, length: number, text: string) {
  const bytes = encoder.encode(text);
  if (bytes.length > length) throw new TypeError(`tar field too long: ${text}`);
  header.set(bytes, offset);
}

function octal(value: number, digits: number): string {
  return `${value.toString(8).padStart(digits, "0")}\0`;
}

/** The ustar header of one regular file. Names are ASCII paths of at most 100 bytes (ours are short and fixed). */
export function tarHeader(name: string, size: number, mtimeMs: number): Uint8Array {
  if (!/^[\x21-\x7e]{1,100}$/.test(name)) throw new TypeError(`tar member name not portable: ${name}`);
  if (!Number.isSafeInteger(size) || size < 0 || size > MAX_MEMBER_BYTES) throw new TypeError(`tar member too large: ${size}`);
  const header = new Uint8Array(BLOCK);
  put(header, 0, 100, name);
  put(header, 100, 8, octal(0o644, 7));
  put(header, 108, 8, octal(0, 7));
  put(header, 116, 8, octal(0, 7));
  put(header, 124, 12, octal(size, 11));
  put(header, 136, 12, octal(Math.floor(mtimeMs / 1000), 11));
  put(header, 148, 8, "        "); // the checksum is computed with its own field as spaces
  put(header, 156, 1, "0");
  put(header, 257, 6, "ustar\0");
  put(header, 263, 2, "00");
  let sum = 0;
  for (const byte of header) sum += byte;
  put(header, 148, 8, `${sum.toString(8).padStart(6, "0")}\0 `);
  return header;
}

/** Zeros after a member of `size` bytes, up to the next block boundary. */
export function tarPadding(size: number): Uint8Array {
  return new Uint8Array((BLOCK - (size % BLOCK)) % BLOCK);
}

/** The end-of-archive marker: two zero blocks. */
export function tarEnd(): Uint8Array {
  return new Uint8Array(2 * BLOCK);
}

/** One member read back from an archive (tests and the verification recipe). */
export interface TarMember {
  name: string;
  bytes: Uint8Array;
}

/** Reads every regular file of an archive held in memory (for checking a downloaded archive, not for the service). */
export function readTar(archive: Uint8Array): TarMember[] {
  const members: TarMember[] = [];
  const decoder = new TextDecoder();
  let offset = 0;
  while (offset + BLOCK <= archive.length) {
    const header = archive.subarray(offset, offset + BLOCK);
    if (header.every((b) => b === 0)) break;
    const field = (start: number, length: number) => decoder.decode(header.subarray(start, start + length)).replace(/\0.*$/s, "");
    const size = Number.parseInt(field(124, 12).trim(), 8);
    const name = field(0, 100);
    offset += BLOCK;
    members.push({ name, bytes: archive.slice(offset, offset + size) });
    offset += size + ((BLOCK - (size % BLOCK)) % BLOCK);
  }
  return members;
}
