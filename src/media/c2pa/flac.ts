/**
 * FLAC for the streaming signer. c2pa-wasm (c2pa-rs) carries a FLAC's manifest store in an ID3v2.4 tag put before
 * `fLaC`: one `GEOB` frame (UTF-8, MIME `application/c2pa`, file name `c2pa`, description `c2pa manifest store`)
 * whose object is the store, bound by a `c2pa.hash.data` whose one exclusion is exactly the store's bytes (the tag
 * and frame headers are hashed, with the FLAC after them). The streaming signer writes that same layout (checked
 * against the engine's own output in test/node/media/stream-sign-flac.test.ts), so the store's size is known before
 * the hash (stream-sign.ts sizes it first): the tag's size fields are hashed.
 */
import { MANIFEST_STORE_MAXIMUM_BYTES } from "../../catalog/limits";
import { type Sha256Stream, StreamMediaError, sha256Stream } from "./stream-hash";

/** The bytes of the engine's tag before the store: ID3 header (10), GEOB frame header (10), its fields (43). */
const GEOB_FIELDS = new TextEncoder().encode("\x03application/c2pa\0c2pa\0c2pa manifest store\0");
export const FLAC_STORE_OFFSET = 10 + 10 + GEOB_FIELDS.length;

/** The GEOB MIME types the reference reader takes for a manifest store (two such frames: two stores). */
const C2PA_MIMES = new Set(["application/c2pa", "application/x-c2pa-manifest-store"]);
/** A text frame is buffered to be checked: a longer one is not checked (opaque). */
const TEXT_FRAME_MAXIMUM_BYTES = 64 * 1024;
/** More metadata blocks or ID3 frames than any real FLAC has. */
const MAXIMUM_BLOCKS = 100_000;
/** The GEOB fields before a store: a frame this much larger than the largest store is not one read. */
const GEOB_SLACK_BYTES = 4096;
/**
 * Frame-start candidates kept for the end check (false syncs inside the last frame included): noise has a false sync
 * every 32 KiB on average, so a largest-possible frame (about 2 MiB) holds about 64; 1024 keep the real start with a
 * wide margin (10 KiB, and the end check's cost is still a few microseconds per candidate).
 */
const CANDIDATES = 1024;
/** A frame header's largest size (RFC 9639 §9.1): sync and codes 4, coded number 7, block size 2, sample rate 2, CRC-8 1. */
const FRAME_HEAD = 16;
/** FlacFrames.scan's part: its candidates (one per 2 bytes at most) and the 16-byte lag of judging stay below CANDIDATES. */
const PART = 1024;

/** The ID3v2.4 tag's bytes before a store of `storeLength` bytes (hashed; the store follows them). */
export function flacTagHead(storeLength: number): Uint8Array {
  const frameBody = GEOB_FIELDS.length + storeLength;
  const head = new Uint8Array(FLAC_STORE_OFFSET);
  head.set([0x49, 0x44, 0x33, 0x04, 0x00, 0x00], 0); // "ID3" v2.4.0, no flags
  head.set(syncsafe(10 + frameBody), 6);
  head.set([0x47, 0x45, 0x4f, 0x42], 10); // "GEOB"
  head.set(syncsafe(frameBody), 14);
  head.set(GEOB_FIELDS, 20);
  return head;
}

function syncsafe(value: number): Uint8Array {
  if (value >= 1 << 28) throw new StreamMediaError("unsupported", "the manifest store is too large for an ID3v2 tag");
  return Uint8Array.of((value >>> 21) & 0x7f, (value >>> 14) & 0x7f, (value >>> 7) & 0x7f, value & 0x7f);
}

/** FLAC's CRC-16 (polynomial x^16 + x^15 + x^2 + 1, initial 0, no reflection): a whole frame's is 0. */
const CRC16 = (() => {
  const table = new Uint16Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n << 8;
    for (let k = 0; k < 8; k++) c = c & 0x8000 ? (c << 1) ^ 0x8005 : c << 1;
    table[n] = c & 0xffff;
  }
  return table;
})();

/** a·b mod the CRC polynomial (both below 2^16). */
function mulmod(a: number, b: number): number {
  let r = 0;
  for (let i = 15; i >= 0; i--) {
    r <<= 1;
    if (r & 0x10000) r ^= 0x18005;
    if ((b >>> i) & 1) r ^= a;
  }
  return r;
}

/** x^(8n) mod the polynomial: what n zero bytes do to a CRC register. */
function zeroBytes(n: number): number {
  let result = 1;
  let base = 0x100;
  for (let e = n; e > 0; e = Math.floor(e / 2)) {
    if (e % 2 === 1) result = mulmod(result, base);
    base = mulmod(base, base);
  }
  return result;
}

