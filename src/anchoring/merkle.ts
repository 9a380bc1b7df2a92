/**
 * RFC 6962 / RFC 9162 Merkle tree hashing for the manifest transparency log, on WebCrypto SHA-256 only.
 *
 * - Leaf hash `SHA-256(0x00 || entry)`, interior node hash `SHA-256(0x01 || left || right)` (RFC 6962 §2.1); the
 *   root of the empty tree is `SHA-256("")`.
 * - A tree over n leaves splits at k, the largest power of two smaller than n; that is the same tree as building
 *   level by level, pairing nodes left to right and carrying an unpaired last node up unchanged. `MerkleTree`
 *   builds it that way (n - 1 node hashes, no recursion over the leaves) and answers proofs from the stored levels
 *   in O(log n) — build once per sealing, then issue every receipt of the batch from the same tree.
 * - Proofs: inclusion = RFC 6962 §2.1.1 PATH, consistency = §2.1.2 PROOF/SUBPROOF; both list hashes bottom-up,
 *   exactly the `inclusion_path` / `consistency_path` of RFC 9162 §2.1.3 / §2.1.4. Verification follows the
 *   RFC 9162 §2.1.3.2 / §2.1.4.2 algorithms and returns false (never throws) on any malformed input.
 *
 * Tree sizes and indices are JavaScript numbers, valid up to `Number.MAX_SAFE_INTEGER`; all index arithmetic is
 * done with `/ 2` and `% 2`, never with the 32-bit bitwise operators.
 *
 * A proof only binds a (size, root) pair that comes from the same signed checkpoint: verify the checkpoint's
 * signature first, then the proof against that checkpoint's size and root hash.
 */

/** Bytes in a SHA-256 hash, and so in every leaf hash, node hash, root hash and proof element. */
export const HASH_SIZE = 32;

/** Longest proof any tree of at most 2^53 leaves can have; longer arrays are rejected before hashing. */
const MAX_PROOF_LENGTH = 64;

/** How many digests are put in flight at once while building a level. */
const DIGEST_BATCH = 4096;

async function sha256(data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", data));
}

/** RFC 6962 leaf hash: SHA-256(0x00 || data). */
export function leafHash(data: Uint8Array): Promise<Uint8Array> {
  const input = new Uint8Array(1 + data.length);
  input[0] = 0x00;
  input.set(data, 1);
  return sha256(input);
}

/** RFC 6962 interior node hash: SHA-256(0x01 || left || right). */
export function nodeHash(left: Uint8Array, right: Uint8Array): Promise<Uint8Array> {
  const input = new Uint8Array(1 + left.length + right.length);
  input[0] = 0x01;
  input.set(left, 1);
  input.set(right, 1 + left.length);
  return sha256(input);
}

/** Root hash of the empty tree: SHA-256 of the empty string. */
export function emptyTreeHash(): Promise<Uint8Array> {
  return sha256(new Uint8Array(0));
}

/** MTH(D[n]) of RFC 6962 §2.1 over the raw entries (each entry is leaf-hashed first). */
export async function merkleTreeHash(entries: readonly Uint8Array[]): Promise<Uint8Array> {
  return (await MerkleTree.fromEntries(entries)).root();
}

/** PATH(index, D[n]) (RFC 6962 §2.1.1) for the tree over these leaf hashes. Throws RangeError unless 0 <= index < n. */
export async function inclusionProof(leafHashes: readonly Uint8Array[], index: number): Promise<Uint8Array[]> {
  return (await MerkleTree.fromLeafHashes(leafHashes)).inclusionProof(index);
}

/**
 * PROOF(oldSize, D[n]) (RFC 6962 §2.1.2) for the tree over these leaf hashes: proves the tree of the first
 * `oldSize` leaves is a prefix of it. Empty when oldSize is 0 or n. Throws RangeError unless 0 <= oldSize <= n.
 */
export async function consistencyProof(leafHashes: readonly Uint8Array[], oldSize: number): Promise<Uint8Array[]> {
  return (await MerkleTree.fromLeafHashes(leafHashes)).consistencyProof(oldSize);
}

