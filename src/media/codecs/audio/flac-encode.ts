/**
 * Our FLAC encoder (the format's public specification, RFC 9639; no code taken from any implementation): interleaved
 * integer samples to a FLAC stream, losslessly. Fixed block size (4096 samples); per frame, the channel decorrelation
 * (stereo: left/side, right/side, mid/side or independent) and per subframe the fixed predictor (orders 0–4) with the
 * smallest residual are chosen, the residual Rice-coded over the partition order (0–8) that costs fewest bits;
 * a constant block is a CONSTANT subframe, and one the predictor cannot shrink is VERBATIM. Every frame carries its
 * CRC-8 and CRC-16, STREAMINFO the MD5 of the samples. Invariant: a conforming decoder (libFLAC, FFmpeg, ours) decodes
 * the output to exactly the samples given; input it cannot encode so is `failed`, never a stream that decodes to
 * other samples. Never throws.
 */
import { CRC8, CRC16 } from "./flac";
import { Md5 } from "./md5";

export const FLAC_BLOCK_SIZE = 4096;
/** Bit depths we encode: 4 to 24 (a 24-bit side channel needs 25 bits, still in 32-bit arithmetic). */
export const FLAC_MIN_BITS = 4;
export const FLAC_MAX_BITS = 24;

/** A metadata block to write after STREAMINFO: its type (1–126, not 0 = STREAMINFO) and body. */
export interface FlacMetadataBlock {
  type: number;
  body: Uint8Array;
}

export interface FlacEncodeInput {
  /** Interleaved samples, each within the signed range of `bitsPerSample`. */
  samples: Int32Array | Int16Array;
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** Written in order after STREAMINFO (VORBIS_COMMENT, PICTURE, APPLICATION, …). */
  metadata?: FlacMetadataBlock[];
  /** Bytes written before "fLaC" (an ID3v2 tag some taggers put there), kept as they were. */
  prefix?: Uint8Array;
}

export type FlacEncodeResult = { status: "encoded"; bytes: Uint8Array } | { status: "failed"; message: string };

/** Appends bits most significant first. */
class BitWriter {
  bytes: Uint8Array;
  length = 0;
  #acc = 0;
  #bits = 0;

  constructor(capacity: number) {
    this.bytes = new Uint8Array(Math.max(64, capacity));
  }

