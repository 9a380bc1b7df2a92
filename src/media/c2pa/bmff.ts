/**
 * ISO BMFF (MP4, MOV, M4A) for the streaming signer: the C2PA `c2pa.hash.bmff.v2` hard binding computed over
 * bytes that arrive in order, and the manifest `uuid` box appended at the END of the file, so that no sample
 * offset (stco/co64/iloc) moves and the original bytes are copied unchanged.
 *
 * The hash (as c2pa-rs 0.90/0.91 computes it, checked against c2pa-node in test/node/media/stream-sign.test.ts):
 * for every top-level box that is not excluded, in file order, the box's absolute offset as a big-endian u64,
 * then the whole box (header included). Excluded: the C2PA `uuid` box, `ftyp` and `mfra` (c2pa-wasm's own
 * embedding also excludes `free` and `skip`; we hash them, see EXCLUDED_TYPES).
 */
import { MANIFEST_STORE_MAXIMUM_BYTES } from "../../catalog/limits";
import { CorruptError } from "../inspect/bytes";
import { MAXIMUM_TOP_LEVEL_BOXES } from "../inspect/isobmff-box";
import { type BodySink, MovieTiming } from "../inspect/isobmff-timing";
import { fourcc, u32 } from "./jumbf-box";
import { type Sha256Stream, StreamMediaError, sha256Stream, u64be } from "./stream-hash";

/** The C2PA manifest box's extended type (C2PA specification, "Embedding manifests into BMFF"). */
export const C2PA_BOX_UUID = Uint8Array.from([
  0xd8, 0xfe, 0xc3, 0xd6, 0x1b, 0x0e, 0x48, 0x3c, 0x92, 0x97, 0x58, 0x28, 0x87, 0x7e, 0xc4, 0x81,
]);
/**
 * Only what this signer may ever rewrite is left out of the hash. c2pa-wasm also excludes `free` and `skip`, but
 * sample offsets may legally point into such a box, so excluding them would leave those bytes unsigned.
 */
const EXCLUDED_TYPES = new Set(["ftyp", "mfra"]);

/**
 * More top-level boxes than any real file has: a file of millions of tiny boxes is refused, not walked for minutes.
 * The in-memory inspection's own bound (inspect/isobmff-box.ts), so both paths refuse the same files.
 */
export { MAXIMUM_TOP_LEVEL_BOXES };

/**
 * The container boxes whose children the reference reader (c2pa-rs bmff_io, build_bmff_tree) walks, at any depth: a
 * child whose size runs past its container ("Box size extends beyond asset bounds") makes it refuse the whole file,
 * so the scanner walks them too and refuses such a file (never a verdict the reference could not give).
 */
const CONTAINER_TYPES = new Set([
  "moov",
  "trak",
  "mdia",
  "minf",
  "stbl",
  "moof",
  "traf",
  "edts",
  "udta",
  "dinf",
  "tref",
  "treg",
  "mvex",
  "mfra",
  "meta",
  "schi",
]);
/** Deepest container nesting walked (real files nest about 6 deep): deeper is refused as unsupported. */
export const MAXIMUM_BOX_DEPTH = 32;
/** More nested boxes than any real file has: refused, not walked for minutes. */
export const MAXIMUM_NESTED_BOXES = 1_000_000;
/** version/flags (4), purpose "manifest\0" (9), merkle offset u64 (8): what precedes the store in the box. */
const PURPOSE = new TextEncoder().encode("manifest\u0000");
const BOX_PREFIX = 8 + 16 + 4 + PURPOSE.length + 8;

/** The `c2pa.hash.bmff.v2` assertion over `hash` (engine JSON: byte fields as number arrays). */
export function bmffBinding(hash: Uint8Array) {
  return {
    label: "c2pa.hash.bmff.v2",
    data: {
      exclusions: [{ xpath: "/uuid", data: [{ offset: 8, value: Array.from(C2PA_BOX_UUID) }] }, { xpath: "/ftyp" }, { xpath: "/mfra" }],
      alg: "sha256",
      hash: Array.from(hash),
      name: "jumbf manifest",
    },
  };
}