/**
 * An RFC 6962 tree kept as its levels: level 0 holds the leaf hashes, level l + 1 the hashes of adjacent pairs of
 * level l (an unpaired last node is carried up as is). Node j of level l is MTH of leaves
 * [j * 2^l, min((j + 1) * 2^l, size)). Each level is one contiguous buffer of 32-byte hashes.
 *
 * Proofs can be asked for the full tree or for any earlier size (a sealed tree head that is a prefix of it).
 */
export class MerkleTree {
  private constructor(
    /** Number of leaves. */
    readonly size: number,
    private readonly levels: Uint8Array[],
    private readonly rootHash: Uint8Array,
  ) {}

  /** Builds the tree over leaf hashes (each 32 bytes, else TypeError). n - 1 node hashes. */
  static async fromLeafHashes(leafHashes: readonly Uint8Array[]): Promise<MerkleTree> {
    const n = leafHashes.length;
    const base = new Uint8Array(n * HASH_SIZE);
    leafHashes.forEach((hash, i) => {
      if (!isHash(hash)) throw new TypeError(`leaf hash ${i} is not ${HASH_SIZE} bytes`);
      base.set(hash, i * HASH_SIZE);
    });
    return MerkleTree.fromLevel0(n, base);
  }

  /** Builds the tree over raw entries, leaf-hashing each. */
  static async fromEntries(entries: readonly Uint8Array[]): Promise<MerkleTree> {
    const n = entries.length;
    const base = new Uint8Array(n * HASH_SIZE);
    for (let start = 0; start < n; start += DIGEST_BATCH) {
      const batch = entries.slice(start, start + DIGEST_BATCH);
      const hashes = await Promise.all(batch.map((entry) => leafHash(entry)));
      for (const [k, hash] of hashes.entries()) base.set(hash, (start + k) * HASH_SIZE);
    }
    return MerkleTree.fromLevel0(n, base);
  }

  private static async fromLevel0(n: number, base: Uint8Array): Promise<MerkleTree> {
    const levels = [base];
    let count = n;
    let level = base;
    while (count > 1) {
      level = await hashLevel(level, count);
      count = Math.ceil(count / 2);
      levels.push(level);
    }
    const root = n === 0 ? await emptyTreeHash() : level.slice(0, HASH_SIZE);
    return new MerkleTree(n, levels, root);
  }

  /** The root hash (MTH) of the whole tree. */
  root(): Uint8Array {
    return this.rootHash.slice();
  }

  /** The leaf hash at `index`. */
  leafHash(index: number): Uint8Array {
    this.checkIndex(index, this.size);
    return this.levels[0]!.slice(index * HASH_SIZE, (index + 1) * HASH_SIZE);
  }

  /** The root hash of the tree over the first `treeSize` leaves (0 <= treeSize <= size). */
  async rootAt(treeSize: number): Promise<Uint8Array> {
    this.checkSize(treeSize, this.size, "treeSize");
    if (treeSize === 0) return emptyTreeHash();
    return (await this.subtreeHash(0, treeSize, treeSize)).slice();
  }

  /** PATH(index, D[treeSize]), hashes bottom-up. Needs 0 <= index < treeSize <= size. */
  async inclusionProof(index: number, treeSize: number = this.size): Promise<Uint8Array[]> {
    this.checkSize(treeSize, this.size, "treeSize");
    this.checkIndex(index, treeSize);
    // Walk down from the root: at each split, the subtree not holding `index` is a proof element.
    const topDown: Array<Promise<Uint8Array>> = [];
    let lo = 0;
    let hi = treeSize;
    while (hi - lo > 1) {
      const k = largestPowerOfTwoBelow(hi - lo);
      if (index < lo + k) {
        topDown.push(this.subtreeHash(lo + k, hi, treeSize));
        hi = lo + k;
      } else {
        topDown.push(this.subtreeHash(lo, lo + k, treeSize));
        lo += k;
      }
    }
    return (await Promise.all(topDown)).reverse().map((hash) => hash.slice());
  }

