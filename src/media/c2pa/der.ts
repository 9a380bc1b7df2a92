/**
 * A minimal strict DER reader and writer for the few fixed structures on the signing path (RFC 3161 requests,
 * responses and tokens). asn1js/pkijs schema matching cost about 20 ms of CPU per timestamp (#19); these
 * structures are small and fixed, so they are walked and written by hand. Anything the strict reader refuses is
 * left to the callers' asn1js paths, which keep their old behaviour for unusual encodings.
 */

/** One DER element: its tag byte, where its header starts, where its value starts and ends. */
export interface Tlv {
  tag: number;
  at: number;
  start: number;
  end: number;
}

/**
 * The element at `at` (ending at or before `limit`), or null unless it is strict DER: a low tag number, a definite
 * length in minimal form.
 */
export function readTlv(b: Uint8Array, at: number, limit = b.length): Tlv | null {
  if (at + 2 > limit) return null;
  const tag = b[at]!;
  if ((tag & 0x1f) === 0x1f) return null; // high tag numbers: none in these structures
  let len = b[at + 1]!;
  let start = at + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4 || start + n > limit) return null; // 0: indefinite (BER only)
    if (b[start] === 0) return null; // not minimal
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + b[start + i]!;
    if (len < 0x80) return null; // not minimal
    start += n;
  }
  return start + len > limit ? null : { tag, at, start, end: start + len };
}

/** The elements inside `parent`, which must fill it exactly; null otherwise. */
export function childrenOf(b: Uint8Array, parent: Tlv): Tlv[] | null {
  const out: Tlv[] = [];
  for (let at = parent.start; at < parent.end; ) {
    const child = readTlv(b, at, parent.end);
    if (!child) return null;
    out.push(child);
    at = child.end;
  }
  return out;
}

/** The whole encoding (header and value) of an element. */
export const encodingOf = (b: Uint8Array, t: Tlv): Uint8Array => b.subarray(t.at, t.end);
/** The value bytes of an element. */
export const contentOf = (b: Uint8Array, t: Tlv): Uint8Array => b.subarray(t.start, t.end);

/** Dotted text of an OBJECT IDENTIFIER value; null when malformed. Arcs may exceed 2^53 (UUID OIDs, 2.25.…). */
export function oidText(value: Uint8Array): string | null {
  if (value.length === 0 || value[value.length - 1]! & 0x80) return null;
  const arcs: bigint[] = [];
  let n = 0n;
  let fresh = true;
  for (let i = 0; i < value.length; i++) {
    const byte = value[i]!;
    if (fresh && byte === 0x80) return null; // not minimal
    n = (n << 7n) | BigInt(byte & 0x7f);
    fresh = !(byte & 0x80);
    if (fresh) {
      arcs.push(n);
      n = 0n;
    }
  }
  const first = arcs[0]!;
  const head = first < 40n ? [0n, first] : first < 80n ? [1n, first - 40n] : [2n, first - 80n];
  return [...head, ...arcs.slice(1)].join(".");
}

/** An element with `tag` around the concatenated `parts`. */
export function tlv(tag: number, ...parts: Uint8Array[]): Uint8Array {
  const len = parts.reduce((n, p) => n + p.length, 0);
  const head =
    len < 0x80
      ? [tag, len]
      : len < 0x100
        ? [tag, 0x81, len]
        : len < 0x10000
          ? [tag, 0x82, len >> 8, len & 0xff]
          : len < 0x1000000
            ? [tag, 0x83, len >> 16, (len >> 8) & 0xff, len & 0xff]
            : [tag, 0x84, len >>> 24, (len >> 16) & 0xff, (len >> 8) & 0xff, len & 0xff]; // ≥ 16 MiB (#19 review)
  const out = new Uint8Array(head.length + len);
  out.set(head);
  let o = head.length;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

export const sequence = (...parts: Uint8Array[]) => tlv(0x30, ...parts);
export const setOf = (...parts: Uint8Array[]) => tlv(0x31, ...parts);
export const octetString = (bytes: Uint8Array) => tlv(0x04, bytes);
export const NULL = new Uint8Array([0x05, 0x00]);
export const TRUE = new Uint8Array([0x01, 0x01, 0xff]);

/** An OBJECT IDENTIFIER element from its dotted text. */
export function oid(text: string): Uint8Array {
  const arcs = text.split(".").map(BigInt);
  const body: number[] = [];
  for (const arc of [arcs[0]! * 40n + arcs[1]!, ...arcs.slice(2)]) {
    const groups = [Number(arc & 0x7fn)];
    for (let v = arc >> 7n; v > 0n; v >>= 7n) groups.unshift(Number(v & 0x7fn) | 0x80);
    body.push(...groups);
  }
  return tlv(0x06, new Uint8Array(body));
}

/** An INTEGER element from big-endian unsigned bytes (minimal, positive). */
export function unsignedInteger(bytes: Uint8Array): Uint8Array {
  let s = 0;
  while (s < bytes.length - 1 && bytes[s] === 0) s++;
  const trimmed = bytes.subarray(s);
  return trimmed[0]! & 0x80 ? tlv(0x02, new Uint8Array([0]), trimmed) : tlv(0x02, trimmed);
}

export const smallInteger = (n: number) => unsignedInteger(new Uint8Array([n]));

/** DER bytes in the order of a DER SET OF (X.690 §11.6: ascending encodings). */
export function derSetOrder(items: Uint8Array[]): Uint8Array[] {
  return [...items].sort(compareEncodings);
}

/** The order of a DER SET OF: encodings compared as octet strings, the shorter one padded with zeros. */
export function compareEncodings(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** A WebCrypto ECDSA signature (r || s) as the DER Ecdsa-Sig-Value CMS carries. */
export function ecdsaSignatureDer(raw: Uint8Array): Uint8Array {
  const half = raw.length / 2;
  return sequence(unsignedInteger(raw.subarray(0, half)), unsignedInteger(raw.subarray(half)));
}

/** Time as DER GeneralizedTime (whole seconds, UTC). */
export function generalizedTime(date: Date): Uint8Array {
  return tlv(
    0x18,
    ascii(
      date
        .toISOString()
        .replace(/[-:T]/g, "")
        .replace(/\.\d+Z$/, "Z"),
    ),
  );
}

/** Time as DER UTCTime (years 1950–2049, whole seconds). */
export function utcTime(date: Date): Uint8Array {
  return tlv(
    0x17,
    ascii(
      date
        .toISOString()
        .slice(2)
        .replace(/[-:T]/g, "")
        .replace(/\.\d+Z$/, "Z"),
    ),
  );
}

function ascii(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}