/** The top-level manifest box carrying `store`, to append after the last box. */
export function bmffManifestBox(store: Uint8Array): Uint8Array {
  const box = new Uint8Array(BOX_PREFIX + store.length);
  new DataView(box.buffer).setUint32(0, box.length);
  box.set([0x75, 0x75, 0x69, 0x64], 4); // "uuid"
  box.set(C2PA_BOX_UUID, 8);
  box.set(PURPOSE, 28);
  box.set(store, BOX_PREFIX);
  return box;
}

/**
 * Walks the top-level boxes of a BMFF file fed in order and hashes what the binding covers. Invariants: memory is
 * bounded (a box header, plus in verify mode the manifest box, at most MANIFEST_STORE_MAXIMUM_BYTES); it throws
 * StreamMediaError for a file that is not BMFF (no leading `ftyp`, no `moov`), is truncated (a box runs past
 * `total`), has a box extending "to the end of the file" (size 0: an appended box would fall inside it), or, when
 * signing, already carries a manifest box. In verify mode the manifest box's store is kept in `store`.
 */
export class BmffScanner {
  store: Uint8Array | null = null;
  readonly #total: number;
  readonly #verify: boolean;
  readonly #hash: Sha256Stream;
  #pos = 0;
  #boxStart = 0;
  readonly #head = new Uint8Array(32);
  #headLen = 0;
  #need = 8;
  #remaining = 0;
  #mode: "hash" | "skip" | "capture" = "skip";
  #capture: Uint8Array | null = null;
  #captured = 0;
  #boxes = 0;
  #sawMoov = false;
  /** The walk of the current top-level box's children, when it is a container (CONTAINER_TYPES). */
  #nested: NestedBoxWalk | null = null;
  #nestedBoxes = { count: 0 };

  /** With `options.timing`: what the movie states and plays, read as `moov` and its fragments stream past (MovieTiming). */
  readonly timing: MovieTiming | null;

  constructor(total: number, options: { verify: boolean; timing?: boolean }, hash: Sha256Stream = sha256Stream()) {
    this.timing = options.timing ? new MovieTiming({ fileLength: total }) : null;
    this.#total = total;
    this.#verify = options.verify;
    this.#hash = hash;
  }

  /** The manifest box's store once all of it was read (before the file's end when it is not the last box). */
  get capturedStore(): Uint8Array | null {
    return this.#capture && this.#captured === this.#capture.length ? this.#capture.subarray(BOX_PREFIX - 24) : null;
  }