  /**
   * PROOF(oldSize, D[newSize]), hashes bottom-up: proves the tree of `oldSize` leaves is a prefix of the tree of
   * `newSize` leaves. Empty when oldSize is 0 or equals newSize. Needs 0 <= oldSize <= newSize <= size.
   */
  async consistencyProof(oldSize: number, newSize: number = this.size): Promise<Uint8Array[]> {
    this.checkSize(newSize, this.size, "newSize");
    this.checkSize(oldSize, newSize, "oldSize");
    if (oldSize === 0 || oldSize === newSize) return [];
    // SUBPROOF(m, D[lo:hi], b) unrolled: each step appends one subtree hash after the deeper part of the proof.
    const topDown: Array<Promise<Uint8Array>> = [];
    let lo = 0;
    let hi = newSize;
    let wholeOldTree = true; // the b flag of RFC 6962: true while [lo, oldSize) is still the entire old tree
    while (oldSize !== hi) {
      const k = largestPowerOfTwoBelow(hi - lo);
      if (oldSize - lo <= k) {
        topDown.push(this.subtreeHash(lo + k, hi, newSize));
        hi = lo + k;
      } else {
        topDown.push(this.subtreeHash(lo, lo + k, newSize));
        lo += k;
        wholeOldTree = false;
      }
    }
    // Here [lo, hi) ends at oldSize and is a subtree of both trees; the verifier knows it only if it is the old root.
    if (!wholeOldTree) topDown.push(this.subtreeHash(lo, hi, newSize));
    return (await Promise.all(topDown)).reverse().map((hash) => hash.slice());
  }

  /**
   * MTH(D[lo:hi]) within the tree of `treeSize` leaves, for the ranges PATH and PROOF visit: lo is a multiple of
   * the smallest power of two >= hi - lo, and the range is either complete (hi - lo is that power) or ends at
   * treeSize. Complete ranges and ranges ending at `size` are stored nodes; a range ending at an earlier treeSize
   * is recomputed from its two halves (O(log n) hashes).
   */
  private async subtreeHash(lo: number, hi: number, treeSize: number): Promise<Uint8Array> {
    const width = hi - lo;
    let level = 0;
    while (2 ** level < width) level++;
    const span = 2 ** level;
    if (lo % span !== 0 || hi > treeSize) throw new Error(`not a subtree range: [${lo}, ${hi})`);
    if (width === span || hi === this.size) {
      const offset = (lo / span) * HASH_SIZE;
      return this.levels[level]!.subarray(offset, offset + HASH_SIZE);
    }
    const k = span / 2;
    const [left, right] = await Promise.all([this.subtreeHash(lo, lo + k, treeSize), this.subtreeHash(lo + k, hi, treeSize)]);
    return nodeHash(left, right);
  }

  private checkSize(value: number, max: number, name: string): void {
    if (!isCount(value) || value > max) throw new RangeError(`${name} ${value} is not an integer in [0, ${max}]`);
  }

  private checkIndex(index: number, treeSize: number): void {
    if (!isCount(index) || index >= treeSize) throw new RangeError(`index ${index} is not an integer in [0, ${treeSize})`);
  }
}

/** The next level up: hashes of adjacent pairs, plus the unpaired last node carried up unchanged. */
async function hashLevel(level: Uint8Array, count: number): Promise<Uint8Array> {
  const pairs = Math.floor(count / 2);
  const next = new Uint8Array(Math.ceil(count / 2) * HASH_SIZE);
  const stride = 1 + 2 * HASH_SIZE;
  const inputs = new Uint8Array(Math.min(pairs, DIGEST_BATCH) * stride);
  for (let start = 0; start < pairs; start += DIGEST_BATCH) {
    const end = Math.min(pairs, start + DIGEST_BATCH);
    const pending: Array<Promise<ArrayBuffer>> = [];
    for (let j = start; j < end; j++) {
      const at = (j - start) * stride;
      inputs[at] = 0x01;
      inputs.set(level.subarray(2 * j * HASH_SIZE, (2 * j + 2) * HASH_SIZE), at + 1);
      // WebCrypto copies its input when called, so the batch buffer can be reused for the next batch.
      pending.push(crypto.subtle.digest("SHA-256", inputs.subarray(at, at + stride)));
    }
    const digests = await Promise.all(pending);
    for (let k = 0; k < digests.length; k++) next.set(new Uint8Array(digests[k]!), (start + k) * HASH_SIZE);
  }
  if (count % 2 === 1) next.set(level.subarray((count - 1) * HASH_SIZE, count * HASH_SIZE), pairs * HASH_SIZE);
  return next;
}

