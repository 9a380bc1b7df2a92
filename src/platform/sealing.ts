import type { Database } from "../db/client";
import { base64url, concatBytes, fromBase64url, hex, utf8 } from "./bytes";
import { type DataKeyRow, dataKeysNotUnder, findDataKey, findTenantDataKey, insertDataKeyIfAbsent, rewrapDataKey } from "./data-keys/repo";
import { randomBase32 } from "./ids";
import { log } from "./logger";

/*
 * Envelope encryption of personal data at rest.
 *
 * - Master keys come from the secret SVC_DATA_MASTER_KEYS = "kid:base64url(32 bytes),kid:…". The first is current
 *   (new data keys are wrapped by it); the others only unwrap, so a master key can rotate: put the new one first,
 *   let `rewrapDataKeys` (the cron sweep) move every data key under it, then drop the old one.
 * - Each tenant has one 32-byte data key (tenant_data_keys), stored only wrapped: AES-GCM under a master key with
 *   AAD "svc.data-key.v1 / tenant / data key id / master key id", so a wrapped key cannot be moved to another row.
 * - From the data key, HKDF-SHA-256 derives the sealing key (AES-256-GCM) and a lookup key (HMAC-SHA-256). A sealed
 *   field is base64url(12-byte IV ‖ ciphertext ‖ tag) with AAD "svc.sealed.v1 / tenant / record id / field", so a
 *   sealed value copied to another tenant, record or column fails to open. Rewrapping never touches sealed fields.
 */

/** A master key of SVC_DATA_MASTER_KEYS. Invariant: `key` is a non-extractable AES-256-GCM key. */
export interface MasterKey {
  id: string;
  key: CryptoKey;
}

/** The parsed SVC_DATA_MASTER_KEYS. Invariant: `current` is also in `byId`; ids are unique. */
export interface MasterKeyRing {
  current: MasterKey;
  byId: ReadonlyMap<string, MasterKey>;
}

/** A tenant's unwrapped data key. Invariant: both keys are non-extractable and derived from the data key `id`. */
export interface DataKey {
  id: string;
  tenantId: string;
  sealKey: CryptoKey;
  lookupKey: CryptoKey;
}

/** Why personal data cannot be sealed or opened right now. */
export type SealingUnavailable = "no_master_key" | "master_key_unknown" | "data_key_unusable";

export type DataKeyResult = { status: "ok"; key: DataKey } | { status: "none" } | { status: "unavailable"; reason: SealingUnavailable };

const KID = /^[A-Za-z0-9_.-]{1,64}$/;
const rings = new Map<string, Promise<MasterKeyRing | null>>();

/** The master key ring of the environment; null when SVC_DATA_MASTER_KEYS is missing or malformed (logged, never its value). */
export function masterKeyRing(env: { SVC_DATA_MASTER_KEYS?: string }): Promise<MasterKeyRing | null> {
  const text = env.SVC_DATA_MASTER_KEYS?.trim();
  if (!text) return Promise.resolve(null);
  let ring = rings.get(text);
  if (!ring) {
    ring = parseRing(text);
    if (rings.size > 8) rings.clear(); // a handful of values per isolate at most (tests swap them)
    rings.set(text, ring);
  }
  return ring;
}

async function parseRing(text: string): Promise<MasterKeyRing | null> {
  const keys: MasterKey[] = [];
  for (const [index, entry] of text.split(",").entries()) {
    const separator = entry.indexOf(":");
    const id = entry.slice(0, separator).trim();
    const raw = fromBase64url(entry.slice(separator + 1).trim());
    if (separator < 1 || !KID.test(id) || raw?.length !== 32 || keys.some((k) => k.id === id)) {
      log.error("SVC_DATA_MASTER_KEYS is malformed: personal data cannot be sealed or opened", { entry: index });
      return null;
    }
    keys.push({ id, key: await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]) });
  }
  return { current: keys[0]!, byId: new Map(keys.map((k) => [k.id, k])) };
}

const IV_BYTES = 12;

async function encrypt(key: CryptoKey, aad: string, plaintext: Uint8Array): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const ciphertext = await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: utf8(aad) }, key, plaintext);
  return base64url(concatBytes([iv, new Uint8Array(ciphertext)]));
}

async function decrypt(key: CryptoKey, aad: string, sealed: string): Promise<Uint8Array | null> {
  const bytes = fromBase64url(sealed);
  if (!bytes || bytes.length < IV_BYTES + 16) return null;
  try {
    const plaintext = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: bytes.slice(0, IV_BYTES), additionalData: utf8(aad) },
      key,
      bytes.slice(IV_BYTES),
    );
    return new Uint8Array(plaintext);
  } catch {
    return null;
  }
}

const wrapAad = (tenantId: string, dataKeyId: string, masterKeyId: string) => `svc.data-key.v1\n${tenantId}\n${dataKeyId}\n${masterKeyId}`;

async function deriveDataKey(id: string, tenantId: string, material: Uint8Array): Promise<DataKey> {
  const base = await crypto.subtle.importKey("raw", material, "HKDF", false, ["deriveKey"]);
  const hkdf = (info: string) => ({ name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: utf8(info) });
  const [sealKey, lookupKey] = await Promise.all([
    crypto.subtle.deriveKey(hkdf("svc.seal.v1"), base, { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]),
    crypto.subtle.deriveKey(hkdf("svc.lookup.v1"), base, { name: "HMAC", hash: "SHA-256", length: 256 }, false, ["sign"]),
  ]);
  return { id, tenantId, sealKey, lookupKey };
}

