import { describe, expect, it } from "vitest";
import {
  CHECKPOINT_FORMAT,
  type CheckpointBody,
  checkpointKeyId,
  checkpointVerifierKey,
  formatCheckpointBody,
  parseCheckpointBody,
  signCheckpoint,
  signNote,
  verifyCheckpoint,
  verifyNote,
} from "../../../src/anchoring/checkpoint";
import {
  consistencyProof,
  decodeManifestLeaf,
  emptyTreeHash,
  encodeManifestLeaf,
  inclusionProof,
  leafHash,
  MerkleTree,
  merkleTreeHash,
  nodeHash,
  verifyConsistency,
  verifyInclusion,
} from "../../../src/anchoring/merkle";
import { prng } from "../../support/prng";

// ---------------------------------------------------------------------------------------------------------------
// Helpers

const fromHex = (text: string) => Uint8Array.from(text.match(/../g) ?? [], (byte) => parseInt(byte, 16));
const toHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const fromB64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const hexes = (proof: Uint8Array[]) => proof.map(toHex);

function flipBit(bytes: Uint8Array, bit: number): Uint8Array {
  const out = bytes.slice();
  out[Math.floor(bit / 8) % out.length]! ^= 1 << (bit % 8);
  return out;
}

/** Integer and byte draws from the shared PRNG, so a failing fuzz case can be replayed from its seed. */
function draws(seed: number) {
  const next = prng(seed);
  const int = (n: number) => Math.floor(next() * n);
  const bytes = (n: number) => Uint8Array.from({ length: n }, () => int(256));
  return { next, int, bytes };
}

/** Entry i of the synthetic test logs. */
const entry = (i: number) => new TextEncoder().encode(`entry-${i}`);

