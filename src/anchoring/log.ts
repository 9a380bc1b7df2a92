import { database } from "../db/client";
import type { Bindings } from "../env";
import { fromHex, hex } from "../platform/bytes";
import { configOf } from "../platform/config";
import { checkpointKeyId, checkpointVerifierKey, signCheckpoint, verifyCheckpoint } from "./checkpoint";
import { encodeManifestLeaf, leafHash, MerkleTree, verifyInclusion } from "./merkle";
import {
  type AnchorEntryRow,
  type CheckpointRow,
  checkpointOfSize,
  entriesOfManifest,
  entriesOfManifestRows,
  entriesOfManifestStatement,
  entryOfPublication,
  insertEntryStatement,
  newestCheckpoint,
  pendingEntries,
  publicationDeletedAt,
  sealBatch,
  sealedLeafHashes,
} from "./repo";

/*
 * The manifest transparency log on D1 (design: README.md in this folder). Entries are appended by the
 * publication batch (`anchorEntryStatement`), unsequenced; `sealPending` (cron, and on demand) sequences them,
 * builds the RFC 6962 tree over every entry, signs a checkpoint and stores each new entry's inclusion proof.
 * Verification recomputes the proof against the signed checkpoint (`anchorMatch`).
 */

export const DEFAULT_ANCHOR_ORIGIN = "svc.local/manifest-log";
/** Entries sealed per run: bounds the work of one cron invocation (the next run takes the rest). */
const SEAL_BATCH = 5000;

export function anchorOrigin(env: Bindings): string {
  return configOf(env).anchorOrigin ?? DEFAULT_ANCHOR_ORIGIN;
}