/** Largest power of two strictly smaller than n (n >= 2). */
function largestPowerOfTwoBelow(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

function isPowerOfTwo(n: number): boolean {
  let k = 1;
  while (k < n) k *= 2;
  return k === n;
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function isHash(value: unknown): value is Uint8Array {
  return value instanceof Uint8Array && value.length === HASH_SIZE;
}

function isProof(value: unknown): value is Uint8Array[] {
  return Array.isArray(value) && value.length <= MAX_PROOF_LENGTH && value.every(isHash);
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

const isOdd = (n: number) => n % 2 === 1;
const half = (n: number) => Math.floor(n / 2);

export interface InclusionClaim {
  /** Leaf hash of the entry (SHA-256(0x00 || entry)). */
  leafHash: Uint8Array;
  /** 0-based position of the entry in the log. */
  index: number;
  /** Size of the tree the proof is against. */
  treeSize: number;
  /** Inclusion path, bottom-up. */
  proof: readonly Uint8Array[];
  /** Root hash of the tree of `treeSize` leaves (from a verified checkpoint). */
  rootHash: Uint8Array;
}

/** RFC 9162 §2.1.3.2: true iff `proof` shows the leaf at `index` is in the tree of `treeSize` with `rootHash`. */
export async function verifyInclusion(claim: InclusionClaim): Promise<boolean> {
  try {
    const { leafHash: leaf, index, treeSize, proof, rootHash } = claim;
    if (!isCount(index) || !isCount(treeSize) || index >= treeSize) return false;
    if (!isHash(leaf) || !isHash(rootHash) || !isProof(proof)) return false;
    let fn = index;
    let sn = treeSize - 1;
    let r: Uint8Array = leaf;
    for (const p of proof) {
      if (sn === 0) return false;
      if (isOdd(fn) || fn === sn) {
        r = await nodeHash(p, r);
        if (!isOdd(fn)) {
          while (!isOdd(fn) && fn !== 0) {
            fn = half(fn);
            sn = half(sn);
          }
        }
      } else {
        r = await nodeHash(r, p);
      }
      fn = half(fn);
      sn = half(sn);
    }
    return sn === 0 && bytesEqual(r, rootHash);
  } catch {
    return false;
  }
}

export interface ConsistencyClaim {
  oldSize: number;
  newSize: number;
  /** Root hash of the tree of `oldSize` leaves. */
  oldRoot: Uint8Array;
  /** Root hash of the tree of `newSize` leaves. */
  newRoot: Uint8Array;
  /** Consistency path, bottom-up. */
  proof: readonly Uint8Array[];
}

/**
 * RFC 9162 §2.1.4.2: true iff `proof` shows the tree (oldSize, oldRoot) is a prefix of the tree (newSize, newRoot).
 * Beyond the RFC's 0 < oldSize < newSize case: equal sizes need an empty proof and equal roots; oldSize 0 needs an
 * empty proof and oldRoot = SHA-256("") (the empty tree is a prefix of every tree); oldSize > newSize is false.
 */
export async function verifyConsistency(claim: ConsistencyClaim): Promise<boolean> {
  try {
    const { oldSize, newSize, oldRoot, newRoot, proof } = claim;
    if (!isCount(oldSize) || !isCount(newSize) || oldSize > newSize) return false;
    if (!isHash(oldRoot) || !isHash(newRoot) || !isProof(proof)) return false;
    if (oldSize === newSize) return proof.length === 0 && bytesEqual(oldRoot, newRoot);
    if (oldSize === 0) return proof.length === 0 && bytesEqual(oldRoot, await emptyTreeHash());
    if (proof.length === 0) return false;
    // The old root is not sent when the old tree is a complete subtree (oldSize a power of two): it is the seed.
    const path = isPowerOfTwo(oldSize) ? [oldRoot, ...proof] : [...proof];
    let fn = oldSize - 1;
    let sn = newSize - 1;
    while (isOdd(fn)) {
      fn = half(fn);
      sn = half(sn);
    }
    let fr: Uint8Array = path[0]!;
    let sr: Uint8Array = path[0]!;
    for (const c of path.slice(1)) {
      if (sn === 0) return false;
      if (isOdd(fn) || fn === sn) {
        fr = await nodeHash(c, fr);
        sr = await nodeHash(c, sr);
        if (!isOdd(fn)) {
          while (!isOdd(fn) && fn !== 0) {
            fn = half(fn);
            sn = half(sn);
          }
        }
      } else {
        sr = await nodeHash(sr, c);
      }
      fn = half(fn);
      sn = half(sn);
    }
    return sn === 0 && bytesEqual(fr, oldRoot) && bytesEqual(sr, newRoot);
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Log entries: what one leaf of the manifest log holds.

/** Current version of the manifest leaf encoding (first byte of every leaf). */
export const MANIFEST_LEAF_VERSION = 1;

/** A UTF-16 surrogate without its pair: such a string has no UTF-8 encoding. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Longest publication id, in UTF-8 bytes, a leaf can carry. */
const MAX_PUBLICATION_ID_BYTES = 1024;

export interface ManifestLeaf {
  /** SHA-256 of the published C2PA manifest store bytes. */
  manifestSha256: Uint8Array;
  /** Id of the publication that made the manifest public. */
  publicationId: string;
}

/**
 * Leaf entry, version 1 (integers big-endian):
 *
 *     0x01 || manifest_sha256 (32 bytes) || uint16 length || publication_id (UTF-8, 1..1024 bytes)
 *
 * Its Merkle leaf hash is `leafHash(encodeManifestLeaf(...))`. Throws TypeError on a hash that is not 32 bytes or
 * an empty / too long publication id.
 */
export function encodeManifestLeaf(leaf: ManifestLeaf): Uint8Array {
  if (!isHash(leaf.manifestSha256)) throw new TypeError(`manifestSha256 must be ${HASH_SIZE} bytes`);
  if (typeof leaf.publicationId !== "string" || LONE_SURROGATE.test(leaf.publicationId))
    throw new TypeError("publicationId must be a well-formed string");
  const id = new TextEncoder().encode(leaf.publicationId);
  if (id.length === 0 || id.length > MAX_PUBLICATION_ID_BYTES)
    throw new TypeError(`publicationId must be 1..${MAX_PUBLICATION_ID_BYTES} UTF-8 bytes`);
  const out = new Uint8Array(1 + HASH_SIZE + 2 + id.length);
  out[0] = MANIFEST_LEAF_VERSION;
  out.set(leaf.manifestSha256, 1);
  out[1 + HASH_SIZE] = id.length >> 8;
  out[2 + HASH_SIZE] = id.length & 0xff;
  out.set(id, 3 + HASH_SIZE);
  return out;
}

/** Inverse of `encodeManifestLeaf`; null for anything that is not exactly a version 1 leaf. Never throws. */
export function decodeManifestLeaf(bytes: Uint8Array): (ManifestLeaf & { version: 1 }) | null {
  try {
    if (!(bytes instanceof Uint8Array) || bytes.length < 3 + HASH_SIZE + 1 || bytes[0] !== MANIFEST_LEAF_VERSION) return null;
    const length = (bytes[1 + HASH_SIZE]! << 8) | bytes[2 + HASH_SIZE]!;
    if (length === 0 || length > MAX_PUBLICATION_ID_BYTES || bytes.length !== 3 + HASH_SIZE + length) return null;
    const publicationId = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes.subarray(3 + HASH_SIZE));
    return { version: 1, manifestSha256: bytes.slice(1, 1 + HASH_SIZE), publicationId };
  } catch {
    return null;
  }
}