  #ensure(extra: number): void {
    if (this.length + extra <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + extra));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  /** The low `n` bits of `value` (n ≤ 24; a negative value is written in two's complement). */
  write(value: number, n: number): void {
    if (n === 0) return;
    this.#acc = (this.#acc << n) | (value & ((1 << n) - 1));
    this.#bits += n;
    if (this.#bits >= 8) {
      this.#ensure(4);
      while (this.#bits >= 8) {
        this.#bits -= 8;
        this.bytes[this.length++] = (this.#acc >>> this.#bits) & 0xff;
      }
      this.#acc &= (1 << this.#bits) - 1;
    }
  }

  /** Up to 32 bits. */
  writeWide(value: number, n: number): void {
    if (n > 24) {
      this.write(Math.floor(value / 2 ** 16), n - 16);
      this.write(value & 0xffff, 16);
    } else this.write(value, n);
  }

  /** `q` zero bits then a one (a Rice quotient). */
  unary(q: number): void {
    while (q >= 24) {
      this.write(0, 24);
      q -= 24;
    }
    this.write(1, q + 1);
  }

  /** Whole bytes (the writer must be at a byte boundary). */
  raw(bytes: Uint8Array): void {
    if (this.#bits !== 0) throw new Error("raw bytes off a byte boundary");
    this.#ensure(bytes.length);
    this.bytes.set(bytes, this.length);
    this.length += bytes.length;
  }

  /** Pads with zero bits to a byte boundary. */
  align(): void {
    if (this.#bits > 0) this.write(0, 8 - this.#bits);
  }

  bytesBetween(from: number, to: number): Uint8Array {
    return this.bytes.subarray(from, to);
  }
}

const RATE_CODES: Record<number, number> = {
  88200: 1,
  176400: 2,
  192000: 3,
  8000: 4,
  16000: 5,
  22050: 6,
  24000: 7,
  32000: 8,
  44100: 9,
  48000: 10,
  96000: 11,
};
const DEPTH_CODES: Record<number, number> = { 8: 1, 12: 2, 16: 4, 20: 5, 24: 6 };
const MAX_PARTITION_ORDER = 8;

/** Scratch buffers of one encode (one block's worth). */
class Scratch {
  readonly residual: Int32Array;
  readonly zigzag: Uint32Array;
  readonly sums: Float64Array;
  constructor(block: number) {
    this.residual = new Int32Array(block);
    this.zigzag = new Uint32Array(block);
    this.sums = new Float64Array(1 << MAX_PARTITION_ORDER);
  }
}

/** Residual of the fixed predictor of `order` over `x[0..n)` into `out[order..n)`; returns Σ|residual|. */
function fixedResidual(x: Int32Array, n: number, order: number, out: Int32Array): number {
  let sum = 0;
  for (let i = order; i < n; i++) {
    let r: number;
    switch (order) {
      case 0:
        r = x[i]!;
        break;
      case 1:
        r = x[i]! - x[i - 1]!;
        break;
      case 2:
        r = x[i]! - 2 * x[i - 1]! + x[i - 2]!;
        break;
      case 3:
        r = x[i]! - 3 * x[i - 1]! + 3 * x[i - 2]! - x[i - 3]!;
        break;
      default:
        r = x[i]! - 4 * x[i - 1]! + 6 * x[i - 2]! - 4 * x[i - 3]! + x[i - 4]!;
    }
    out[i] = r;
    sum += r < 0 ? -r : r;
  }
  return sum;
}

/** Σ|residual| of the fixed predictor of `order`, without storing it (for choosing). */
function fixedCost(x: Int32Array, n: number, order: number): number {
  let sum = 0;
  for (let i = order; i < n; i++) {
    let r: number;
    if (order === 0) r = x[i]!;
    else if (order === 1) r = x[i]! - x[i - 1]!;
    else if (order === 2) r = x[i]! - 2 * x[i - 1]! + x[i - 2]!;
    else if (order === 3) r = x[i]! - 3 * x[i - 1]! + 3 * x[i - 2]! - x[i - 3]!;
    else r = x[i]! - 4 * x[i - 1]! + 6 * x[i - 2]! - 4 * x[i - 3]! + x[i - 4]!;
    sum += r < 0 ? -r : r;
  }
  return sum;
}

/** The Rice parameter for `count` values summing (zigzagged) to `sum`, and its estimated bits. */
function riceFor(sum: number, count: number): { k: number; bits: number } {
  if (count === 0) return { k: 0, bits: 0 };
  let best = { k: 0, bits: Number.POSITIVE_INFINITY };
  const mean = sum / count;
  const guess = mean < 1 ? 0 : Math.min(30, Math.floor(Math.log2(mean)));
  for (let k = Math.max(0, guess - 1); k <= Math.min(30, guess + 1); k++) {
    const bits = count * (k + 1) + Math.floor(sum / 2 ** k);
    if (bits < best.bits) best = { k, bits };
  }
  return best;
}

interface Plan {
  order: number;
  partitionOrder: number;
  params: number[];
  bits: number;
}

/** The cheapest partition order (and its Rice parameters) for the residual `zigzag[order..n)`. */
function partitionPlan(z: Uint32Array, n: number, order: number, sums: Float64Array): Plan {
  let maxOrder = 0;
  while (maxOrder < MAX_PARTITION_ORDER && n % (2 << maxOrder) === 0 && n >> (maxOrder + 1) > order) maxOrder++;
  // Sums at the finest partitioning, merged pairwise for each coarser one.
  const parts = 1 << maxOrder;
  const size = n >> maxOrder;
  for (let p = 0; p < parts; p++) {
    let s = 0;
    for (let i = p === 0 ? order : p * size, end = (p + 1) * size; i < end; i++) s += z[i]!;
    sums[p] = s;
  }
  let best: Plan | null = null;
  for (let po = maxOrder; po >= 0; po--) {
    const count = 1 << po;
    if (po < maxOrder) for (let p = 0; p < count; p++) sums[p] = sums[2 * p]! + sums[2 * p + 1]!;
    const psize = n >> po;
    const params: number[] = [];
    let bits = 0;
    for (let p = 0; p < count; p++) {
      const r = riceFor(sums[p]!, p === 0 ? psize - order : psize);
      params.push(r.k);
      bits += r.bits;
    }
    const paramBits = params.some((k) => k > 14) ? 5 : 4;
    bits += count * paramBits + 6;
    if (!best || bits < best.bits) best = { order, partitionOrder: po, params, bits };
  }
  return best!;
}

/** Writes one subframe of `x[0..n)` at `bits` bits per sample. */
function writeSubframe(w: BitWriter, x: Int32Array, n: number, bits: number, scratch: Scratch): void {
  let constant = true;
  for (let i = 1; i < n && constant; i++) constant = x[i] === x[0];
  if (constant) {
    w.write(0, 8); // padding bit, type 000000, no wasted bits
    w.writeWide(x[0]!, bits);
    return;
  }
  let order = 0;
  let cost = Number.POSITIVE_INFINITY;
  for (let o = 0; o <= Math.min(4, n - 1); o++) {
    const c = fixedCost(x, n, o);
    if (c < cost) {
      cost = c;
      order = o;
    }
  }
  const { residual, zigzag } = scratch;
  fixedResidual(x, n, order, residual);
  let overflow = false;
  for (let i = order; i < n; i++) {
    const r = residual[i]!;
    // The format's residual is a signed 32-bit value; ours stays far below (25-bit input, order ≤ 4).
    if (r > 0x3fffffff || r < -0x40000000) overflow = true;
    zigzag[i] = r >= 0 ? 2 * r : -2 * r - 1;
  }
  const plan = overflow ? null : partitionPlan(zigzag, n, order, scratch.sums);
  if (!plan || plan.bits + order * bits >= n * bits) {
    w.write(0b00000010, 8); // VERBATIM
    for (let i = 0; i < n; i++) w.writeWide(x[i]!, bits);
    return;
  }
  w.write(0b00010000 | (order << 1), 8); // FIXED, order
  for (let i = 0; i < order; i++) w.writeWide(x[i]!, bits);
  const rice2 = plan.params.some((k) => k > 14);
  w.write(rice2 ? 1 : 0, 2);
  w.write(plan.partitionOrder, 4);
  const psize = n >> plan.partitionOrder;
  for (let p = 0; p < plan.params.length; p++) {
    const k = plan.params[p]!;
    w.write(k, rice2 ? 5 : 4);
    const end = (p + 1) * psize;
    const low = 2 ** k;
    for (let i = p === 0 ? order : p * psize; i < end; i++) {
      const u = zigzag[i]!;
      const q = Math.floor(u / low);
      w.unary(q);
      if (k > 0) w.writeWide(u - q * low, k);
    }
  }
}

/** The FLAC header's coded number (UTF-8-like, up to 36 bits). */
function writeCodedNumber(w: BitWriter, value: number): void {
  if (value < 0x80) {
    w.write(value, 8);
    return;
  }
  let continuation = 1;
  while (continuation < 6 && value >= 2 ** (6 * continuation + (6 - continuation))) continuation++;
  const lead = (0xff << (7 - continuation)) & 0xff;
  w.write(lead | Math.floor(value / 2 ** (6 * continuation)), 8);
  for (let c = continuation - 1; c >= 0; c--) w.write(0x80 | (Math.floor(value / 2 ** (6 * c)) & 0x3f), 8);
}

/** Checks the input; the reason it cannot be encoded, or null. */
function refusal(input: FlacEncodeInput): string | null {
  const { samples, sampleRate, channels, bitsPerSample } = input;
  if (!Number.isInteger(channels) || channels < 1 || channels > 8) return `FLAC takes 1 to 8 channels, not ${channels}`;
  if (!Number.isInteger(bitsPerSample) || bitsPerSample < FLAC_MIN_BITS || bitsPerSample > FLAC_MAX_BITS)
    return `we encode ${FLAC_MIN_BITS}- to ${FLAC_MAX_BITS}-bit samples, not ${bitsPerSample}-bit`;
  if (!Number.isInteger(sampleRate) || sampleRate < 1 || sampleRate > 655_350) return `FLAC sample rate out of range: ${sampleRate}`;
  if (samples.length % channels !== 0) return "the samples are not a whole number of frames";
  if (samples.length / channels >= 2 ** 36) return "too many samples for STREAMINFO";
  const max = 2 ** (bitsPerSample - 1) - 1;
  const min = -(2 ** (bitsPerSample - 1));
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i]!;
    if (s > max || s < min) return `sample ${i} (${s}) is outside the ${bitsPerSample}-bit range`;
  }
  for (const block of input.metadata ?? []) {
    if (!Number.isInteger(block.type) || block.type < 1 || block.type > 126) return `metadata block type ${block.type} cannot be written`;
    if (block.body.length >= 1 << 24) return "a metadata block of 16 MiB or more cannot be written";
  }
  return null;
}