async function unwrap(ring: MasterKeyRing, row: DataKeyRow): Promise<DataKeyResult> {
  const master = ring.byId.get(row.masterKeyId);
  if (!master) return { status: "unavailable", reason: "master_key_unknown" };
  const material = await decrypt(master.key, wrapAad(row.tenantId, row.id, master.id), row.wrapped);
  if (material?.length !== 32) return { status: "unavailable", reason: "data_key_unusable" };
  return { status: "ok", key: await deriveDataKey(row.id, row.tenantId, material) };
}

/**
 * The tenant's data key, unwrapped. `create`: make (and wrap under the current master key) the tenant's first one
 * when there is none; without it a tenant with no data key gets `none`.
 */
export async function tenantDataKey(
  db: Database,
  env: { SVC_DATA_MASTER_KEYS?: string },
  tenantId: string,
  options: { create: boolean },
): Promise<DataKeyResult> {
  const ring = await masterKeyRing(env);
  if (!ring) return { status: "unavailable", reason: "no_master_key" };
  let row = await findTenantDataKey(db, tenantId);
  if (!row) {
    if (!options.create) return { status: "none" };
    const id = `dk_${randomBase32(16)}`;
    const material = crypto.getRandomValues(new Uint8Array(32));
    const wrapped = await encrypt(ring.current.key, wrapAad(tenantId, id, ring.current.id), material);
    await insertDataKeyIfAbsent(db, { id, tenantId, masterKeyId: ring.current.id, wrapped, createdAt: Date.now() });
    row = await findTenantDataKey(db, tenantId); // a concurrent first use may have won: use whichever was stored
    if (!row) return { status: "unavailable", reason: "data_key_unusable" };
  }
  return unwrap(ring, row);
}

/** A data key by its id (what a sealed record names), for the tenant that owns the record. */
export async function dataKeyById(db: Database, env: { SVC_DATA_MASTER_KEYS?: string }, tenantId: string, dataKeyId: string) {
  const ring = await masterKeyRing(env);
  if (!ring) return { status: "unavailable", reason: "no_master_key" } satisfies DataKeyResult;
  const row = await findDataKey(db, dataKeyId);
  if (!row || row.tenantId !== tenantId) return { status: "unavailable", reason: "data_key_unusable" } satisfies DataKeyResult;
  return unwrap(ring, row);
}

/** Where a sealed value belongs: the AAD binds it to its tenant (the data key's), record and field. */
export interface SealContext {
  recordId: string;
  field: string;
}

const sealAad = (key: DataKey, ctx: SealContext) => `svc.sealed.v1\n${key.tenantId}\n${ctx.recordId}\n${ctx.field}`;

export function seal(key: DataKey, ctx: SealContext, plaintext: Uint8Array): Promise<string> {
  return encrypt(key.sealKey, sealAad(key, ctx), plaintext);
}

/** The plaintext, or null when the value was not sealed by this key for this tenant, record and field. */
export function open(key: DataKey, ctx: SealContext, sealed: string): Promise<Uint8Array | null> {
  return decrypt(key.sealKey, sealAad(key, ctx), sealed);
}

/** Keyed hash for equality lookups without plaintext: hex HMAC-SHA-256 under the data key's lookup key. */
export async function lookupHash(key: DataKey, purpose: string, value: string): Promise<string> {
  return hex(await crypto.subtle.sign("HMAC", key.lookupKey, utf8(`${purpose}\n${value}`)));
}

/** What one rewrap pass did. */
export interface RewrapReport {
  /** Data keys moved under the current master key. */
  rewrapped: number;
  /** Data keys whose master key is not in SVC_DATA_MASTER_KEYS (or that do not open): left as they are, logged. */
  unreadable: number;
}

/**
 * Re-wraps every data key not wrapped by the current master key under it, without touching any sealed record.
 * Idempotent and safe to run concurrently (each row moves once). Without a usable ring it does nothing.
 */
export async function rewrapDataKeys(db: Database, env: { SVC_DATA_MASTER_KEYS?: string }, now = Date.now()): Promise<RewrapReport> {
  const report: RewrapReport = { rewrapped: 0, unreadable: 0 };
  const ring = await masterKeyRing(env);
  if (!ring) return report;
  let after = "";
  for (;;) {
    const rows = await dataKeysNotUnder(db, ring.current.id, after, 100);
    for (const row of rows) {
      const master = ring.byId.get(row.masterKeyId);
      const material = master && (await decrypt(master.key, wrapAad(row.tenantId, row.id, master.id), row.wrapped));
      if (material?.length !== 32) {
        report.unreadable++;
        log.warn("data key cannot be rewrapped", { data_key_id: row.id, master_key_id: row.masterKeyId });
        continue;
      }
      const wrapped = await encrypt(ring.current.key, wrapAad(row.tenantId, row.id, ring.current.id), material);
      if (await rewrapDataKey(db, { id: row.id, fromMasterKeyId: row.masterKeyId, toMasterKeyId: ring.current.id, wrapped }, now))
        report.rewrapped++;
    }
    if (rows.length < 100) break;
    after = rows[rows.length - 1]!.id;
  }
  // While a rotation is under way (more than one key configured) every sweep reports, zeros included: the operator
  // drops the old key after consecutive zero reports.
  if (report.rewrapped > 0 || report.unreadable > 0 || ring.byId.size > 1)
    log.info("data keys rewrapped", { ...report, master_key_id: ring.current.id, configured_keys: ring.byId.size });
  return report;
}