  /** The next bytes of the file; returns them unchanged (the output copies the original). */
  async push(bytes: Uint8Array): Promise<Uint8Array> {
    let at = 0;
    while (at < bytes.length) {
      if (this.#remaining > 0) {
        const n = Math.min(this.#remaining, bytes.length - at);
        const part = bytes.subarray(at, at + n);
        this.#nested?.feed(part);
        if (this.#mode === "hash") await this.#hash.update(part);
        else if (this.#mode === "capture") {
          this.#capture!.set(part, this.#captured);
          this.#captured += n;
        }
        at += n;
        this.#remaining -= n;
        this.#pos += n;
        // The body ended: close what ends with it (a `trak` that is moov's last child is folded into the timing).
        if (this.#remaining === 0) this.#nested?.close();
        continue;
      }
      if (this.#headLen === 0) this.#boxStart = this.#pos;
      const n = Math.min(this.#need - this.#headLen, bytes.length - at);
      this.#head.set(bytes.subarray(at, at + n), this.#headLen);
      this.#headLen += n;
      at += n;
      if (this.#headLen === this.#need) await this.#header();
    }
    return bytes;
  }

  /** After the last byte: the binding's hash. */
  async finish(): Promise<Uint8Array> {
    if (this.#headLen > 0 || this.#remaining > 0 || this.#pos !== this.#total) {
      throw new StreamMediaError("malformed", `the file ends inside a box (${this.#pos + this.#headLen} of ${this.#total} bytes)`);
    }
    if (!this.#sawMoov) throw new StreamMediaError("malformed", "no moov box: not a playable ISO BMFF file");
    // As the in-memory inspection refuses it (inspect/isobmff.ts), so both refuse the same files.
    if (this.timing?.chunksPastEnd) throw new StreamMediaError("malformed", "sample data lies beyond the end of the file");
    if (this.#capture) {
      const c = this.#capture;
      for (let i = 0; i < PURPOSE.length; i++) {
        if (c[4 + i] !== PURPOSE[i]) throw new StreamMediaError("malformed", 'the C2PA box\'s purpose is not "manifest"');
      }
      this.store = c.subarray(BOX_PREFIX - 24);
    }
    return this.#hash.digest();
  }

  /** A complete header (or the part of it read so far, when more is needed) of the box at #boxStart. */
  async #header(): Promise<void> {
    const h = this.#head;
    const size32 = u32(h, 0);
    const type = fourcc(h, 4);
    const headerSize = size32 === 1 ? 16 : 8;
    if (this.#headLen < headerSize) return void (this.#need = headerSize);
    if (type === "uuid" && this.#headLen < headerSize + 16) return void (this.#need = headerSize + 16);
    if (size32 === 0)
      throw new StreamMediaError("unsupported", `the ${type} box at ${this.#boxStart} runs to the end of the file (size 0)`);
    const size = size32 === 1 ? u32(h, 8) * 0x1_0000_0000 + u32(h, 12) : size32;
    if (size < this.#headLen) throw new StreamMediaError("malformed", `box ${type} at ${this.#boxStart}: size ${size} is below its header`);
    if (this.#boxStart + size > this.#total) {
      throw new StreamMediaError("malformed", `box ${type} at ${this.#boxStart} runs past the end of the file (truncated?)`);
    }
    if (this.#boxes === 0 && type !== "ftyp") throw new StreamMediaError("malformed", "not an ISO BMFF file (no leading ftyp box)");
    // Only in the 32-bit size form: the reference reads the box's purpose at offset 24 whatever its header, so a
    // C2PA box with a 64-bit size is no manifest to it, and is hashed here like any other box.
    const isManifest = type === "uuid" && headerSize === 8 && C2PA_BOX_UUID.every((b, i) => h[headerSize + i] === b);
    // Signing refuses a C2PA box in either size form: the file already claims provenance.
    if (!this.#verify && type === "uuid" && C2PA_BOX_UUID.every((b, i) => h[headerSize + i] === b))
      throw new StreamMediaError("unsupported", "the file already carries a C2PA manifest box");
    if (isManifest) {
      if (this.#capture) throw new StreamMediaError("malformed", "two C2PA manifest boxes");
      const body = size - this.#headLen;
      if (body < BOX_PREFIX - 24 || body > MANIFEST_STORE_MAXIMUM_BYTES + BOX_PREFIX) {
        throw new StreamMediaError("malformed", `C2PA manifest box of ${size} bytes`);
      }
      this.#capture = new Uint8Array(body);
      this.#mode = "capture";
    } else if (EXCLUDED_TYPES.has(type)) {
      this.#mode = "skip";
    } else {
      this.#mode = "hash";
      await this.#hash.update(u64be(this.#boxStart));
      await this.#hash.update(h.slice(0, this.#headLen));
    }
    if (type === "moov") this.#sawMoov = true;
    this.#boxes++;
    if (this.#boxes > MAXIMUM_TOP_LEVEL_BOXES)
      throw new StreamMediaError("unsupported", `more than ${MAXIMUM_TOP_LEVEL_BOXES} top-level boxes`);
    this.#pos = this.#boxStart + this.#headLen;
    this.#remaining = size - this.#headLen;
    // The bytes already read past the header (a uuid's extended type) are not children of any container walked.
    const timed = this.timing !== null && timingCall(() => this.timing!.openTop(type));
    this.#nested = CONTAINER_TYPES.has(type)
      ? new NestedBoxWalk(type, size, this.#remaining, this.#nestedBoxes, timed ? this.timing : null)
      : null;
    this.#headLen = 0;
    this.#need = 8;
    // An empty container ends here (push closes a container only when its body's last byte arrives).
    if (this.#remaining === 0) this.#nested?.close();
  }
}

/**
 * The children of one top-level container box, walked as its body streams past, with the reference reader's rules:
 * each child must fit in its container; a zero size ends nothing but its 8-byte header (the reference reads on
 * after it); a container's last bytes may be a 4-byte zero terminator (QuickTime `udta`); `meta` is a full box
 * unless its body starts with what reads as a child header (QuickTime). Throws StreamMediaError on anything else the
 * reference refuses or that this walk cannot follow exactly (nesting beyond MAXIMUM_BOX_DEPTH, a header cut by its
 * container's end). Memory: a 16-byte header and one end offset per open container.
 */
class NestedBoxWalk {
  /** Offsets are relative to the top-level box's body; `ends` of the open containers, innermost last. */
  readonly #ends: number[];
  /** The open containers' types, innermost last (the top-level box's first). */
  readonly #types: string[];
  #pos = 0;
  #skipTo = 0;
  /** Where the body of the leaf box being skipped goes, when `timing` reads it. */
  #sink: BodySink | null = null;
  readonly #head = new Uint8Array(16);
  #headLen = 0;
  /** A `meta` just opened: its first body bytes decide whether it is a full box (size of that box). */
  #metaSize: number | null;

  constructor(
    type: string,
    size: number,
    bodyLength: number,
    private readonly counter: { count: number },
    private readonly timing: MovieTiming | null = null,
  ) {
    this.#ends = [bodyLength];
    this.#types = [type];
    this.#metaSize = type === "meta" ? size : null;
  }

  feed(part: Uint8Array): void {
    let at = 0;
    while (at < part.length) {
      if (this.#pos < this.#skipTo) {
        const n = Math.min(this.#skipTo - this.#pos, part.length - at);
        const sink = this.#sink;
        if (sink) timingCall(() => sink.take(part.subarray(at, at + n)));
        at += n;
        this.#pos += n;
        if (this.#pos === this.#skipTo) this.#endSink();
        continue;
      }
      const need = this.#need();
      if (need === 0) continue; // the state moved on (a container closed, a terminator skipped)
      const n = Math.min(need - this.#headLen, part.length - at);
      this.#head.set(part.subarray(at, at + n), this.#headLen);
      this.#headLen += n;
      at += n;
      this.#pos += n;
      if (this.#headLen === need) this.#decide();
    }
  }

  /** At the end of the top-level box's body: closes the containers ending there (feed only does so before a next box). */
  close(): void {
    while (this.#headLen === 0 && this.#ends.length > 0 && this.#ends.at(-1) === this.#pos) this.#need();
  }

  /** Header bytes needed at #pos, or 0 after closing what ends here (then called again). */
  #need(): number {
    const end = this.#ends.at(-1);
    if (end === undefined) throw new StreamMediaError("malformed", "bytes after the last box of a container");
    const start = this.#pos - this.#headLen;
    const left = end - start;
    if (this.#headLen === 0 && left === 0) {
      this.#ends.pop();
      this.#types.pop();
      const timing = this.timing;
      if (timing) timingCall(() => timing.close());
      return 0;
    }
    if (this.#metaSize !== null) {
      if (left < 8) {
        // Too short to hold a child: the reference reads past it and finds none (a body of at most its 4 flags).
        if (left > 4) throw new StreamMediaError("unsupported", "a meta box too short to hold a child box");
        this.#metaSize = null;
        this.#skipTo = end;
        return 0;
      }
      return 8;
    }
    if (left < 8) {
      // A 4-byte zero terminator (QuickTime udta) ends the container for the reference; anything else it would read
      // across the container's end.
      if (left < 4) throw new StreamMediaError("malformed", "a box header cut by its container's end");
      return 4;
    }
    if (this.#headLen >= 8 && this.#head[0] === 0 && this.#head[1] === 0 && this.#head[2] === 0 && this.#head[3] === 1) return 16;
    return 8;
  }

  #decide(): void {
    const h = this.#head;
    const start = this.#pos - this.#headLen;
    const end = this.#ends.at(-1)!;
    if (this.#metaSize !== null) {
      const size = this.#metaSize;
      this.#metaSize = null;
      const child = u32(h, 0);
      const printable = [4, 5, 6, 7].every((i) => h[i]! >= 0x20 && h[i]! <= 0x7e);
      const replay = h.slice(child > 0 && child <= size && printable ? 0 : 4, 8);
      // The bytes read to decide are the start of what follows (the first child, or the flags then the child).
      this.#headLen = 0;
      this.#pos -= replay.length;
      this.feed(replay);
      return;
    }
    if (this.#headLen === 4) {
      if (u32(h, 0) !== 0) throw new StreamMediaError("malformed", "a box header cut by its container's end");
      this.#headLen = 0;
      this.#skipTo = end;
      return;
    }
    const size32 = u32(h, 0);
    if (size32 === 1 && this.#headLen < 16) {
      if (end - start < 16) throw new StreamMediaError("malformed", "a box header cut by its container's end");
      return; // the 64-bit size follows (#need asks for 16)
    }
    const headerSize = this.#headLen;
    this.#headLen = 0;
    this.#sink = null;
    if (++this.counter.count > MAXIMUM_NESTED_BOXES) throw new StreamMediaError("unsupported", `more than ${MAXIMUM_NESTED_BOXES} boxes`);
    if (size32 === 0) {
      const timing = this.timing;
      if (timing) timingCall(() => timing.zeroSized());
      return; // the reference reads on after the header
    }
    const size = size32 === 1 ? u32(h, 8) * 0x1_0000_0000 + u32(h, 12) : size32;
    const type = fourcc(h, 4);
    if (size < headerSize) throw new StreamMediaError("malformed", `box ${type}: size ${size} is below its header`);
    if (start + size > end) throw new StreamMediaError("malformed", `box ${type} runs past the end of its container`);
    if (CONTAINER_TYPES.has(type)) {
      if (this.#ends.length >= MAXIMUM_BOX_DEPTH)
        throw new StreamMediaError("unsupported", `boxes nested more than ${MAXIMUM_BOX_DEPTH} deep`);
      this.#ends.push(start + size);
      this.#types.push(type);
      if (type === "meta") this.#metaSize = size;
      const timing = this.timing;
      if (timing) timingCall(() => timing.open(type));
    } else {
      this.#skipTo = start + size;
      const timing = this.timing;
      this.#sink = timing ? timingCall(() => timing.leaf(type, size - headerSize)) : null;
      if (this.#pos === this.#skipTo) this.#endSink();
    }
  }

  /** The leaf box `timing` reads ended: it judges what it read (an overrunning table is refused here). */
  #endSink(): void {
    const sink = this.#sink;
    this.#sink = null;
    if (sink) timingCall(() => sink.end());
  }
}

/** A MovieTiming call, its CorruptError (a table overrunning its box, a box too short) refusing the file as malformed. */
function timingCall<T>(call: () => T): T {
  try {
    return call();
  } catch (error) {
    if (error instanceof CorruptError) throw new StreamMediaError("malformed", error.message);
    throw error;
  }
}