function pemBody(pem: string): Uint8Array {
  const b64 = pem.replace(/-----(BEGIN|END) [A-Z ]+-----/g, "").replace(/\s+/g, "");
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

interface LogKeys {
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  keyId: Uint8Array;
}
const keyCache = new Map<string, Promise<LogKeys>>();

/** The checkpoint key (SVC_ANCHOR_KEY_PEM, PKCS#8 ECDSA P-256), or null when anchoring is not configured. */
export function logKeys(env: Bindings): Promise<LogKeys> | null {
  const pem = env.SVC_ANCHOR_KEY_PEM;
  if (!pem) return null;
  let keys = keyCache.get(pem);
  if (!keys) {
    keys = (async () => {
      const privateKey = await crypto.subtle.importKey("pkcs8", pemBody(pem), { name: "ECDSA", namedCurve: "P-256" }, true, ["sign"]);
      // The public half from the private JWK (x, y), so one secret configures the log.
      const jwk = (await crypto.subtle.exportKey("jwk", privateKey)) as JsonWebKey;
      const publicKey = await crypto.subtle.importKey(
        "jwk",
        { kty: "EC", crv: "P-256", x: jwk.x, y: jwk.y },
        { name: "ECDSA", namedCurve: "P-256" },
        true,
        ["verify"],
      );
      return { privateKey, publicKey, keyId: await checkpointKeyId(publicKey) };
    })();
    keyCache.set(pem, keys);
  }
  return keys;
}

/** The leaf hash (hex) of a published manifest. */
export async function manifestLeafHash(manifestSha256Hex: string, publicationId: string): Promise<string> {
  return hex(await leafHash(encodeManifestLeaf({ manifestSha256: fromHex(manifestSha256Hex), publicationId })));
}

/** The statement the publication batch runs to append its manifest (guarded like every statement there). */
export async function anchorEntryStatement(
  d1: D1Database,
  entry: { publicationId: string; tenantId: string; manifestSha256: string; createdAt: number },
  guard: { sql: string; binds: unknown[] },
) {
  const leaf = await manifestLeafHash(entry.manifestSha256, entry.publicationId);
  return insertEntryStatement(d1, { ...entry, leafHash: leaf }, guard);
}

export type SealResult =
  | { status: "sealed"; tree_size: number; added: number }
  | { status: "nothing_pending" }
  | { status: "not_configured" }
  | { status: "lost_race" };

/**
 * Seals pending entries into a new signed checkpoint. Concurrency: the batch inserts the checkpoint row keyed by
 * its tree size and sequences only still-pending entries; a concurrent sealer computing the same size fails its
 * whole batch on the primary key, so the log never forks.
 */
export async function sealPending(env: Bindings, now = Date.now()): Promise<SealResult> {
  const keysPromise = logKeys(env);
  if (!keysPromise) return { status: "not_configured" };
  const keys = await keysPromise;
  const db = database(env.DB);
  const pending = await pendingEntries(db, SEAL_BATCH);
  if (pending.length === 0) return { status: "nothing_pending" };
  const sealed = await sealedLeafHashes(db);
  const oldSize = sealed.length;
  const leaves = [...sealed.map((r) => fromHex(r.leafHash)), ...pending.map((r) => fromHex(r.leafHash))];
  const tree = await MerkleTree.fromLeafHashes(leaves);
  const note = await signCheckpoint({ origin: anchorOrigin(env), treeSize: tree.size, rootHash: tree.root() }, keys.privateKey, keys.keyId);
  const sequenced: { publicationId: string; leafIndex: number; inclusionProof: string }[] = [];
  for (let k = 0; k < pending.length; k++) {
    const index = oldSize + k;
    const proof = (await tree.inclusionProof(index)).map((p) => hex(p));
    sequenced.push({ publicationId: pending[k]!.publicationId, leafIndex: index, inclusionProof: JSON.stringify(proof) });
  }
  try {
    await sealBatch(env.DB, { treeSize: tree.size, rootHash: hex(tree.root()), note, sealedAt: now }, sequenced);
  } catch (error) {
    if (/UNIQUE|PRIMARY KEY|constraint/i.test(String(error))) return { status: "lost_race" };
    throw error;
  }
  return { status: "sealed", tree_size: tree.size, added: pending.length };
}

export interface AnchorProof {
  status: "pending" | "sealed";
  leaf_index: number | null;
  tree_size: number | null;
  leaf_hash: string;
  inclusion_proof: string[];
  checkpoint: string | null;
}

/** A publication's place in the log, for its receipt. */
export async function anchorProofOf(env: Bindings, publicationId: string): Promise<AnchorProof | null> {
  const db = database(env.DB);
  const entry = await entryOfPublication(db, publicationId);
  if (!entry) return null;
  if (entry.leafIndex === null || entry.sealedTreeSize === null) {
    return { status: "pending", leaf_index: null, tree_size: null, leaf_hash: entry.leafHash, inclusion_proof: [], checkpoint: null };
  }
  const checkpoint = await checkpointOfSize(db, entry.sealedTreeSize);
  return {
    status: "sealed",
    leaf_index: entry.leafIndex,
    tree_size: entry.sealedTreeSize,
    leaf_hash: entry.leafHash,
    inclusion_proof: JSON.parse(entry.inclusionProof ?? "[]") as string[],
    checkpoint: checkpoint?.note ?? null,
  };
}

/** The log's verifier key in signed-note form, or null when anchoring is not configured. */
export async function verifierKey(env: Bindings): Promise<string | null> {
  const keys = logKeys(env);
  return keys ? checkpointVerifierKey(anchorOrigin(env), (await keys).publicKey) : null;
}

/** The newest signed checkpoint, or null before the first sealing. */
export async function latestCheckpoint(env: Bindings) {
  return newestCheckpoint(database(env.DB));
}

/**
 * `matched` names the publication whose entry proved inclusion; `deleted_at` is set when its owner deleted it since
 * (the entry stays provable, but resolves to "deleted", never to a dangling id).
 */
export type AnchorCheck =
  | { status: "matched"; publication_id: string; deleted_at: number | null }
  | { status: "not_found" | "pending" | "proof_failed" }
  | { status: "not_configured" };

/** Entries of one manifest read for anchorMatch. */
const MATCH_ENTRIES = 5;

/** anchorMatch's first read, done by the caller in a D1 batch of its own (one round trip fewer). */
export interface AnchorEntriesRead {
  manifestSha256Hex: string;
  entries: AnchorEntryRow[];
}

/**
 * anchorMatch's first read as a statement for the caller's batch, with how to read its result; null when no log
 * key is configured (anchorMatch then reads nothing).
 */
export function anchorEntriesStatement(
  env: Bindings,
  manifestSha256Hex: string,
): { statement: D1PreparedStatement; read(result: D1Result | undefined): AnchorEntriesRead } | null {
  // logKeys's own condition, without importing the key here: anchorMatch does that, and handles its failure.
  if (!env.SVC_ANCHOR_KEY_PEM) return null;
  return {
    statement: entriesOfManifestStatement(database(env.DB), manifestSha256Hex, MATCH_ENTRIES),
    read: (result) => ({ manifestSha256Hex, entries: entriesOfManifestRows(result) }),
  };
}

/**
 * Whether a manifest store (by its SHA-256) is in a sealed batch: the stored proof is recomputed against the
 * signed checkpoint, whose signature is verified first. Nothing stored is taken on trust. `read`: the entries
 * already read for this store (anchorEntriesStatement in the caller's batch).
 */
export async function anchorMatch(env: Bindings, manifestSha256Hex: string, read?: AnchorEntriesRead): Promise<AnchorCheck> {
  const keysPromise = logKeys(env);
  if (!keysPromise) return { status: "not_configured" };
  const keys = await keysPromise;
  const db = database(env.DB);
  const entries =
    read?.manifestSha256Hex === manifestSha256Hex ? read.entries : await entriesOfManifest(db, manifestSha256Hex, MATCH_ENTRIES);
  if (entries.length === 0) return { status: "not_found" };
  const sealed = entries.filter((e) => e.leafIndex !== null && e.sealedTreeSize !== null);
  if (sealed.length === 0) return { status: "pending" };
  for (const entry of sealed) {
    const checkpoint = await checkpointOfSize(db, entry.sealedTreeSize!);
    if (!checkpoint) continue;
    const head = await verifyCheckpoint(checkpoint.note, keys.publicKey, { origin: anchorOrigin(env) });
    if (head.status !== "valid" || head.treeSize !== entry.sealedTreeSize) continue;
    const expectedLeaf = await manifestLeafHash(manifestSha256Hex, entry.publicationId);
    if (expectedLeaf !== entry.leafHash) continue;
    const ok = await verifyInclusion({
      leafHash: fromHex(expectedLeaf),
      index: entry.leafIndex!,
      treeSize: head.treeSize,
      proof: (JSON.parse(entry.inclusionProof ?? "[]") as string[]).map(fromHex),
      rootHash: head.rootHash,
    });
    if (ok)
      return { status: "matched", publication_id: entry.publicationId, deleted_at: await publicationDeletedAt(db, entry.publicationId) };
  }
  return { status: "proof_failed" };
}

/** The public view of a signed checkpoint. */
export async function checkpointView(env: Bindings, row: CheckpointRow) {
  return {
    origin: anchorOrigin(env),
    tree_size: row.treeSize,
    root_hash: row.rootHash,
    checkpoint: row.note,
    verifier_key: await verifierKey(env),
    sealed_at: new Date(row.sealedAt).toISOString(),
  };
}