/** `crc` times x^(8 * gap): `gap` zero bytes fed to the register, one table step each when the gap is short. */
function shiftBy(crc: number, gap: number): number {
  if (gap > 32) return mulmod(crc, zeroBytes(gap));
  for (let i = 0; i < gap; i++) crc = ((crc << 8) ^ CRC16[(crc >>> 8) & 0xff]!) & 0xffff;
  return crc;
}

const be32 = (b: Uint8Array, at: number) => b[at]! * 0x100_0000 + ((b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!);
const fromSyncsafe = (b: Uint8Array, at: number) => (b[at]! << 21) | (b[at + 1]! << 14) | (b[at + 2]! << 7) | b[at + 3]!;

type State = "start" | "id3" | "frame" | "magic" | "block" | "streaminfo" | "audio";

/**
 * Walks a FLAC file fed in order, hashing what the data hash covers. Sign mode (`sign: true`): a file that already
 * starts with an ID3v2 tag is refused (a C2PA one: already signed). Verify mode: an ID3v2 tag before `fLaC` is walked
 * and a `GEOB` frame of MIME `application/c2pa` found there is the store (kept in `store`, its bytes, the exclusion,
 * in `exclusion`; `application/x-c2pa-manifest-store` too, as the reference reader takes it); the tag's other bytes
 * are hashed. A store is judged only in a tag the reference surely reads as we do: a tag carrying one with any
 * frame not checked as its reader decodes it (anything but a well-formed text frame or GEOB, a frame with format
 * flags, an empty one, a GEOB larger than any store) is refused; a tag without one is only walked. Both modes check the FLAC itself: `fLaC`, STREAMINFO first,
 * every metadata block inside the file, audio starting with a frame sync, and the file ending with a whole frame
 * (its CRC-16; an ID3v1 tag after it is allowed), which catches a truncated upload; and, unless `totalSamples` is
 * false, that frame's header reaching STREAMINFO's total samples when it states one, which catches an upload cut on a
 * frame boundary. Invariants: memory bounded (a header, the last 1024 frame-start candidates' positions, CRCs and
 * 16 header bytes, plus one GEOB frame of at most a store or one text frame of at most 64 KiB); throws
 * StreamMediaError for input it refuses.
 */
export class FlacScanner {
  store: Uint8Array | null = null;
  exclusion: { start: number; length: number } | null = null;
  /** STREAMINFO's body (34 bytes) once read. */
  streamInfo: Uint8Array | null = null;
  readonly #total: number;
  readonly #sign: boolean;
  readonly #hash: Sha256Stream;
  #state: State = "start";
  #pos = 0;
  readonly #head = new Uint8Array(34);
  #headLen = 0;
  #need = 4;
  /** Bytes left in a pass-through (hashed) span. */
  #remaining = 0;
  #blocks = 0;
  #lastBlock = false;
  #tagEnd = 0;
  #id3Version = 0;
  #frame: Uint8Array | null = null;
  #frameFilled = 0;
  /** The buffered frame is a text frame (checked as the reference decodes it), else a GEOB. */
  #frameIsText = false;
  /** The tag holds a frame whose content was not checked (anything but a text frame or a GEOB). */
  #opaqueFrame = false;
  #audioStart = -1;
  #frames: FlacFrames | null = null;
  readonly #totalSamples: boolean;
  /**
   * After finish(): how far the frames reach (FlacFrames.reach), or null when that cannot be told. The length the
   * frames actually carry, which a STREAMINFO total patched smaller does not change (inspect/audio.ts flacStreamInfoFacts).
   */
  framesReach: number | null = null;

  /**
   * `totalSamples` (default true): refuse a file whose last frame ends before STREAMINFO's total sample count (cut
   * on a frame boundary). Verification passes false: the reference reader judges a signed file cut after signing by
   * its data hash (a mismatch), and so does the stream.
   */
  constructor(total: number, options: { sign: boolean; totalSamples?: boolean }, hash: Sha256Stream = sha256Stream()) {
    this.#total = total;
    this.#sign = options.sign;
    this.#totalSamples = options.totalSamples ?? true;
    this.#hash = hash;
  }

  /** The store once all of it was read (it comes first, so long before the file's end). */
  get capturedStore(): Uint8Array | null {
    return this.store;
  }

  /** Returns `input` (the signer copies the file's bytes unchanged after its own tag). */
  async push(input: Uint8Array): Promise<Uint8Array> {
    let at = 0;
    while (at < input.length) {
      if (this.#state === "audio") {
        await this.#audio(input.subarray(at));
        break;
      }
      if (this.#frame) {
        const n = Math.min(this.#frame.length - this.#frameFilled, input.length - at);
        this.#frame.set(input.subarray(at, at + n), this.#frameFilled);
        this.#frameFilled += n;
        this.#pos += n;
        at += n;
        if (this.#frameFilled === this.#frame.length) await (this.#frameIsText ? this.#text() : this.#geob());
        continue;
      }
      if (this.#remaining > 0) {
        const n = Math.min(this.#remaining, input.length - at);
        await this.#hash.update(input.subarray(at, at + n));
        this.#remaining -= n;
        this.#pos += n;
        at += n;
        if (this.#remaining === 0) await this.#next();
        continue;
      }
      const n = Math.min(this.#need - this.#headLen, input.length - at);
      this.#head.set(input.subarray(at, at + n), this.#headLen);
      this.#headLen += n;
      this.#pos += n;
      at += n;
      if (this.#headLen === this.#need) {
        this.#headLen = 0;
        await this.#onHead(this.#head.subarray(0, this.#need));
      }
    }
    return input;
  }

  async finish(): Promise<Uint8Array> {
    if (this.#state !== "audio" || this.#pos !== this.#total) {
      throw new StreamMediaError("malformed", `the file ends before its audio frames (${this.#pos} of ${this.#total} bytes; truncated?)`);
    }
    if (this.#total - this.#audioStart < 2) throw new StreamMediaError("malformed", "the FLAC has no audio frames");
    const info = this.streamInfo!;
    const totalSamples = this.#totalSamples ? (info[13]! & 0x0f) * 0x1_0000_0000 + be32(info, 14) : 0;
    // Any last frame (a CRC-16 match) whose header reaches the total, or cannot tell, passes. Every earlier frame
    // start kept matches too (whole frames are CRC-16 codewords, so is a run of them), and so may a false sync (about
    // 1 in 65536): those end before the total, so only the real last frame decides; none makes a valid file refused.
    const { ends, carried, reach, samples } = this.#frames!.reach(info);
    this.framesReach = reach;
    // A chain of whole frames closing at the end is a whole last frame too, even when that frame held so many false
    // syncs that its start is no longer among the candidates kept (the in-memory inspector accepts such a file).
    if (ends.length === 0 && carried === null) {
      throw new StreamMediaError("malformed", "the FLAC does not end with a whole audio frame (its CRC-16 does not match: truncated?)");
    }
    const known = ends.filter((end): end is number => end !== null);
    // A total of 0 is unknown (RFC 9639 §8.2).
    if (totalSamples === 0 || known.length < ends.length || (samples ?? 0) >= totalSamples) return this.#hash.digest();
    const lastEnd = known.length > 0 ? Math.max(...known) : samples;
    throw new StreamMediaError(
      "malformed",
      `the FLAC's last frame ends at sample ${lastEnd} of the ${totalSamples} its STREAMINFO states (truncated, or STREAMINFO overstates the length: flac -t fails such a file; re-encode it)`,
    );
  }

  async #onHead(h: Uint8Array): Promise<void> {
    switch (this.#state) {
      case "start": {
        if (h[0] === 0x49 && h[1] === 0x44 && h[2] === 0x33) {
          this.#state = "id3";
          this.#need = 10;
          this.#head.copyWithin(0, 0, 4);
          this.#headLen = 4;
          return;
        }
        return this.#magic(h);
      }
      case "id3": {
        await this.#hash.update(h.slice());
        const version = h[3]!;
        if (version !== 3 && version !== 4) throw new StreamMediaError("unsupported", `ID3v2.${version} tag before the FLAC`);
        // Unsynchronisation, an extended header or a footer: not the layout a manifest is carried in.
        if (h[5]! !== 0) throw new StreamMediaError("unsupported", "an ID3v2 tag with flags before the FLAC");
        if ((h[6]! | h[7]! | h[8]! | h[9]!) & 0x80) throw new StreamMediaError("malformed", "the ID3v2 tag size is not syncsafe");
        this.#id3Version = version;
        this.#tagEnd = 10 + fromSyncsafe(h, 6);
        if (this.#tagEnd > this.#total) throw new StreamMediaError("malformed", "the ID3v2 tag runs past the end of the file (truncated?)");
        return this.#nextFrame();
      }
      case "frame": {
        await this.#hash.update(h.slice());
        if (h[0] === 0) {
          // Padding (a zero byte where a frame id would be): hashed to the tag's end.
          this.#remaining = this.#tagEnd - this.#pos;
          if (this.#remaining === 0) await this.#nextFrame();
          return;
        }
        const id = String.fromCharCode(h[0]!, h[1]!, h[2]!, h[3]!);
        const size = this.#id3Version === 4 ? fromSyncsafe(h, 4) : be32(h, 4);
        if (++this.#blocks > MAXIMUM_BLOCKS) throw new StreamMediaError("unsupported", `more than ${MAXIMUM_BLOCKS} ID3 frames`);
        if (this.#pos + size > this.#tagEnd) throw new StreamMediaError("malformed", `ID3 frame ${JSON.stringify(id)} runs past its tag`);
        // Checked as the reference's ID3 reader decodes it (else an opaque frame: a store beside it is refused, at
        // fLaC): a text frame or a GEOB (at most a store: a larger one may still be a store the reference counts),
        // non-empty, with no format flags (compression, encryption, grouping, unsynchronisation, data length).
        const checked =
          size > 0 &&
          h[9]! === 0 &&
          ((id === "GEOB" && size <= MANIFEST_STORE_MAXIMUM_BYTES + GEOB_SLACK_BYTES) ||
            (id[0] === "T" && size <= TEXT_FRAME_MAXIMUM_BYTES));
        if (checked) {
          this.#frame = new Uint8Array(size);
          this.#frameFilled = 0;
          this.#frameIsText = id !== "GEOB";
          return;
        }
        this.#opaqueFrame = true;
        this.#remaining = size;
        if (size === 0) await this.#next();
        return;
      }
      case "magic":
        return this.#magic(h);
      case "block": {
        await this.#hash.update(h.slice());
        const type = h[0]! & 0x7f;
        const length = (h[1]! << 16) | (h[2]! << 8) | h[3]!;
        this.#lastBlock = (h[0]! & 0x80) !== 0;
        if (++this.#blocks > MAXIMUM_BLOCKS) throw new StreamMediaError("unsupported", `more than ${MAXIMUM_BLOCKS} metadata blocks`);
        if (type === 127) throw new StreamMediaError("malformed", "FLAC metadata block type 127 is invalid");
        if (!this.streamInfo && (type !== 0 || length !== 34))
          throw new StreamMediaError("malformed", "the FLAC does not start with STREAMINFO");
        if (this.streamInfo && type === 0) throw new StreamMediaError("malformed", "two FLAC STREAMINFO blocks");
        if (this.#pos + length > this.#total) {
          throw new StreamMediaError("malformed", `FLAC metadata block at ${this.#pos - 4} runs past the end of the file (truncated?)`);
        }
        if (type === 0) {
          this.#state = "streaminfo";
          this.#need = 34;
          return;
        }
        this.#remaining = length;
        if (length === 0) await this.#next();
        return;
      }
      case "streaminfo": {
        await this.#hash.update(h.slice());
        this.streamInfo = h.slice();
        const sampleRate = (h[10]! << 12) | (h[11]! << 4) | (h[12]! >> 4);
        if (sampleRate === 0) throw new StreamMediaError("malformed", "the FLAC sample rate is zero");
        return this.#next();
      }
      default:
        throw new Error(`FlacScanner: no header in state ${this.#state}`);
    }
  }

  async #magic(h: Uint8Array): Promise<void> {
    // A store is judged only in a tag the reference surely reads as we do: one whose every other frame was checked
    // (text, GEOB) or is padding. Any other frame it may fail to decode (then it reads no manifest at all).
    if (this.store && this.#opaqueFrame) {
      throw new StreamMediaError("unsupported", "the ID3 tag carrying the C2PA manifest holds frames whose reading is not checked");
    }
    if (h[0] !== 0x66 || h[1] !== 0x4c || h[2] !== 0x61 || h[3] !== 0x43) {
      throw new StreamMediaError("malformed", this.#tagEnd > 0 ? "the ID3v2 tag is not followed by a FLAC stream" : "not a FLAC file");
    }
    if (this.#sign && this.#tagEnd > 0) {
      throw new StreamMediaError("unsupported", "the file starts with an ID3v2 tag (streaming signing writes its own)");
    }
    await this.#hash.update(h.slice());
    this.#state = "block";
    this.#need = 4;
  }

  /** After a pass-through span or a header's body: the next frame, block or the audio. */
  async #next(): Promise<void> {
    if (this.#state === "frame") return this.#nextFrame();
    this.#state = "block";
    this.#need = 4;
    if (this.#lastBlock) {
      this.#state = "audio";
      this.#audioStart = this.#pos;
      this.#frames = new FlacFrames(this.#total);
    }
  }

  async #nextFrame(): Promise<void> {
    const left = this.#tagEnd - this.#pos;
    this.#state = "frame";
    if (left === 0) {
      this.#state = "magic";
      this.#need = 4;
    } else if (left < 10)
      this.#remaining = left; // too few bytes for a frame header: padding, hashed
    else this.#need = 10;
  }

  /** A whole text frame body, hashed: opaque where the reference's ID3 reader fails on it (its encoding, its text). */
  async #text(): Promise<void> {
    const body = this.#frame!;
    this.#frame = null;
    const encoding = body[0]!;
    let valid = encoding <= 3;
    if (encoding === 1 || encoding === 2) valid = wellFormedUtf16(body.subarray(1), encoding === 2);
    if (encoding === 3) {
      try {
        new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(body.subarray(1));
      } catch {
        valid = false;
      }
    }
    if (!valid) this.#opaqueFrame = true;
    await this.#hash.update(body);
    return this.#nextFrame();
  }

  /** A whole GEOB frame body: the C2PA store (excluded) or any other object (hashed). */
  async #geob(): Promise<void> {
    const body = this.#frame!;
    const bodyStart = this.#pos - body.length;
    this.#frame = null;
    const fields = geobFields(body);
    if (!fields) this.#opaqueFrame = true;
    if (fields && C2PA_MIMES.has(fields.mime)) {
      if (this.#sign) throw new StreamMediaError("unsupported", "the file already carries a C2PA manifest (an ID3 GEOB frame)");
      if (this.store) throw new StreamMediaError("malformed", "two C2PA manifest frames");
      await this.#hash.update(body.subarray(0, fields.dataStart));
      this.store = body.slice(fields.dataStart);
      this.exclusion = { start: bodyStart + fields.dataStart, length: body.length - fields.dataStart };
    } else {
      await this.#hash.update(body);
    }
    return this.#nextFrame();
  }

  async #audio(bytes: Uint8Array): Promise<void> {
    const start = this.#pos;
    if (start === this.#audioStart && bytes.length > 0 && bytes[0] !== 0xff) {
      throw new StreamMediaError("malformed", "FLAC frame sync missing after the metadata");
    }
    if (start === this.#audioStart + 1 && bytes.length > 0 && (bytes[0]! & 0xfe) !== 0xf8) {
      throw new StreamMediaError("malformed", "FLAC frame sync missing after the metadata");
    }
    await this.#hash.update(bytes);
    this.#frames!.scan(start, bytes);
    if (start === this.#audioStart && bytes.length >= 2 && (bytes[1]! & 0xfe) !== 0xf8) {
      throw new StreamMediaError("malformed", "FLAC frame sync missing after the metadata");
    }
    this.#pos += bytes.length;
  }
}

/**
 * A FLAC's audio frames fed in order, synchronously (shared by the streamed scanner above and the in-memory inspector,
 * inspect/audio.ts, so both judge a file's end alike): the running CRC-16 and the last 1024 frame-start candidates
 * (every 0xFFF8/0xFFF9, false syncs included) with the CRC before each and its first 16 bytes, so that at the end the
 * whole last frames are known (a candidate whose CRC-16 to the file's end, or to a trailing ID3v1 tag, is 0) and
 * what their headers state. `total`: the file's length (the frames run to it).
 */
export class FlacFrames {
  readonly #total: number;
  #crc = 0;
  #prevFF = false;
  #crcAtFF = 0;
  readonly #candidatePos = new Float64Array(CANDIDATES);
  readonly #candidateCrc = new Uint16Array(CANDIDATES);
  /** Each candidate's first FRAME_HEAD bytes (its frame header, if it is a frame) and how many are in. */
  readonly #candidateHead = new Uint8Array(CANDIDATES * FRAME_HEAD);
  readonly #candidateFill = new Uint8Array(CANDIDATES);
  #candidates = 0;
  #crcAtId3v1 = -1;
  readonly #id3v1 = new Uint8Array(3);
  /**
   * The frame chain (see #carriedSamples): the next candidate to judge, the start of the frame being followed (-1:
   * none yet; NaN: the chain broke, the count is unknown), the CRC before it and its block size, and the samples of
   * the frames before it.
   */
  #judged = 0;
  #chainPos = -1;
  #chainCrc = 0;
  #chainBlock = 0;
  #carried = 0;
  /** The lowest sample rate a frame of the chain states (0: none stated one). */
  #slowest = 0;
  /**
   * The lowest rate any candidate with a valid header states (0: none): when the chain breaks (a first header that
   * does not check, a frame whose CRC-16 fails) the frames past the break are not followed, yet decoders still play
   * them at their headers' rates, so the rate is then taken from every header (a broken file may be billed more).
   */
  #slowestSeen = 0;
  /**
   * The chain's CRC carried to the last candidate judged (`#chainCrc` times x^(8 * (#shiftedAt - #chainPos))), moved
   * on by the gap to each next candidate: a frame full of valid false headers costs a multiplication per candidate,
   * not an exponentiation over the whole distance from the chain's frame (which made such a file ~60x slower).
   */
  #shifted = 0;
  #shiftedAt = 0;

  constructor(total: number) {
    this.#total = total;
  }

  /**
   * The samples the frames carry: the block sizes of the chain of whole frames from the first, each next frame
   * being the first candidate after it with a valid header (CRC-8) where the CRC-16 closes, and the last closing at
   * the file's end (or before a trailing ID3v1 tag); null when that chain cannot be followed (no valid first header,
   * a last frame that does not close). It never skips a real frame (every real frame start closes the chain before
   * it, whatever false syncs were taken: runs of whole frames are CRC-16 codewords), so it never counts fewer samples
   * than the frames carry, however many false syncs a frame holds; a false sync taken (a valid header and a CRC-16
   * closing by chance: about 1 in 2^24 per false sync) adds its block size. Call once every byte was scanned.
   */
  #carriedSamples(): number | null {
    this.#judge(true);
    if (!(this.#chainPos >= 0)) return null;
    const tagged = this.#endsWithId3v1();
    const closes = (end: number, crc: number) =>
      end - this.#chainPos > 2 && (crc ^ mulmod(this.#chainCrc, zeroBytes(end - this.#chainPos))) === 0;
    if (closes(this.#total, this.#crc) || (tagged && closes(this.#total - 128, this.#crcAtId3v1))) return this.#carried + this.#chainBlock;
    return null;
  }

  /**
   * Once every byte was scanned: the whole last frames' ends as their headers state them (#lastFrameEnds), the samples
   * the chain of whole frames carries (#carriedSamples), and how far the frames reach: the largest of those known
   * (`samples`), and that counted at STREAMINFO's rate for as long as the frames play (`reach`); null when none is.
   */
  reach(info: Uint8Array): { ends: (number | null)[]; carried: number | null; reach: number | null; samples: number | null } {
    const ends = this.#lastFrameEnds(info);
    const carried = this.#carriedSamples();
    const known = [...ends, carried].filter((n): n is number => n !== null);
    if (known.length === 0) return { ends, carried, reach: null, samples: null };
    // `reach` is read at STREAMINFO's rate (the duration divides by it). Decoders play each frame at the rate its
    // header states: frames slower than STREAMINFO claims play longer, so their samples count at STREAMINFO's rate
    // for that longer time (a STREAMINFO rate patched upward no longer shortens the bill).
    const stated = (((info[10] ?? 0) << 12) | ((info[11] ?? 0) << 4) | ((info[12] ?? 0) >> 4)) >>> 0;
    // `samples`: the frames' own count, unscaled (what the truncation check compares with STREAMINFO's total).
    const samples = Math.max(...known);
    const slowest = carried === null ? this.#slowestSeen : this.#slowest;
    const reach = slowest > 0 && stated > slowest ? Math.ceil((samples * stated) / slowest) : samples;
    return { ends, carried, reach, samples };
  }

  /** Judges, in order, the candidates whose 16 header bytes are in (all of them at the end: `all`). */
  #judge(all: boolean): void {
    for (; this.#judged < this.#candidates; this.#judged++) {
      const slot = this.#judged % CANDIDATES;
      const fill = this.#candidateFill[slot]!;
      if (fill < FRAME_HEAD && !all) return;
      const header = frameHeader(this.#candidateHead.subarray(slot * FRAME_HEAD, (slot + 1) * FRAME_HEAD), fill);
      if (header && header.rate > 0 && (this.#slowestSeen === 0 || header.rate < this.#slowestSeen)) this.#slowestSeen = header.rate;
      if (Number.isNaN(this.#chainPos)) continue;
      const pos = this.#candidatePos[slot]!;
      const crc = this.#candidateCrc[slot]!;
      if (this.#chainPos === -1) {
        // The first candidate is where the audio starts (its sync is checked): a frame, or no chain at all.
        if (!header) this.#chainPos = Number.NaN;
        else {
          [this.#chainPos, this.#chainCrc, this.#chainBlock, this.#shifted, this.#shiftedAt] = [pos, crc, header.blockSize, crc, pos];
          this.#slower(header.rate);
        }
        continue;
      }
      if (!header) continue;
      this.#shifted = shiftBy(this.#shifted, pos - this.#shiftedAt);
      this.#shiftedAt = pos;
      if ((crc ^ this.#shifted) !== 0) continue;
      this.#carried += this.#chainBlock;
      [this.#chainPos, this.#chainCrc, this.#chainBlock, this.#shifted] = [pos, crc, header.blockSize, crc];
      this.#slower(header.rate);
    }
  }

  #slower(rate: number): void {
    if (rate > 0 && (this.#slowest === 0 || rate < this.#slowest)) this.#slowest = rate;
  }

  /** The frame bytes at file offset `start` (each call continues where the previous one ended). */
  scan(start: number, bytes: Uint8Array): void {
    // In parts of at most PART bytes (at most PART / 2 candidates), each judged for the chain before the next: the
    // ring of kept candidates never laps one not yet judged, however many false syncs a chunk holds.
    for (let at = 0; at < bytes.length; at += PART) this.#scanPart(start + at, bytes.subarray(at, at + PART));
  }

  #scanPart(start: number, bytes: Uint8Array): void {
    let crc = this.#crc;
    let prevFF = this.#prevFF;
    let crcAtFF = this.#crcAtFF;
    const id3v1At = this.#total - 128 - start;
    const table = CRC16;
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i]!;
      if (i === id3v1At) this.#crcAtId3v1 = crc;
      if (prevFF && (b & 0xfe) === 0xf8) {
        const slot = this.#candidates++ % CANDIDATES;
        this.#candidatePos[slot] = start + i - 1;
        this.#candidateCrc[slot] = crcAtFF;
        this.#candidateHead[slot * FRAME_HEAD] = 0xff;
        this.#candidateFill[slot] = 1;
      }
      if (b === 0xff) {
        prevFF = true;
        crcAtFF = crc;
      } else prevFF = false;
      crc = ((crc << 8) ^ table[((crc >>> 8) ^ b) & 0xff]!) & 0xffff;
    }
    for (let k = 0; k < 3; k++) {
      const i = id3v1At + k;
      if (i >= 0 && i < bytes.length) this.#id3v1[k] = bytes[i]!;
    }
    this.#crc = crc;
    this.#prevFF = prevFF;
    this.#crcAtFF = crcAtFF;
    this.#fillHeads(start, bytes);
    this.#judge(false);
  }

  /**
   * Once every byte was scanned: for each whole last frame (a candidate whose CRC-16 closes at the file's end or
   * before a trailing ID3v1 tag), the sample number just past it as its header states it (frameEndSample; null when
   * that cannot be told). Empty: the file does not end with a whole frame. `info`: STREAMINFO's body.
   */
  #lastFrameEnds(info: Uint8Array): (number | null)[] {
    const tagged = this.#endsWithId3v1();
    const ends = [{ end: this.#total, crc: this.#crc }];
    if (tagged) ends.push({ end: this.#total - 128, crc: this.#crcAtId3v1 });
    const found: (number | null)[] = [];
    for (const { end, crc } of ends) {
      for (const slot of this.#endingFrames(end, crc)) {
        const head = this.#candidateHead.subarray(slot * FRAME_HEAD, (slot + 1) * FRAME_HEAD);
        found.push(frameEndSample(head, this.#candidateFill[slot]!, info));
      }
    }
    return found;
  }

  /** Whether the file's last 128 bytes are an ID3v1 tag (`TAG`), after which the frames end. */
  #endsWithId3v1(): boolean {
    return this.#crcAtId3v1 >= 0 && this.#id3v1[0] === 0x54 && this.#id3v1[1] === 0x41 && this.#id3v1[2] === 0x47;
  }

  /** The candidate slots s whose CRC-16 over [s, end) is 0 (`crc`: the running CRC at `end`): whole last frames. */
  #endingFrames(end: number, crc: number): number[] {
    const kept = Math.min(this.#candidates, CANDIDATES);
    const slots: number[] = [];
    for (let i = 0; i < kept; i++) {
      const s = this.#candidatePos[i]!;
      if (s < end - 2 && (crc ^ mulmod(this.#candidateCrc[i]!, zeroBytes(end - s))) === 0) slots.push(i);
    }
    return slots;
  }

  /** Copies into the newest candidates' header buffers the bytes of theirs this chunk holds (a few candidates). */
  #fillHeads(start: number, bytes: Uint8Array): void {
    const oldest = Math.max(0, this.#candidates - CANDIDATES);
    for (let j = this.#candidates - 1; j >= oldest; j--) {
      const slot = j % CANDIDATES;
      const pos = this.#candidatePos[slot]!;
      if (pos + FRAME_HEAD <= start) break;
      let fill = this.#candidateFill[slot]!;
      for (; fill < FRAME_HEAD && pos + fill - start < bytes.length; fill++) {
        this.#candidateHead[slot * FRAME_HEAD + fill] = bytes[pos + fill - start]!;
      }
      this.#candidateFill[slot] = fill;
    }
  }
}

/** Whether UTF-16 text (a BOM, else big-endian: `be`) has no lone surrogate (the reference's reader fails on one). */
function wellFormedUtf16(bytes: Uint8Array, be: boolean): boolean {
  let at = 0;
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    be = bytes[0] === 0xfe;
    at = 2;
  }
  let high = false;
  for (; at + 1 < bytes.length; at += 2) {
    const unit = be ? (bytes[at]! << 8) | bytes[at + 1]! : bytes[at]! | (bytes[at + 1]! << 8);
    const isHigh = unit >= 0xd800 && unit <= 0xdbff;
    const isLow = unit >= 0xdc00 && unit <= 0xdfff;
    if ((isLow && !high) || (high && !isLow)) return false;
    high = isHigh;
  }
  return !high;
}

/** A GEOB frame body's MIME type and where its object starts, or null when its fields do not parse. */
function geobFields(body: Uint8Array): { mime: string; dataStart: number } | null {
  if (body.length < 1) return null;
  const encoding = body[0]!;
  if (encoding > 3) return null;
  const mimeEnd = body.indexOf(0, 1);
  if (mimeEnd < 0) return null;
  const mime = String.fromCharCode(...body.subarray(1, mimeEnd));
  const wide = encoding === 1 || encoding === 2;
  let at = mimeEnd + 1;
  // File name and description: terminated by one zero byte, or two at an even offset in UTF-16.
  for (let s = 0; s < 2; s++) {
    if (!wide) {
      const end = body.indexOf(0, at);
      if (end < 0) return null;
      at = end + 1;
    } else {
      let end = at;
      while (end + 1 < body.length && (body[end] !== 0 || body[end + 1] !== 0)) end += 2;
      if (end + 1 >= body.length) return null;
      at = end + 2;
    }
  }
  return { mime, dataStart: at };
}

/** FLAC's frame-header CRC-8 (polynomial x^8 + x^2 + x + 1, initial 0). */
const CRC8 = (() => {
  const table = new Uint8Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 0x80 ? ((c << 1) ^ 0x07) & 0xff : (c << 1) & 0xff;
    table[n] = c;
  }
  return table;
})();

function crc8(b: Uint8Array, length: number): number {
  let c = 0;
  for (let i = 0; i < length; i++) c = CRC8[c ^ b[i]!]!;
  return c;
}

/**
 * The sample number just past a frame (its first sample plus its block size) from its header's first `available`
 * bytes (RFC 9639 §9.1), or null when that cannot be told: no valid header (a reserved code, a bad coded number or
 * CRC-8), or a fixed-blocksize frame past the first in a stream whose STREAMINFO block sizes differ (its nominal
 * block size is then not stated). `info`: STREAMINFO's body.
 */
export function frameEndSample(h: Uint8Array, available: number, info: Uint8Array): number | null {
  const header = frameHeader(h, available);
  if (!header) return null;
  const { variable, number, blockSize } = header;
  if (variable) return number + blockSize;
  if (number === 0) return blockSize;
  const minimum = (info[0]! << 8) | info[1]!;
  const maximum = (info[2]! << 8) | info[3]!;
  return minimum === maximum ? number * maximum + blockSize : null;
}

/** Sample rates of frame header codes 1-11 (RFC 9639 §9.1.2; 0 defers to STREAMINFO, 12-14 carry their own). */
const FRAME_RATES = [0, 88_200, 176_400, 192_000, 8000, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000, 96_000];

/**
 * A frame header's blocking strategy, coded number, block size and sample rate (0: STREAMINFO's), or null when it is
 * no valid header (as above).
 */
function frameHeader(h: Uint8Array, available: number): { variable: boolean; number: number; blockSize: number; rate: number } | null {
  if (available < 5 || h[0] !== 0xff || (h[1]! & 0xfe) !== 0xf8) return null;
  const variable = (h[1]! & 1) === 1;
  const sizeCode = h[2]! >> 4;
  const rateCode = h[2]! & 0x0f;
  // Block size 0 and sample rate 15 are forbidden; channel assignments 11–15, bit depth 3 and the reserved bit reserved.
  if (sizeCode === 0 || rateCode === 15 || h[3]! >> 4 > 10 || ((h[3]! >> 1) & 7) === 3 || (h[3]! & 1) !== 0) return null;
  // The coded number: UTF-8-like, 1 to 7 bytes (a frame number of up to 31 bits, a sample number of up to 36).
  const lead = h[4]!;
  const length =
    lead < 0x80
      ? 1
      : lead < 0xc0
        ? 0
        : lead < 0xe0
          ? 2
          : lead < 0xf0
            ? 3
            : lead < 0xf8
              ? 4
              : lead < 0xfc
                ? 5
                : lead < 0xfe
                  ? 6
                  : lead === 0xfe
                    ? 7
                    : 0;
  if (length === 0 || (!variable && length > 6)) return null;
  let number = length === 1 ? lead : lead & (0x7f >> length);
  let at = 5;
  for (let k = 1; k < length; k++, at++) {
    if (at >= available || (h[at]! & 0xc0) !== 0x80) return null;
    number = number * 64 + (h[at]! & 0x3f);
  }
  let blockSize: number;
  if (sizeCode === 1) blockSize = 192;
  else if (sizeCode <= 5) blockSize = 144 << sizeCode;
  else if (sizeCode === 6) blockSize = (h[at++] ?? 0) + 1;
  else if (sizeCode === 7) {
    blockSize = (((h[at] ?? 0) << 8) | (h[at + 1] ?? 0)) + 1;
    at += 2;
  } else blockSize = 1 << sizeCode;
  // The rate this frame plays at (0: STREAMINFO's); codes 12-14 carry it after the block size.
  let rate = FRAME_RATES[rateCode] ?? 0;
  if (rateCode === 12) rate = (h[at++] ?? 0) * 1000;
  else if (rateCode === 13 || rateCode === 14) {
    rate = (((h[at] ?? 0) << 8) | (h[at + 1] ?? 0)) * (rateCode === 14 ? 10 : 1);
    at += 2;
  }
  if (at >= available || crc8(h, at) !== h[at]) return null;
  return { variable, number, blockSize, rate };
}