/** The samples, little-endian, ⌈bits/8⌉ bytes each, as FLAC's MD5 signature reads them. */
function md5OfSamples(samples: Int32Array | Int16Array, bits: number): Uint8Array {
  const md5 = new Md5();
  const width = Math.ceil(bits / 8);
  const chunk = new Uint8Array(4096 * width);
  for (let at = 0; at < samples.length; at += 4096) {
    const n = Math.min(4096, samples.length - at);
    for (let i = 0, o = 0; i < n; i++) {
      const s = samples[at + i]!;
      for (let b = 0; b < width; b++) chunk[o++] = (s >> (8 * b)) & 0xff;
    }
    md5.update(chunk.subarray(0, n * width));
  }
  return md5.digest();
}

/** Encodes the samples as a FLAC stream; see the file's comment. */
export function encodeFlac(input: FlacEncodeInput): FlacEncodeResult {
  try {
    const why = refusal(input);
    if (why) return { status: "failed", message: why };
    return { status: "encoded", bytes: encode(input) };
  } catch (error) {
    return { status: "failed", message: `FLAC encoder error: ${error instanceof Error ? error.message : String(error)}` };
  }
}

function encode(input: FlacEncodeInput): Uint8Array {
  const { samples, sampleRate, channels, bitsPerSample: bits } = input;
  const frames = samples.length / channels;
  const metadata = input.metadata ?? [];
  const prefix = input.prefix ?? new Uint8Array(0);
  // Roughly the PCM's size: the buffer grows if a stream does not compress.
  const w = new BitWriter(
    prefix.length + 42 + metadata.reduce((a, m) => a + 4 + m.body.length, 0) + Math.ceil((samples.length * bits) / 8 / 2),
  );
  w.raw(prefix);
  w.raw(new Uint8Array([0x66, 0x4c, 0x61, 0x43]));
  const streamInfoAt = w.length;
  // STREAMINFO, its frame sizes and MD5 filled in at the end.
  w.write(metadata.length === 0 ? 0x80 : 0, 8);
  w.write(34, 24);
  for (let i = 0; i < 34; i++) w.write(0, 8);
  metadata.forEach((block, i) => {
    w.write((i === metadata.length - 1 ? 0x80 : 0) | block.type, 8);
    w.write(block.body.length, 24);
    w.raw(block.body);
  });

  const blockSize = FLAC_BLOCK_SIZE;
  const scratch = new Scratch(blockSize);
  const chans = Array.from({ length: channels }, () => new Int32Array(blockSize));
  const mid = new Int32Array(blockSize);
  const side = new Int32Array(blockSize);
  let minFrame = Number.POSITIVE_INFINITY;
  let maxFrame = 0;
  const rateCode = RATE_CODES[sampleRate] ?? 0;
  const depthCode = DEPTH_CODES[bits] ?? 0;
  for (let first = 0, number = 0; first < frames; first += blockSize, number++) {
    const n = Math.min(blockSize, frames - first);
    for (let c = 0; c < channels; c++) {
      const x = chans[c]!;
      for (let i = 0, k = first * channels + c; i < n; i++, k += channels) x[i] = samples[k]!;
    }
    // Stereo decorrelation: the assignment whose two subframes' residuals are smallest.
    let assignment = channels - 1;
    if (channels === 2) {
      const l = chans[0]!;
      const r = chans[1]!;
      for (let i = 0; i < n; i++) {
        side[i] = l[i]! - r[i]!;
        mid[i] = (l[i]! + r[i]!) >> 1;
      }
      const best = (x: Int32Array) => Math.min(...[0, 1, 2, 3, 4].filter((o) => o < n).map((o) => fixedCost(x, n, o)));
      const [cl, cr, cm, cs] = [best(l), best(r), best(mid), best(side)];
      const options = [
        { a: 1, cost: cl + cr },
        { a: 8, cost: cl + cs },
        { a: 9, cost: cr + cs },
        { a: 10, cost: cm + cs },
      ];
      assignment = options.reduce((x, y) => (y.cost < x.cost ? y : x)).a;
    }
    const start = w.length;
    w.write(0xfff8, 16); // sync, reserved, fixed block size
    const sizeCode = n === blockSize ? 12 : 7;
    w.write(sizeCode, 4);
    w.write(rateCode, 4);
    w.write(assignment, 4);
    w.write(depthCode, 3);
    w.write(0, 1);
    writeCodedNumber(w, number);
    if (sizeCode === 7) w.write(n - 1, 16);
    let crc8 = 0;
    for (const byte of w.bytesBetween(start, w.length)) crc8 = CRC8[crc8 ^ byte]!;
    w.write(crc8, 8);
    if (assignment < 8) {
      for (let c = 0; c < channels; c++) writeSubframe(w, chans[c]!, n, bits, scratch);
    } else if (assignment === 8) {
      writeSubframe(w, chans[0]!, n, bits, scratch);
      writeSubframe(w, side, n, bits + 1, scratch);
    } else if (assignment === 9) {
      writeSubframe(w, side, n, bits + 1, scratch);
      writeSubframe(w, chans[1]!, n, bits, scratch);
    } else {
      writeSubframe(w, mid, n, bits, scratch);
      writeSubframe(w, side, n, bits + 1, scratch);
    }
    w.align();
    let crc16 = 0;
    for (const byte of w.bytesBetween(start, w.length)) crc16 = ((crc16 << 8) & 0xffff) ^ CRC16[(crc16 >> 8) ^ byte]!;
    w.write(crc16, 16);
    const size = w.length - start;
    minFrame = Math.min(minFrame, size);
    maxFrame = Math.max(maxFrame, size);
  }

  const out = w.bytes.slice(0, w.length);
  const info = new DataView(out.buffer, streamInfoAt + 4, 34);
  info.setUint16(0, Math.min(blockSize, Math.max(16, frames)));
  info.setUint16(2, blockSize);
  const frameSizes = frames === 0 ? [0, 0] : [minFrame, maxFrame];
  frameSizes.forEach((v, i) => {
    info.setUint8(4 + 3 * i, (v >> 16) & 0xff);
    info.setUint16(5 + 3 * i, v & 0xffff);
  });
  // rate (20) | channels-1 (3) | bits-1 (5) | total samples (36)
  info.setUint8(10, (sampleRate >> 12) & 0xff);
  info.setUint8(11, (sampleRate >> 4) & 0xff);
  info.setUint8(12, ((sampleRate & 0xf) << 4) | ((channels - 1) << 1) | ((bits - 1) >> 4));
  info.setUint8(13, (((bits - 1) & 0xf) << 4) | Math.floor(frames / 2 ** 32));
  info.setUint32(14, frames >>> 0);
  out.set(md5OfSamples(samples, bits), streamInfoAt + 4 + 18);
  return out;
}