// RFC 6962 §2.1 test data as used by the Certificate Transparency test suites (Go / C++ CT, transparency-dev/merkle).
const CT_LEAVES = ["", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f"].map(fromHex);
const CT_LEAF_HASHES = [
  "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
  "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
  "0298d122906dcfc10892cb53a73992fc5b9f493ea4c9badb27b791b4127a7fe7",
  "07506a85fd9dd2f120eb694f86011e5bb4662e5c415a62917033d4a9624487e7",
  "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
  "4271a26be0d8a84f0bd54c8c302e7cb3a3b5d1fa6780a40bcce2873477dab658",
  "b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f",
  "46f6ffadd3d06a09ff3c5860d2755c8b9819db7df44251788c7d8e3180de8eb1",
];
/** Roots of the trees over the first n CT_LEAVES, n = 0..8. */
const CT_ROOTS = [
  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
  "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
  "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
  "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
  "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
  "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
  "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
  "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
];
/** Known inclusion proofs over CT_LEAVES: [index (0-based), tree size, path]. */
const CT_INCLUSION: Array<[number, number, string[]]> = [
  [
    0,
    8,
    [
      "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
    ],
  ],
  [
    5,
    8,
    [
      "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
      "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
      "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    ],
  ],
  [2, 3, ["fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"]],
  [
    1,
    5,
    [
      "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
    ],
  ],
  [0, 1, []],
];
/** Known consistency proofs over CT_LEAVES: [old size, new size, path]. */
const CT_CONSISTENCY: Array<[number, number, string[]]> = [
  [1, 1, []],
  [
    1,
    8,
    [
      "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
    ],
  ],
  [
    6,
    8,
    [
      "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
      "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
      "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    ],
  ],
  [
    2,
    5,
    [
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
    ],
  ],
  [
    6,
    7,
    [
      "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
      "b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f",
      "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    ],
  ],
];

/**
 * Straight transcription of the recursive RFC 6962 definitions (MTH, PATH, PROOF/SUBPROOF), memoized, as an
 * independent reference for the level-by-level implementation.
 */
class ReferenceTree {
  private memo = new Map<string, Promise<Uint8Array>>();
  constructor(private readonly leaves: Uint8Array[]) {}

  mth(lo: number, hi: number): Promise<Uint8Array> {
    const key = `${lo}:${hi}`;
    let hash = this.memo.get(key);
    if (!hash) {
      const n = hi - lo;
      if (n === 0) hash = emptyTreeHash();
      else if (n === 1) hash = Promise.resolve(this.leaves[lo]!);
      else {
        const k = split(n);
        hash = Promise.all([this.mth(lo, lo + k), this.mth(lo + k, hi)]).then(([l, r]) => nodeHash(l, r));
      }
      this.memo.set(key, hash);
    }
    return hash;
  }

  async path(m: number, lo: number, hi: number): Promise<Uint8Array[]> {
    const n = hi - lo;
    if (n === 1) return [];
    const k = split(n);
    return m < k
      ? [...(await this.path(m, lo, lo + k)), await this.mth(lo + k, hi)]
      : [...(await this.path(m - k, lo + k, hi)), await this.mth(lo, lo + k)];
  }

  async subproof(m: number, lo: number, hi: number, b: boolean): Promise<Uint8Array[]> {
    const n = hi - lo;
    if (m === n) return b ? [] : [await this.mth(lo, hi)];
    const k = split(n);
    return m <= k
      ? [...(await this.subproof(m, lo, lo + k, b)), await this.mth(lo + k, hi)]
      : [...(await this.subproof(m - k, lo + k, hi, false)), await this.mth(lo, lo + k)];
  }
}

/** Number of PATH elements of leaf `index` in a tree of n leaves: one per split on the way down. */
function pathLength(index: number, n: number): number {
  let [lo, hi, length] = [0, n, 0];
  while (hi - lo > 1) {
    const k = split(hi - lo);
    if (index < lo + k) hi = lo + k;
    else lo += k;
    length++;
  }
  return length;
}

function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

const MAX_LEAVES = 64;

/** Indices other than i to probe a proof for leaf i of n with: all of 0..n for small n, else neighbours, bit flips and the ends. */
function otherIndices(i: number, n: number): number[] {
  const indices =
    n <= 24
      ? Array.from({ length: n + 1 }, (_, j) => j)
      : [0, 1, i - 2, i - 1, i + 1, i + 2, i ^ 1, i ^ 2, i ^ 4, i ^ 8, i ^ 16, i ^ 32, n - 1, n, n + 1];
  return [...new Set(indices)].filter((j) => j !== i && j >= 0);
}

/** Tree sizes other than n to probe a proof with: all of 0..64 for small n, else the neighbourhood, powers of two and the ends. */
function otherSizes(n: number, exhaustive = n <= 24): number[] {
  const sizes = exhaustive
    ? Array.from({ length: MAX_LEAVES + 1 }, (_, s) => s)
    : [0, 1, 2, n - 3, n - 2, n - 1, n + 1, n + 2, n + 3, 16, 32, 63, 64, Math.floor(n / 2)];
  return [...new Set(sizes)].filter((s) => s !== n && s >= 0 && s <= MAX_LEAVES);
}

async function fixtureTree(n: number) {
  const leafHashes = await Promise.all(Array.from({ length: n }, (_, i) => leafHash(entry(i))));
  const tree = await MerkleTree.fromLeafHashes(leafHashes);
  const roots = await Promise.all(Array.from({ length: n + 1 }, (_, size) => tree.rootAt(size)));
  return { leafHashes, tree, roots, reference: new ReferenceTree(leafHashes) };
}

// ---------------------------------------------------------------------------------------------------------------
// Merkle trees

describe("RFC 6962 Merkle tree hashes", () => {
  it("hash leaves and nodes with the 0x00 / 0x01 domain separation", async () => {
    for (const [i, leaf] of CT_LEAVES.entries()) expect(toHex(await leafHash(leaf))).toBe(CT_LEAF_HASHES[i]);
    // Level 1 of the 8-leaf tree (transparency-dev/merkle testonly.NodeHashes).
    expect(toHex(await nodeHash(fromHex(CT_LEAF_HASHES[0]!), fromHex(CT_LEAF_HASHES[1]!)))).toBe(
      "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    );
    expect(toHex(await nodeHash(fromHex(CT_LEAF_HASHES[6]!), fromHex(CT_LEAF_HASHES[7]!)))).toBe(
      "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
    );
  });

  it("give the known CT roots for the trees of 0..8 test leaves", async () => {
    expect(toHex(await emptyTreeHash())).toBe(CT_ROOTS[0]);
    const full = await MerkleTree.fromEntries(CT_LEAVES);
    for (let n = 0; n <= 8; n++) {
      expect(toHex(await merkleTreeHash(CT_LEAVES.slice(0, n))), `MTH of ${n} leaves`).toBe(CT_ROOTS[n]);
      expect(toHex(await full.rootAt(n)), `rootAt(${n}) of the 8-leaf tree`).toBe(CT_ROOTS[n]);
      expect(toHex((await MerkleTree.fromLeafHashes(CT_LEAF_HASHES.slice(0, n).map(fromHex))).root())).toBe(CT_ROOTS[n]);
    }
    expect(full.size).toBe(8);
    expect(toHex(full.leafHash(7))).toBe(CT_LEAF_HASHES[7]);
  });

  it("produce exactly the known CT inclusion and consistency proofs, which verify", async () => {
    const leafHashes = CT_LEAF_HASHES.map(fromHex);
    for (const [index, size, path] of CT_INCLUSION) {
      const proof = await inclusionProof(leafHashes.slice(0, size), index);
      expect(hexes(proof), `PATH(${index}, ${size})`).toEqual(path);
      expect(
        await verifyInclusion({ leafHash: leafHashes[index]!, index, treeSize: size, proof, rootHash: fromHex(CT_ROOTS[size]!) }),
      ).toBe(true);
    }
    for (const [oldSize, newSize, path] of CT_CONSISTENCY) {
      const proof = await consistencyProof(leafHashes.slice(0, newSize), oldSize);
      expect(hexes(proof), `PROOF(${oldSize}, ${newSize})`).toEqual(path);
      expect(
        await verifyConsistency({ oldSize, newSize, oldRoot: fromHex(CT_ROOTS[oldSize]!), newRoot: fromHex(CT_ROOTS[newSize]!), proof }),
      ).toBe(true);
    }
  });

  it("match the recursive RFC 6962 definitions for every tree of up to 64 leaves", async () => {
    const { leafHashes, tree, roots, reference } = await fixtureTree(MAX_LEAVES);
    for (let n = 1; n <= MAX_LEAVES; n++) {
      expect(toHex(roots[n]!)).toBe(toHex(await reference.mth(0, n)));
      const prefix = await MerkleTree.fromLeafHashes(leafHashes.slice(0, n));
      expect(toHex(prefix.root())).toBe(toHex(roots[n]!));
      for (let i = 0; i < n; i++) {
        const expected = hexes(await reference.path(i, 0, n));
        expect(hexes(await prefix.inclusionProof(i)), `PATH(${i}, ${n})`).toEqual(expected);
        expect(hexes(await tree.inclusionProof(i, n)), `PATH(${i}, ${n}) from the 64-leaf tree`).toEqual(expected);
      }
      for (let m = 1; m <= n; m++) {
        const expected = hexes(await reference.subproof(m, 0, n, true));
        expect(hexes(await prefix.consistencyProof(m)), `PROOF(${m}, ${n})`).toEqual(expected);
        expect(hexes(await tree.consistencyProof(m, n)), `PROOF(${m}, ${n}) from the 64-leaf tree`).toEqual(expected);
      }
      expect(await prefix.consistencyProof(0)).toEqual([]);
    }
  });

  it("refuse out-of-range requests and malformed leaf hashes", async () => {
    const { tree } = await fixtureTree(5);
    await expect(tree.inclusionProof(5)).rejects.toThrow(RangeError);
    await expect(tree.inclusionProof(-1)).rejects.toThrow(RangeError);
    await expect(tree.inclusionProof(1.5)).rejects.toThrow(RangeError);
    await expect(tree.inclusionProof(0, 6)).rejects.toThrow(RangeError);
    await expect(tree.inclusionProof(3, 3)).rejects.toThrow(RangeError);
    await expect(tree.consistencyProof(6)).rejects.toThrow(RangeError);
    await expect(tree.consistencyProof(3, 2)).rejects.toThrow(RangeError);
    await expect(tree.rootAt(6)).rejects.toThrow(RangeError);
    expect(() => tree.leafHash(5)).toThrow(RangeError);
    await expect(inclusionProof([], 0)).rejects.toThrow(RangeError);
    await expect(MerkleTree.fromLeafHashes([new Uint8Array(31)])).rejects.toThrow(TypeError);
    // Returned hashes are copies: mutating them does not change the tree.
    const root = tree.root();
    root[0]! ^= 1;
    expect(toHex(tree.root())).not.toBe(toHex(root));
  });

  it("build a 100,000-leaf tree level by level and prove from it", async () => {
    const n = 100_000;
    const started = Date.now();
    const tree = await MerkleTree.fromEntries(Array.from({ length: n }, (_, i) => entry(i)));
    const buildMs = Date.now() - started;
    const root = tree.root();
    const leafHashes = Array.from({ length: n }, (_, i) => tree.leafHash(i));
    expect(toHex(await tree.rootAt(n))).toBe(toHex(root));
    for (const index of [0, 1, 65_535, 65_536, 99_998, 99_999]) {
      const proof = await tree.inclusionProof(index);
      expect(proof.length).toBe(pathLength(index, n));
      expect(await verifyInclusion({ leafHash: leafHashes[index]!, index, treeSize: n, proof, rootHash: root })).toBe(true);
      expect(await verifyInclusion({ leafHash: leafHashes[index]!, index, treeSize: n, proof, rootHash: flipBit(root, index) })).toBe(
        false,
      );
    }
    for (const oldSize of [1, 12_345, 65_536, 99_999]) {
      const proof = await tree.consistencyProof(oldSize);
      expect(await verifyConsistency({ oldSize, newSize: n, oldRoot: await tree.rootAt(oldSize), newRoot: root, proof })).toBe(true);
    }
    // A proof at an earlier sealed size, from the bigger tree, verifies against that size's root.
    expect(
      await verifyInclusion({
        leafHash: leafHashes[4_242]!,
        index: 4_242,
        treeSize: 50_001,
        proof: await tree.inclusionProof(4_242, 50_001),
        rootHash: await tree.rootAt(50_001),
      }),
    ).toBe(true);
    console.log(`100k-leaf tree: built in ${buildMs} ms`);
  });
});

describe("inclusion proof verification (RFC 9162 §2.1.3.2)", () => {
  it("accepts every proof of every leaf in trees of 1..64 leaves, and rejects every corruption of it", async () => {
    const { leafHashes, tree, roots } = await fixtureTree(MAX_LEAVES);
    const zero = new Uint8Array(32);
    let checked = 0;
    for (let n = 1; n <= MAX_LEAVES; n++) {
      for (let i = 0; i < n; i++) {
        const proof = await tree.inclusionProof(i, n);
        const claim = { leafHash: leafHashes[i]!, index: i, treeSize: n, proof, rootHash: roots[n]! };
        const label = `leaf ${i} of ${n}`;
        expect(await verifyInclusion(claim), label).toBe(true);
        const bad: Array<[string, typeof claim]> = [];
        // Every other index, and sizes it is not in.
        for (const j of otherIndices(i, n)) bad.push([`index ${j}`, { ...claim, index: j }]);
        bad.push(["index -1", { ...claim, index: -1 }]);
        // Every other tree size with its own root, and the doubled / halved size with this root.
        for (const size of otherSizes(n)) if (size > 0) bad.push([`size ${size}`, { ...claim, treeSize: size, rootHash: roots[size]! }]);
        bad.push(
          ["size * 2", { ...claim, treeSize: n * 2 }],
          ["size / 2", { ...claim, treeSize: Math.floor(n / 2) }],
          ["size 0", { ...claim, treeSize: 0 }],
        );
        // Single-bit flips in each proof element, the leaf and the root.
        proof.forEach((_, k) =>
          bad.push([`proof[${k}] bit`, { ...claim, proof: proof.map((p, x) => (x === k ? flipBit(p, i * 7 + n * 13 + k * 31) : p)) }]),
        );
        bad.push(
          ["leaf bit", { ...claim, leafHash: flipBit(claim.leafHash, i + n) }],
          ["root bit", { ...claim, rootHash: flipBit(claim.rootHash, i * n) }],
        );
        bad.push(
          ["other leaf", { ...claim, leafHash: leafHashes[(i + 1) % MAX_LEAVES]! }],
          ["empty-tree root", { ...claim, rootHash: roots[0]! }],
        );
        // Proof shape: extra or missing or reordered elements, wrong element sizes.
        bad.push(
          ["trailing zero hash", { ...claim, proof: [...proof, zero] }],
          ["trailing root", { ...claim, proof: [...proof, claim.rootHash] }],
        );
        bad.push(
          ["leading zero hash", { ...claim, proof: [zero, ...proof] }],
          ["leading root", { ...claim, proof: [claim.rootHash, ...proof] }],
        );
        bad.push(["trailing empty element", { ...claim, proof: [...proof, new Uint8Array(0)] }]);
        if (proof.length > 0) {
          bad.push(["truncated", { ...claim, proof: proof.slice(0, -1) }], ["first dropped", { ...claim, proof: proof.slice(1) }]);
          bad.push(
            ["short element", { ...claim, proof: [proof[0]!.subarray(0, 31), ...proof.slice(1)] }],
            ["long element", { ...claim, proof: [new Uint8Array([...proof[0]!, 0]), ...proof.slice(1)] }],
          );
        }
        if (proof.length > 1)
          bad.push(
            ["reversed", { ...claim, proof: [...proof].reverse() }],
            ["inserted", { ...claim, proof: [proof[0]!, zero, ...proof.slice(1)] }],
          );
        for (const [what, probe] of bad) {
          expect(await verifyInclusion(probe), `${label}: ${what}`).toBe(false);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(50_000);
  });

  it("rejects every single-bit flip of every proof element (exhaustive over 256 bits) for sample proofs", async () => {
    const { leafHashes, tree, roots } = await fixtureTree(MAX_LEAVES);
    for (const [i, n] of [
      [5, 8],
      [37, 64],
      [62, 63],
      [20, 21],
    ] as const) {
      const proof = await tree.inclusionProof(i, n);
      for (let k = 0; k < proof.length; k++) {
        for (let bit = 0; bit < 256; bit++) {
          const flipped = proof.map((p, x) => (x === k ? flipBit(p, bit) : p));
          expect(
            await verifyInclusion({ leafHash: leafHashes[i]!, index: i, treeSize: n, proof: flipped, rootHash: roots[n]! }),
            `${i}/${n} proof[${k}] bit ${bit}`,
          ).toBe(false);
        }
      }
      for (let bit = 0; bit < 256; bit++) {
        expect(await verifyInclusion({ leafHash: flipBit(leafHashes[i]!, bit), index: i, treeSize: n, proof, rootHash: roots[n]! })).toBe(
          false,
        );
        expect(await verifyInclusion({ leafHash: leafHashes[i]!, index: i, treeSize: n, proof, rootHash: flipBit(roots[n]!, bit) })).toBe(
          false,
        );
      }
    }
  });

  it("verifies a real Sigstore Rekor inclusion proof (tree of 55,510,966 entries) against its signed checkpoint", async () => {
    // A hashedrekord entry of rekor.sigstore.dev as returned by its API (from docker/attest's tlog tests).
    const body = fromB64(REKOR_ENTRY.body);
    const checkpoint = await verifyNote(REKOR_ENTRY.checkpoint, { name: "rekor.sigstore.dev", publicKey: REKOR_SPKI });
    expect(checkpoint.status).toBe("valid");
    const [, size, root] = (checkpoint as { text: string }).text.split("\n");
    expect(Number(size)).toBe(REKOR_ENTRY.treeSize);
    expect(toHex(fromB64(root!))).toBe(REKOR_ENTRY.rootHash);
    const claim = {
      leafHash: await leafHash(body),
      index: REKOR_ENTRY.index,
      treeSize: REKOR_ENTRY.treeSize,
      proof: REKOR_ENTRY.hashes.map(fromHex),
      rootHash: fromHex(REKOR_ENTRY.rootHash),
    };
    expect(await verifyInclusion(claim)).toBe(true);
    expect(await verifyInclusion({ ...claim, index: claim.index - 1 })).toBe(false);
    expect(await verifyInclusion({ ...claim, treeSize: claim.treeSize + 1 })).toBe(false);
    expect(await verifyInclusion({ ...claim, proof: claim.proof.slice(0, -1) })).toBe(false);
    expect(await verifyInclusion({ ...claim, leafHash: await leafHash(flipBit(body, 100)) })).toBe(false);
  });
});

describe("consistency proof verification (RFC 9162 §2.1.4.2)", () => {
  it("accepts every proof between trees of 1..64 leaves, and rejects every corruption of it", async () => {
    const { tree, roots } = await fixtureTree(MAX_LEAVES);
    const zero = new Uint8Array(32);
    let checked = 0;
    for (let n = 1; n <= MAX_LEAVES; n++) {
      for (let m = 1; m <= n; m++) {
        const proof = await tree.consistencyProof(m, n);
        const claim = { oldSize: m, newSize: n, oldRoot: roots[m]!, newRoot: roots[n]!, proof };
        const label = `${m} -> ${n}`;
        expect(await verifyConsistency(claim), label).toBe(true);
        const bad: Array<[string, typeof claim]> = [];
        // Other sizes, each with the root of that size.
        // (Size 0 with the empty-tree root and an empty proof is the valid trivial claim 0 -> n.)
        for (const size of otherSizes(m, n <= 24))
          if (size > 0 || proof.length > 0) bad.push([`old size ${size}`, { ...claim, oldSize: size, oldRoot: roots[size]! }]);
        for (const size of otherSizes(n)) bad.push([`new size ${size}`, { ...claim, newSize: size, newRoot: roots[size]! }]);
        bad.push(["old size - 1, same root", { ...claim, oldSize: m - 1 }], ["old size + 1, same root", { ...claim, oldSize: m + 1 }]);
        bad.push(
          ["new size * 2, same root", { ...claim, newSize: n * 2 }],
          ["new size / 2, same root", { ...claim, newSize: Math.floor(n / 2) }],
        );
        // Roots.
        bad.push(
          ["old root bit", { ...claim, oldRoot: flipBit(claim.oldRoot, m + n) }],
          ["new root bit", { ...claim, newRoot: flipBit(claim.newRoot, m * n) }],
        );
        if (m !== n) bad.push(["swapped roots", { ...claim, oldRoot: claim.newRoot, newRoot: claim.oldRoot }]);
        // Single-bit flips in each proof element.
        proof.forEach((_, k) =>
          bad.push([`proof[${k}] bit`, { ...claim, proof: proof.map((p, x) => (x === k ? flipBit(p, m * 5 + n * 11 + k * 29) : p)) }]),
        );
        // Proof shape.
        bad.push(
          ["trailing zero hash", { ...claim, proof: [...proof, zero] }],
          ["trailing old root", { ...claim, proof: [...proof, claim.oldRoot] }],
          ["trailing new root", { ...claim, proof: [...proof, claim.newRoot] }],
        );
        bad.push(
          ["leading zero hash", { ...claim, proof: [zero, ...proof] }],
          ["leading old root", { ...claim, proof: [claim.oldRoot, ...proof] }],
          ["leading new root", { ...claim, proof: [claim.newRoot, ...proof] }],
        );
        if (proof.length > 0) {
          bad.push(
            ["empty proof", { ...claim, proof: [] }],
            ["truncated", { ...claim, proof: proof.slice(0, -1) }],
            ["first dropped", { ...claim, proof: proof.slice(1) }],
          );
          bad.push(
            ["leading proof[0]", { ...claim, proof: [proof[0]!, ...proof] }],
            ["short element", { ...claim, proof: [proof[0]!.subarray(1), ...proof.slice(1)] }],
          );
        }
        if (proof.length > 1) bad.push(["reversed", { ...claim, proof: [...proof].reverse() }]);
        for (const [what, probe] of bad) {
          expect(await verifyConsistency(probe), `${label}: ${what}`).toBe(false);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(100_000);
  });

  it("handles the trivial cases: empty old tree, equal sizes, shrinking trees", async () => {
    const { roots } = await fixtureTree(4);
    const empty = roots[0]!;
    expect(await verifyConsistency({ oldSize: 0, newSize: 0, oldRoot: empty, newRoot: empty, proof: [] })).toBe(true);
    expect(await verifyConsistency({ oldSize: 0, newSize: 4, oldRoot: empty, newRoot: roots[4]!, proof: [] })).toBe(true);
    expect(await verifyConsistency({ oldSize: 0, newSize: 4, oldRoot: roots[1]!, newRoot: roots[4]!, proof: [] })).toBe(false);
    expect(await verifyConsistency({ oldSize: 0, newSize: 4, oldRoot: empty, newRoot: roots[4]!, proof: [empty] })).toBe(false);
    expect(await verifyConsistency({ oldSize: 3, newSize: 3, oldRoot: roots[3]!, newRoot: roots[3]!, proof: [] })).toBe(true);
    expect(await verifyConsistency({ oldSize: 3, newSize: 3, oldRoot: roots[3]!, newRoot: roots[4]!, proof: [] })).toBe(false);
    expect(await verifyConsistency({ oldSize: 3, newSize: 3, oldRoot: roots[3]!, newRoot: roots[3]!, proof: [roots[3]!] })).toBe(false);
    expect(await verifyConsistency({ oldSize: 4, newSize: 3, oldRoot: roots[4]!, newRoot: roots[3]!, proof: [] })).toBe(false);
    expect(await verifyConsistency({ oldSize: 1, newSize: 2, oldRoot: roots[1]!, newRoot: roots[2]!, proof: [] })).toBe(false);
  });
});

describe("verifiers given garbage", () => {
  it("return false and never throw", async () => {
    const rand = draws(0xc0ffee);
    const { leafHashes, tree, roots } = await fixtureTree(16);
    const anything = (): unknown => {
      switch (rand.int(14)) {
        case 0:
          return undefined;
        case 1:
          return null;
        case 2:
          return rand.int(40) - 8;
        case 3:
          return [NaN, Infinity, -Infinity, -0, 0.5, 2 ** 53, 2 ** 64, Number.MAX_SAFE_INTEGER, -1][rand.int(9)];
        case 4:
          return rand.bytes(rand.int(70));
        case 5:
          return rand.bytes(32);
        case 6:
          return Array.from({ length: rand.int(8) }, () => rand.bytes(rand.int(3) === 0 ? rand.int(40) : 32));
        case 7:
          return Array.from({ length: rand.int(200) }, () => rand.bytes(32));
        case 8:
          return "deadbeef";
        case 9:
          return { length: 4 };
        case 10:
          return [null, 1, "x"];
        case 11:
          return BigInt(rand.int(16));
        case 12:
          return leafHashes[rand.int(16)];
        default:
          return roots[rand.int(17)];
      }
    };
    let accepted = 0;
    for (let round = 0; round < 3000; round++) {
      const inclusion = { leafHash: anything(), index: anything(), treeSize: anything(), proof: anything(), rootHash: anything() };
      const consistency = { oldSize: anything(), newSize: anything(), oldRoot: anything(), newRoot: anything(), proof: anything() };
      const a = await verifyInclusion(inclusion as never);
      const b = await verifyConsistency(consistency as never);
      expect(typeof a).toBe("boolean");
      expect(typeof b).toBe("boolean");
      if (a || b) accepted++;
    }
    // Trivially consistent pairs (0 -> n with the empty root, equal sizes and roots) can come up by chance; nothing else.
    expect(accepted).toBeLessThan(30);
    for (const junk of [
      undefined,
      null,
      42,
      "claim",
      [],
      { proof: null },
      new Proxy(
        {},
        {
          get: () => {
            throw new Error("boom");
          },
        },
      ),
    ]) {
      expect(await verifyInclusion(junk as never)).toBe(false);
      expect(await verifyConsistency(junk as never)).toBe(false);
    }
    // Random proofs for real leaves never verify.
    for (let round = 0; round < 500; round++) {
      const n = 2 + rand.int(15); // (a 1-leaf tree's empty proof is its valid proof)
      const i = rand.int(n);
      const length = (await tree.inclusionProof(i, n)).length;
      const proof = Array.from({ length }, () => rand.bytes(32));
      expect(await verifyInclusion({ leafHash: leafHashes[i]!, index: i, treeSize: n, proof, rootHash: roots[n]! })).toBe(false);
    }
  });
});

describe("manifest leaf encoding", () => {
  it("is versioned, carries the manifest hash and the publication id, and round-trips", async () => {
    const manifestSha256 = fromHex("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08");
    const leaf = encodeManifestLeaf({ manifestSha256, publicationId: "pub_01J9Z3" });
    expect(toHex(leaf)).toBe(`01${toHex(manifestSha256)}000a${toHex(new TextEncoder().encode("pub_01J9Z3"))}`);
    expect(decodeManifestLeaf(leaf)).toEqual({ version: 1, manifestSha256, publicationId: "pub_01J9Z3" });
    const unicode = encodeManifestLeaf({ manifestSha256, publicationId: "\ufeffpublicación-✓" });
    expect(decodeManifestLeaf(unicode)?.publicationId).toBe("\ufeffpublicación-✓");
    expect(toHex(await leafHash(leaf))).toMatch(/^[0-9a-f]{64}$/);
    expect(() => encodeManifestLeaf({ manifestSha256: manifestSha256.subarray(1), publicationId: "p" })).toThrow(TypeError);
    expect(() => encodeManifestLeaf({ manifestSha256, publicationId: "" })).toThrow(TypeError);
    expect(() => encodeManifestLeaf({ manifestSha256, publicationId: "x".repeat(1025) })).toThrow(TypeError);
    expect(() => encodeManifestLeaf({ manifestSha256, publicationId: "\ud800" })).toThrow(TypeError);
    for (const bad of [
      leaf.subarray(1),
      Uint8Array.of(2, ...leaf.subarray(1)),
      Uint8Array.of(...leaf, 0),
      leaf.subarray(0, leaf.length - 1),
      Uint8Array.of(...leaf.subarray(0, 33), 0, 0),
      Uint8Array.of(...leaf.subarray(0, 33), 0, 1, 0xff),
    ]) {
      expect(decodeManifestLeaf(bad)).toBeNull();
    }
    const rand = draws(7);
    for (let round = 0; round < 2000; round++) {
      const bytes = rand.bytes(rand.int(80));
      if (round % 2 === 0 && bytes.length > 0) bytes[0] = 1;
      const decoded = decodeManifestLeaf(bytes);
      if (decoded) expect(toHex(encodeManifestLeaf(decoded))).toBe(toHex(bytes));
    }
    expect(decodeManifestLeaf(null as never)).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Checkpoints

const ORIGIN = "provenance.example/manifest-log";

async function p256() {
  return (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
}

async function signedFixture(body: CheckpointBody = { origin: ORIGIN, treeSize: 8, rootHash: fromHex(CT_ROOTS[8]!) }) {
  const keys = await p256();
  const keyId = await checkpointKeyId(keys.publicKey);
  const note = await signCheckpoint(body, keys.privateKey, keyId);
  return { keys, keyId, note, body };
}

describe("checkpoints", () => {
  it("have a canonical version 1 body and verify after signing", async () => {
    const { keys, keyId, note, body } = await signedFixture();
    const text = `${ORIGIN}\n8\n${btoa(String.fromCharCode(...body.rootHash))}\n${CHECKPOINT_FORMAT}\n`;
    expect(formatCheckpointBody(body)).toBe(text);
    expect(parseCheckpointBody(text)).toEqual(body);
    expect(note.startsWith(`${text}\n`)).toBe(true);
    expect(note.endsWith("\n")).toBe(true);
    const signatureLine = note.slice(text.length + 1, -1);
    expect(signatureLine).toMatch(new RegExp(`^\u2014 ${ORIGIN.replace(/[./]/g, "\\$&")} [A-Za-z0-9+/]+={0,2}$`));
    // base64(key id || DER ECDSA signature)
    const signature = fromB64(signatureLine!.split(" ")[2]!);
    expect(toHex(signature.subarray(0, 4))).toBe(toHex(keyId));
    expect(signature[4]).toBe(0x30);
    expect(signature[5]).toBe(signature.length - 6);
    expect(await verifyCheckpoint(note, keys.publicKey)).toEqual({ status: "valid", origin: ORIGIN, treeSize: 8, rootHash: body.rootHash });
    const spki = new Uint8Array((await crypto.subtle.exportKey("spki", keys.publicKey)) as ArrayBuffer);
    expect(await verifyCheckpoint(note, spki, { origin: ORIGIN })).toMatchObject({ status: "valid", treeSize: 8 });
    expect(toHex(keyId)).toBe(toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", spki)).subarray(0, 4)));
  });

  it("sign the empty tree and very large sizes", async () => {
    const empty = await signedFixture({ origin: ORIGIN, treeSize: 0, rootHash: await emptyTreeHash() });
    expect(await verifyCheckpoint(empty.note, empty.keys.publicKey)).toMatchObject({ status: "valid", treeSize: 0 });
    const big = await signedFixture({ origin: ORIGIN, treeSize: Number.MAX_SAFE_INTEGER, rootHash: new Uint8Array(32) });
    expect(await verifyCheckpoint(big.note, big.keys.publicKey)).toMatchObject({ status: "valid", treeSize: Number.MAX_SAFE_INTEGER });
  });

  it("are rejected when tampered with, signed by another key or of another log", async () => {
    const { keys, keyId, note } = await signedFixture();
    const other = await p256();
    const reason = async (text: string, key: CryptoKey | Uint8Array = keys.publicKey, options = {}) => {
      const result = await verifyCheckpoint(text, key, options);
      return result.status === "invalid" ? result.reason : "valid";
    };
    expect(await reason(note.replace("\n8\n", "\n9\n"))).toBe("bad_signature");
    expect(await reason(note.replace("\n8\n", "\n08\n"))).toBe("malformed_body");
    const root = note.split("\n")[2]!;
    expect(await reason(note.replace(root, btoa(String.fromCharCode(...flipBit(fromB64(root), 3)))))).toBe("bad_signature");
    expect(await reason(note.replace(ORIGIN, "provenance.example/other-log"))).toBe("no_signature");
    expect(await reason(note.replaceAll(ORIGIN, "provenance.example/other-log"))).toBe("bad_signature");
    expect(await reason(note, keys.publicKey, { origin: "provenance.example/other-log" })).toBe("origin_mismatch");
    expect(await reason(note, other.publicKey)).toBe("no_signature");
    expect(await reason(note.replace(CHECKPOINT_FORMAT, "c2pa-manifest-log/checkpoint/v2"))).toBe("unsupported_format");
    expect(await reason(note.replace(`${CHECKPOINT_FORMAT}\n`, ""))).toBe("malformed_body");
    expect(await reason(note.replace(`${CHECKPOINT_FORMAT}\n`, `${CHECKPOINT_FORMAT}\nextra\n`))).toBe("malformed_body");
    expect(await reason(note.replace("\n\n", "\n"))).toBe("malformed_note");
    expect(await reason(note.replace("\u2014", "-"))).toBe("malformed_note");
    expect(await reason(note.slice(0, -1))).toBe("malformed_note");
    expect(await reason(note.replace("\n8\n", "\n8\r\n"))).toBe("malformed_note");
    expect(await reason(note, keys.privateKey)).toBe("bad_public_key");
    expect(await reason(note, new Uint8Array([1, 2, 3]))).toBe("bad_public_key");
    // A signature line from this key with the signature of another key.
    const forged = await signCheckpoint({ origin: ORIGIN, treeSize: 8, rootHash: fromHex(CT_ROOTS[8]!) }, other.privateKey, keyId);
    expect(await reason(forged)).toBe("bad_signature");
    // Every single-bit flip of the signature bytes is rejected.
    const line = note.split("\n").at(-2)!;
    const sigBytes = fromB64(line.split(" ")[2]!);
    for (let bit = 0; bit < sigBytes.length * 8; bit++) {
      const flipped = note.replace(line.split(" ")[2]!, btoa(String.fromCharCode(...flipBit(sigBytes, bit))));
      expect(await reason(flipped), `signature bit ${bit}`).not.toBe("valid");
    }
  });

  it("ignore other signature lines (witness cosignatures, rotated keys) but not a bad one of their own key", async () => {
    const { keys, keyId, note } = await signedFixture();
    const other = await p256();
    const witness = await signNote(
      formatCheckpointBody({ origin: ORIGIN, treeSize: 8, rootHash: fromHex(CT_ROOTS[8]!) }),
      other.privateKey,
      "witness.example/w1",
      await checkpointKeyId(other.publicKey),
    );
    const witnessLine = witness.split("\n").at(-2)!;
    const cosigned = `${note}${witnessLine}\n`;
    expect(await verifyCheckpoint(cosigned, keys.publicKey)).toMatchObject({ status: "valid" });
    const witnessFirst = note.replace("\n\n", `\n\n${witnessLine}\n`);
    expect(await verifyCheckpoint(witnessFirst, keys.publicKey)).toMatchObject({ status: "valid" });
    expect(await verifyNote(cosigned, { name: "witness.example/w1", publicKey: other.publicKey })).toMatchObject({ status: "valid" });
    // Same name, other key id: ignored. Same key id, other name: ignored.
    const rotated = note.replace(/ [A-Za-z0-9+/=]+\n$/, (sig) => ` ${btoa(String.fromCharCode(...flipBit(fromB64(sig.trim()), 0)))}\n`);
    expect(await verifyCheckpoint(rotated, keys.publicKey)).toEqual({ status: "invalid", reason: "no_signature" });
    // The first line of our key decides: a bad one before a good one rejects.
    const badOwn = forgedLine(note.split("\n").at(-2)!);
    expect(await verifyCheckpoint(note.replace("\n\n", `\n\n${badOwn}\n`), keys.publicKey)).toEqual({
      status: "invalid",
      reason: "bad_signature",
    });
    expect(keyId.length).toBe(4);
  });

  it("interoperate with the signed-note ECDSA format of Sigstore Rekor and transparency-dev (known answers)", async () => {
    // Key ids and verifier keys of transparency-dev/formats note_verifier_test.go.
    const rekorKey =
      "rekor.sigstore.dev+c0d23d6a+AjBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABNhtmPtrWm3U1eQXBogSMdGvXwBcK5AW5i0hrZLOC96l+smGNM7nwZ4QvFK/4sueRoVj//QP22Ni4Qt9DPfkWLc=";
    const pixelKey =
      "pixel6_transparency_log+91c16e30+AjBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABN+4x0Jk1yTwvLFI9A4NDdGZcX0aiWVdWM5XJVy0M4VWD3AvyW5Q6Hs9A0mcDkpUoYgn+KKPNzFC0H3nN3q6JQ8=";
    const pixelSpki = fromB64(pixelKey.split("+").slice(2).join("+")).subarray(1);
    expect(toHex(await checkpointKeyId(REKOR_SPKI))).toBe("c0d23d6a");
    expect(await checkpointVerifierKey("rekor.sigstore.dev", REKOR_SPKI)).toBe(rekorKey);
    expect(await checkpointVerifierKey("pixel6_transparency_log", pixelSpki)).toBe(pixelKey);
    const rekorNote =
      "Rekor\n798034\nf+7CoKgXKE/tNys9TTXcr/ad6U/K3xvznmzew9y6SP0=\n\n\u2014 rekor.sigstore.dev wNI9ajBEAiARInWIWyCdyG27CO6LPnPekyw20qO0YJfoaPaowGp/XgIgc+qEHS3+GKVClgqq20uDLet7MCoTURUCRdxwWBHHufk=\n";
    const pixelNote =
      "DEFAULT\n10\nbsWRucJU5xJPHb5eBdOm6+DM+VelCZBuvtI3sHERJ9Y=\n\n\u2014 pixel6_transparency_log kcFuMDBFAiEAhqMAP8P6qf6QxtUJhzMhbN+MbZ9dwfUHzGQJmffJHtoCIGD0cNe47dHWBoPwYdgBCepB06/+g5O1FmYjXl06owL4\n";
    expect(await verifyNote(rekorNote, { name: "rekor.sigstore.dev", publicKey: REKOR_SPKI })).toEqual({
      status: "valid",
      text: "Rekor\n798034\nf+7CoKgXKE/tNys9TTXcr/ad6U/K3xvznmzew9y6SP0=\n",
    });
    expect(await verifyNote(pixelNote, { name: "pixel6_transparency_log", publicKey: pixelSpki })).toMatchObject({ status: "valid" });
    expect(await verifyNote(rekorNote, { name: "bananas.sigstore.dev", publicKey: REKOR_SPKI })).toEqual({
      status: "invalid",
      reason: "no_signature",
    });
    expect(await verifyNote(rekorNote.replace("798034", "798035"), { name: "rekor.sigstore.dev", publicKey: REKOR_SPKI })).toEqual({
      status: "invalid",
      reason: "bad_signature",
    });
    expect(await verifyNote(pixelNote, { name: "pixel6_transparency_log", publicKey: REKOR_SPKI })).toEqual({
      status: "invalid",
      reason: "no_signature",
    });
    // Valid notes, but not checkpoints of this log's format.
    expect(await verifyCheckpoint(rekorNote, REKOR_SPKI)).toEqual({ status: "invalid", reason: "malformed_body" });
  });

  it("refuse to sign invalid bodies or with invalid keys", async () => {
    const { keys, keyId } = await signedFixture();
    const rootHash = new Uint8Array(32);
    for (const origin of ["", "has space", "has+plus", "tab\tin", "ünïcode", "x".repeat(256)]) {
      await expect(signCheckpoint({ origin, treeSize: 1, rootHash }, keys.privateKey, keyId)).rejects.toThrow(TypeError);
    }
    for (const treeSize of [-1, 1.5, NaN, 2 ** 53])
      await expect(signCheckpoint({ origin: ORIGIN, treeSize, rootHash }, keys.privateKey, keyId)).rejects.toThrow(TypeError);
    await expect(signCheckpoint({ origin: ORIGIN, treeSize: 1, rootHash: rootHash.subarray(1) }, keys.privateKey, keyId)).rejects.toThrow(
      TypeError,
    );
    await expect(signCheckpoint({ origin: ORIGIN, treeSize: 1, rootHash }, keys.privateKey, keyId.subarray(1))).rejects.toThrow(TypeError);
    await expect(signCheckpoint({ origin: ORIGIN, treeSize: 1, rootHash }, keys.publicKey, keyId)).rejects.toThrow(TypeError);
    const p384 = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-384" }, true, ["sign", "verify"])) as CryptoKeyPair;
    await expect(signCheckpoint({ origin: ORIGIN, treeSize: 1, rootHash }, p384.privateKey, keyId)).rejects.toThrow(TypeError);
    expect(await verifyCheckpoint((await signedFixture()).note, p384.publicKey)).toEqual({ status: "invalid", reason: "bad_public_key" });
    await expect(signNote("no newline", keys.privateKey, ORIGIN, keyId)).rejects.toThrow(TypeError);
    await expect(signNote("bell\u0007\n", keys.privateKey, ORIGIN, keyId)).rejects.toThrow(TypeError);
    expect(parseCheckpointBody(`${ORIGIN}\n1\n${btoa("x".repeat(32)).replace("=", "")}\n${CHECKPOINT_FORMAT}\n`)).toBeNull();
    expect(parseCheckpointBody(`${ORIGIN}\n1\n${btoa("x".repeat(31))}\n${CHECKPOINT_FORMAT}\n`)).toBeNull();
    expect(parseCheckpointBody(`${ORIGIN}\n-1\n${btoa("x".repeat(32))}\n${CHECKPOINT_FORMAT}\n`)).toBeNull();
    expect(parseCheckpointBody(`${ORIGIN}\n9007199254740992\n${btoa("x".repeat(32))}\n${CHECKPOINT_FORMAT}\n`)).toBeNull();
    expect(parseCheckpointBody(`${ORIGIN}\n1\n${btoa("x".repeat(32))}\n${CHECKPOINT_FORMAT}`)).toBeNull();
    // Non-canonical base64 (non-zero padding bits) of the root.
    const canonical = btoa("x".repeat(32));
    expect(parseCheckpointBody(`${ORIGIN}\n1\n${canonical.slice(0, -2)}5=\n${CHECKPOINT_FORMAT}\n`)).toBeNull();
  });

  it("never throw on garbage, mutated notes or odd keys", async () => {
    const { keys, note } = await signedFixture();
    const rand = draws(42);
    const alphabet = ["\n", "\n\n", "\u2014 ", " ", "+", "=", "A", "z", "0", "/", ORIGIN, CHECKPOINT_FORMAT, "\ud800", "\u0000", "\r", "8"];
    let valid = 0;
    for (let round = 0; round < 1500; round++) {
      let text: string;
      switch (round % 3) {
        case 0:
          text = Array.from({ length: rand.int(30) }, () => alphabet[rand.int(alphabet.length)]).join("");
          break;
        case 1: {
          const at = rand.int(note.length);
          text = note.slice(0, at) + alphabet[rand.int(alphabet.length)] + note.slice(at + rand.int(3));
          break;
        }
        default:
          text = note.slice(0, rand.int(note.length + 1));
      }
      const result = await verifyCheckpoint(text, keys.publicKey);
      expect(["valid", "invalid"]).toContain(result.status);
      if (result.status === "valid") valid++;
      const generic = await verifyNote(text, { name: ORIGIN, publicKey: keys.publicKey });
      expect(["valid", "invalid"]).toContain(generic.status);
    }
    expect(valid).toBeLessThan(50); // only insertions that left the note unchanged, or appended lines of other keys
    for (const junk of [undefined, null, 5, {}, "x".repeat(300_000), `${note}`.repeat(2)]) {
      expect((await verifyCheckpoint(junk as never, keys.publicKey)).status).toBe("invalid");
      expect((await verifyNote(junk as never, { name: ORIGIN, publicKey: keys.publicKey })).status).toBe("invalid");
    }
    for (const key of [undefined, null, "key", {}, new Uint8Array(0), rand.bytes(91)]) {
      expect(await verifyCheckpoint(note, key as never)).toEqual({ status: "invalid", reason: "bad_public_key" });
    }
    expect(await verifyCheckpoint(note, keys.publicKey, null as never)).toEqual({ status: "invalid", reason: "malformed_note" });
  });
});

/** The signature line `line` with its signature bytes replaced by a well-formed but wrong DER signature. */
function forgedLine(line: string): string {
  const [dash, name, sig] = line.split(" ");
  const bytes = fromB64(sig!);
  const der = Uint8Array.of(0x30, 6, 0x02, 1, 1, 0x02, 1, 1);
  return `${dash} ${name} ${btoa(String.fromCharCode(...bytes.subarray(0, 4), ...der))}`;
}

// rekor.sigstore.dev public key (DER SPKI) and one of its log entries with the inclusion proof and checkpoint it
// returned (entry, proof and checkpoint as published in docker/attest's tlog tests).
const REKOR_SPKI = fromB64(
  "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE2G2Y+2tabdTV5BcGiBIx0a9fAFwrkBbmLSGtks4L3qX6yYY0zufBnhC8Ur/iy55GhWP/9A/bY2LhC30M9+RYtw==",
);
const REKOR_ENTRY = {
  body: "eyJhcGlWZXJzaW9uIjoiMC4wLjEiLCJraW5kIjoiaGFzaGVkcmVrb3JkIiwic3BlYyI6eyJkYXRhIjp7Imhhc2giOnsiYWxnb3JpdGhtIjoic2hhMjU2IiwidmFsdWUiOiI5Zjg2ZDA4MTg4NGM3ZDY1OWEyZmVhYTBjNTVhZDAxNWEzYmY0ZjFiMmIwYjgyMmNkMTVkNmMxNWIwZjAwYTA4In19LCJzaWduYXR1cmUiOnsiY29udGVudCI6Ik1FUUNJQUlyVUZGUzBIYmNzZjc5L08yajVXdHl2R2Vvd1NVSXpZcDlBM2IwWnREVUFpQVQxZU42ZjFyVmVWa011REFlN3dxWkJ2bE5LY2VsajNVVDNmaWhyQjZSY2c9PSIsInB1YmxpY0tleSI6eyJjb250ZW50IjoiTFMwdExTMUNSVWRKVGlCRFJWSlVTVVpKUTBGVVJTMHRMUzB0Q2sxSlNVSlZla05DSzJGQlJFRm5SVU5CWjBWQ1RVRnZSME5EY1VkVFRUUTVRa0ZOUTAxQk9IaEVWRUZNUW1kT1ZrSkJUVlJDU0ZKc1l6TlJkMGhvWTA0S1RXcE5lRTFxU1ROTlZHdDVUWHBWTlZkb1kwNU5hbEY0VFdwSk1rMVVhM2xOZWxVMVYycEJVRTFSTUhkRGQxbEVWbEZSUkVWM1VqQmFXRTR3VFVacmR3cEZkMWxJUzI5YVNYcHFNRU5CVVZsSlMyOWFTWHBxTUVSQlVXTkVVV2RCUlVRMFZpdFNSV2g0SzJGeFYwZzNlV3hOVFVSSVlXaE9UVzVOVEZOUFNsQXZDamxyUVcwNWJIQXJNMjF4V1ZSQmFGVlNjbUUyVDBRMVVYZzRXbUprSzJWMVVIbFFhemw1SzNjdloxZEhSRUk1ZW00dlNXd3hTMDVIVFVWUmQwUm5XVVFLVmxJd1VFRlJTQzlDUVZGRVFXZGxRVTFDVFVkQk1WVmtTbEZSVFUxQmIwZERRM05IUVZGVlJrSjNUVVJOUVhkSFFURlZaRVYzUlVJdmQxRkRUVUZCZHdwRWQxbEVWbEl3VWtKQlozZENiMGxGWkVkV2VtUkVRVXRDWjJkeGFHdHFUMUJSVVVSQlowNUtRVVJDUjBGcFJVRTNOMjFFTDFSbVJtRlJVemxrWlhRMENqbFhaRk41YURKT1VTOUZiMVJtYVVGdFFtaHVWblpEVTNSUVowTkpVVU1yZDNSdllpOU9iMUp4T0c5cU4wZDNibTVKYUZKVGRDOVJNbmtyVXpoUkwzSUthRkpVYW5GaE9HZExRVDA5Q2kwdExTMHRSVTVFSUVORlVsUkpSa2xEUVZSRkxTMHRMUzBLIn19fX0=",
  index: 55_510_965,
  treeSize: 55_510_966,
  rootHash: "2428b53b9dd799d8bd9579ee8b8439490f8c2523275abd41c67f90d907f6dad5",
  hashes: [
    "fb77ee213b48f4b18dc81c6e634c570abf99b257713561f174f2e0f4c039af67",
    "6cb113bbefadecbbb8b89b1c08232438a6125071790b6a062cff8c1ccfdcb91e",
    "6fbe1424e264e4590ca502d671b7a036c87f7a90d1f57534b98eb781144160bf",
    "077b606720a6478200f6c3ed08a68e9b01b1cae192cb120888ddcc95521601bd",
    "b6f8e8bc21ae0cde82b92422a4b4f37b28a43185821e468a4e65b6c79ed8f5b7",
    "89332533fac54e9bc68c7353c42f6ebb9fe38039f67910332ff95082072068d4",
    "0814d6f707a75fb3334bab14ab5466bd8b9a64ae7be7cd4d53a428c64932bc66",
    "e883e826f10329c63a4a2ed21156037a050df43b9d74079296beac6968ed4150",
    "d79230703257b7e4a8a61b032b6980d1a0bdbc7ae96ca838b525b3751785fe48",
    "2f4a77e5288462cd3b75084d37f1502dcbe0943d18dd95cb247fc1ebbabc0aad",
    "38562c253d3536d0d00e3547c880b6b0251a25ac69605b50c9eaa1a27186cc7a",
    "9dea192350ff8b3c0f5ccda38261cb38ebd61869281c3928912332d1144e0a04",
    "2c4d25ba59aa573ab2c79c2d3cd9e1d74789b10632432724d63112ce50b44874",
    "98c486feb5d87092a78a46c4b5be04868654900affc2e86ffb20074dc73a883a",
    "6969c49bd73f19bf28a5eaeabd331ddd60502defb2cd3d96e17b741c80adec6c",
  ],
  checkpoint:
    "rekor.sigstore.dev - 2605736670972794746\n55510966\nJCi1O53Xmdi9lXnui4Q5SQ+MJSMnWr1Bxn+Q2Qf22tU=\nTimestamp: 1703705040158839214\n\n\u2014 rekor.sigstore.dev wNI9ajBFAiAXgtjFDVqCSgiSP04TQzELrz4+EyBwyYVL2EEULTCy0AIhAI9peLU76ZUD1tvU8qvzBJBo77IYD1rc+A1MPc35AeVK\n",
};
