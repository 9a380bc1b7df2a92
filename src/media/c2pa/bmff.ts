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
import { fourcc, u32 } from "./jumbf-box";
import { BodyPeeks, type Sha256Stream, StreamMediaError, sha256Stream, u64be } from "./stream-hash";

/** The C2PA manifest box's extended type (C2PA specification, "Embedding manifests into BMFF"). */
export const C2PA_BOX_UUID = Uint8Array.from([
  0xd8, 0xfe, 0xc3, 0xd6, 0x1b, 0x0e, 0x48, 0x3c, 0x92, 0x97, 0x58, 0x28, 0x87, 0x7e, 0xc4, 0x81,
]);
/**
 * Only what this signer may ever rewrite is left out of the hash. c2pa-wasm also excludes `free` and `skip`, but
 * sample offsets may legally point into such a box, so excluding them would leave those bytes unsigned.
 */
const EXCLUDED_TYPES = new Set(["ftyp", "mfra"]);
/** More top-level boxes than any real file has: a file of millions of tiny boxes is refused, not walked for minutes. */
export const MAXIMUM_TOP_LEVEL_BOXES = 100_000;
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

  /** The first bytes of the box types asked for in `options.peek` (e.g. `moov`, for its `mvhd` duration). */
  readonly peeks: BodyPeeks;
  /** With `options.timing`: what the movie's tracks play, read as `moov` streams past (see MovieTiming). */
  readonly timing: MovieTiming | null;

  constructor(
    total: number,
    options: { verify: boolean; peek?: Record<string, number>; timing?: boolean },
    hash: Sha256Stream = sha256Stream(),
  ) {
    this.peeks = new BodyPeeks(options.peek);
    this.timing = options.timing ? new MovieTiming() : null;
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
        this.peeks.take(part);
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
    this.peeks.begin(type, this.#remaining);
    // The bytes already read past the header (a uuid's extended type) are not children of any container walked.
    this.#nested = CONTAINER_TYPES.has(type)
      ? new NestedBoxWalk(type, size, this.#remaining, this.#nestedBoxes, type === "moov" ? this.timing : null)
      : null;
    this.#headLen = 0;
    this.#need = 8;
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
  #sink: ((part: Uint8Array) => void) | null = null;
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
        this.#sink?.(part.subarray(at, at + n));
        at += n;
        this.#pos += n;
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
      const closed = this.#types.pop();
      if (closed === "trak" && this.#types.length === 1) this.timing?.closeTrack();
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
    if (size32 === 0) return; // the reference reads on after the header
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
      if (type === "trak" && this.#types.length === 2) this.timing?.openTrack();
    } else {
      this.#skipTo = start + size;
      this.#sink = this.timing?.leaf(type, this.#types) ?? null;
    }
  }
}

/** MovieTiming's bound on tracks held until `mvhd` is read. */
const PENDING_TRACKS = 1024;

/**
 * What a movie's tracks play, read from `moov` as it streams past (memory: a few numbers): the `mvhd` timescale and,
 * per `trak`, its `mdhd` timescale, the sum of its `stts` sample deltas and of its edit list's (`edts/elst`) segment
 * durations. The largest of what each track plays (its samples, cut to its edit list) is `playedSeconds`, folded in
 * as each track closes (or, for an edited track closed before `mvhd`, once its timescale is known). The stated durations (`mvhd`, `mdhd`) are summaries a customer can patch smaller without any
 * player minding; pricing takes the duration, so the upload inspection reports at least this.
 */
export class MovieTiming {
  movieTimescale = 0;
  #played = 0;
  /**
   * Tracks closed before `mvhd` was read (box order in `moov` is free), whose edit list needs the movie's timescale:
   * their samples' seconds and edit ticks, judged once it is known. At most PENDING_TRACKS (a hostile moov of more
   * edited tracks before its mvhd has the rest counted uncut: more, never less).
   */
  readonly #pending: { media: number; edit: number }[] = [];
  #track: { timescale: number; samples: number; stts: boolean; edit: number | null } | null = null;

  /** The longest a closed track plays, in seconds (0 when none told). */
  get playedSeconds(): number {
    let played = this.#played;
    for (const p of this.#pending) played = Math.max(played, trackPlayedSeconds(p.media, 1, p.edit, this.movieTimescale));
    return played;
  }

  openTrack(): void {
    // A timescale of -1: no mdhd read yet (one stating 0 is the one read, as the in-memory inspector reads the first).
    this.#track = { timescale: -1, samples: 0, stts: false, edit: null };
  }

  closeTrack(): void {
    const t = this.#track;
    this.#track = null;
    if (!t) return;
    if (this.movieTimescale === 0 && t.edit !== null && t.edit > 0 && t.timescale > 0 && this.#pending.length < PENDING_TRACKS) {
      this.#pending.push({ media: t.samples / t.timescale, edit: t.edit });
      return;
    }
    this.#played = Math.max(this.#played, trackPlayedSeconds(t.samples, t.timescale, t.edit, this.movieTimescale));
  }

  /**
   * A consumer for the body of leaf box `type` inside the containers `path` (outermost first), or null. Only the
   * boxes where the in-memory inspector reads them (a fake `trak` nested deeper is not the track), the first of each.
   */
  leaf(type: string, path: readonly string[]): ((part: Uint8Array) => void) | null {
    const where = path.join("/");
    if (type === "mvhd" && where === "moov" && this.movieTimescale === 0) {
      return fixedHead(32, (h, n) => {
        const at = h[0] === 1 ? 20 : 12;
        if (n >= at + 4) this.movieTimescale = u32(h, at);
      });
    }
    const track = this.#track;
    if (!track) return null;
    if (type === "mdhd" && where === "moov/trak/mdia" && track.timescale === -1) {
      return fixedHead(32, (h, n) => {
        const at = h[0] === 1 ? 20 : 12;
        track.timescale = n >= at + 4 ? u32(h, at) : 0;
      });
    }
    // The first stts only, as the in-memory inspector reads it (a second one would add to the track's time).
    if (type === "stts" && where === "moov/trak/mdia/minf/stbl" && !track.stts) {
      track.stts = true;
      return table(
        () => 8,
        (e) => void (track.samples += u32(e, 0) * sttsDelta(u32(e, 4))),
      );
    }
    if (type === "elst" && where === "moov/trak/edts" && track.edit === null) {
      track.edit = 0;
      return table(
        (version) => (version === 1 ? 20 : 12),
        (e, version) => void (track.edit! += version === 1 ? u32(e, 0) * 0x1_0000_0000 + u32(e, 4) : u32(e, 0)),
      );
    }
    return null;
  }
}

/**
 * An `stts` sample delta as players take it: legacy MOV writers store negative DTS corrections in this unsigned field
 * (0xFFFFFC00 for -1024), which FFmpeg reads as a delta of 1 past its max_stts_delta (2^32 - 1 - 480000). Counted as
 * written, one such entry made a 3 s M4A play 27 h here (over the pricing envelope). Shared by both upload paths.
 */
export function sttsDelta(delta: number): number {
  return delta > 0xffff_ffff - 480_000 ? 1 : delta;
}

/**
 * What a track plays, in seconds: its samples' durations (`stts`, in its `mdhd` timescale), cut to its edit list's
 * length (in the movie's timescale) when it has a non-empty one, as players present only the edited span (an
 * encoder's priming samples, a trimmed clip). 0 when not known (no samples: a fragmented movie's are in its
 * fragments). Shared by the in-memory inspector (inspect/isobmff.ts).
 */
export function trackPlayedSeconds(sampleTicks: number, timescale: number, editTicks: number | null, movieTimescale: number): number {
  if (timescale <= 0 || sampleTicks <= 0) return 0;
  const media = sampleTicks / timescale;
  // No edit list, or one of zero length (fragmented writers' convention), or no movie timescale to read it by.
  if (editTicks === null || editTicks <= 0 || movieTimescale <= 0) return media;
  return Math.min(media, editTicks / movieTimescale);
}

/** A consumer keeping a box body's first `length` bytes, calling `done` with them (and how many) once full. */
function fixedHead(length: number, done: (head: Uint8Array, got: number) => void): (part: Uint8Array) => void {
  const head = new Uint8Array(length);
  let got = 0;
  let told = false;
  return (part) => {
    const n = Math.min(part.length, length - got);
    head.set(part.subarray(0, n), got);
    got += n;
    // Told once: when full, else (a shorter body) on every part with what there is, the last call counting.
    if (!told) done(head, got);
    if (got === length) told = true;
  };
}

/**
 * A consumer for a full box holding a table: version and flags (4), an entry count (4), then entries of
 * `width(version)` bytes, each passed to `entry`; bytes past the count's entries are ignored.
 */
function table(width: (version: number) => number, entry: (e: Uint8Array, version: number) => void): (part: Uint8Array) => void {
  const head = new Uint8Array(8);
  let headGot = 0;
  let buffer: Uint8Array | null = null;
  let got = 0;
  let left = 0;
  let version = 0;
  return (part) => {
    let at = 0;
    if (headGot < 8) {
      const n = Math.min(part.length, 8 - headGot);
      head.set(part.subarray(0, n), headGot);
      headGot += n;
      at = n;
      if (headGot < 8) return;
      version = head[0]!;
      left = u32(head, 4);
      buffer = new Uint8Array(width(version));
    }
    const e = buffer!;
    while (at < part.length && left > 0) {
      const n = Math.min(part.length - at, e.length - got);
      e.set(part.subarray(at, at + n), got);
      got += n;
      at += n;
      if (got === e.length) {
        entry(e, version);
        got = 0;
        left--;
      }
    }
  };
}

/** The movie's duration in seconds from the start of a `moov` body (its `mvhd` child), or null when not found there. */
export function bmffDurationSeconds(moovHead: Uint8Array | undefined): number | null {
  if (!moovHead) return null;
  const view = new DataView(moovHead.buffer, moovHead.byteOffset, moovHead.byteLength);
  for (let at = 0; at + 8 <= moovHead.length; ) {
    const size = view.getUint32(at);
    if (fourcc(moovHead, at + 4) === "mvhd") {
      const version = moovHead[at + 8];
      const timescaleAt = at + (version === 1 ? 28 : 20);
      if (timescaleAt + (version === 1 ? 12 : 8) > moovHead.length) return null;
      const timescale = view.getUint32(timescaleAt);
      const duration =
        version === 1 ? view.getUint32(timescaleAt + 4) * 0x1_0000_0000 + view.getUint32(timescaleAt + 8) : view.getUint32(timescaleAt + 4);
      const unknown = version === 1 ? view.getUint32(timescaleAt + 4) === 0xffff_ffff : duration === 0xffff_ffff;
      return timescale > 0 && !unknown ? duration / timescale : null;
    }
    if (size < 8) return null;
    at += size;
  }
  return null;
}