/** Metadata block types a re-encode does not copy: STREAMINFO (written anew) and SEEKTABLE (its offsets are the old frames'). */
const REWRITTEN_BLOCKS = new Set([0, 3]);

/** The most metadata blocks a FLAC to be marked may have (real files have a handful). */
export const FLAC_MAX_METADATA_BLOCKS = 1024;
const FLAC_PADDING = 1;

/**
 * What a re-encode of the FLAC stream `b` keeps: the bytes before "fLaC" (an ID3v2 tag) and every metadata block but
 * STREAMINFO, SEEKTABLE and PADDING, in order (VORBIS_COMMENT, PICTURE, CUESHEET, APPLICATION, …); or why the
 * metadata cannot be read (also more than FLAC_MAX_METADATA_BLOCKS blocks).
 */
export function flacKeptMetadata(b: Uint8Array): { prefix: Uint8Array; blocks: FlacMetadataBlock[] } | { error: string } {
  let at = 0;
  while (at + 10 <= b.length && b[at] === 0x49 && b[at + 1] === 0x44 && b[at + 2] === 0x33) {
    const size = ((b[at + 6]! & 0x7f) << 21) | ((b[at + 7]! & 0x7f) << 14) | ((b[at + 8]! & 0x7f) << 7) | (b[at + 9]! & 0x7f);
    at += 10 + size + (b[at + 5]! & 0x10 ? 10 : 0);
  }
  if (at + 4 > b.length || b[at] !== 0x66 || b[at + 1] !== 0x4c || b[at + 2] !== 0x61 || b[at + 3] !== 0x43)
    return { error: "not a FLAC stream (no fLaC marker)" };
  const prefix = b.subarray(0, at);
  at += 4;
  const blocks: FlacMetadataBlock[] = [];
  for (let last = false, count = 0; !last; count++) {
    // A bound on the walk: millions of tiny blocks (14 MiB of 4-byte ones) would otherwise cost a view object each.
    if (count === FLAC_MAX_METADATA_BLOCKS) return { error: `FLAC metadata of more than ${FLAC_MAX_METADATA_BLOCKS} blocks` };
    if (at + 4 > b.length) return { error: "FLAC metadata cut short" };
    last = (b[at]! & 0x80) !== 0;
    const type = b[at]! & 0x7f;
    const size = (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!;
    if (at + 4 + size > b.length) return { error: `FLAC metadata block of ${size} bytes runs past the end of the file` };
    if (type === 127) return { error: "FLAC metadata block of the invalid type 127" };
    // PADDING is room for a tag editor, not content: the re-encoded file needs none.
    if (!REWRITTEN_BLOCKS.has(type) && type !== FLAC_PADDING) blocks.push({ type, body: b.subarray(at + 4, at + 4 + size) });
    at += 4 + size;
  }
  return { prefix, blocks };
}
