/*
 * The engine's trust verdicts on files whose manifest store it has read, per isolate (the engine path of verifyManifest:
 * the stores the fast validator judges, fast-validator.ts, never reach it). With trust checks on, c2pa-wasm parses
 * every anchor and walks every certificate chain of the store on each read (~9 of the ~22 CPU ms of a 1 MP
 * verification); a read without them still checks every signature, hash, timestamp token and validity period.
 * A file seen again (the same bytes: its store, and whatever else the engine reads in it) under the same anchors
 * gets the same trust verdict, so from its third read on the engine reads it without trust checks and the verdict
 * learnt on its second read is applied, only when the read without them reports exactly what it reported then
 * (anything the clock changed is reported there, and then the engine reads with trust again).
 * Invariant: a verdict is applied only to the exact file bytes and anchors it was learnt from, within
 * VERDICT_TTL_MS, and only where its two reads (with and without trust) agreed on everything but validation.
 * Keyed by the whole file, never by the store our own extraction located: a file can carry a store our extraction
 * finds and another one the engine reads (the engine's JPEG parser does not look for segments where ours does), and
 * a verdict keyed by the first would be applied to the second.
 */
import { hex } from "../../platform/bytes";

/** The validation fields of the engine's json(): what trust checks change. */
export interface ValidationFields {
  validation_state?: string;
  validation_results?: unknown;
}

interface Learnt {
  /** The validation fields of the read without trust checks, as JSON. */
  without: string;
  /** The validation fields of the read with them. */
  full: ValidationFields;
  expires: number;
}

/** A verdict is relearnt after this: bounds anything time-dependent the read without trust could not show. */
const VERDICT_TTL_MS = 10 * 60_000;
/** Files remembered; oldest first out. */
const VERDICTS_MAX = 128;
/** Stores seen once under some anchors (a verdict is learnt from the second read on, so a file verified once pays nothing). */
const SEEN_MAX = 512;

const verdicts = new Map<string, Learnt>();
const seen = new Set<string>();
let applied = 0;

/** How many reads were answered with a learnt verdict (for tests and benchmarks). */
export function trustVerdictsApplied(): number {
  return applied;
}

const sha256 = async (bytes: Uint8Array) => hex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));

/**
 * What to do for a file: read without trust checks and apply a verdict, learn one, or just read with trust
 * checks (a store not seen before); with the exact key for the first two: the SHA-256 of the whole file and of
 * the anchors' exact text. A store's first read hashes only the store (a file verified once does not pay for
 * hashing all of it, ~2 ms a MB). (Digests, not a JS hash of the bytes: a byte loop in JS costs ~40 ns a byte in
 * workerd, the digest is native.)
 */
export async function trustPlan(
  store: Uint8Array,
  file: Uint8Array,
  anchorsPem: string,
  now = Date.now(),
): Promise<{ plan: "apply" | "learn"; key: string } | { plan: "read"; key: null }> {
  const anchors = await sha256(new TextEncoder().encode(anchorsPem));
  const storeKey = `${await sha256(store)}:${anchors}`;
  if (!seen.has(storeKey)) {
    if (seen.size >= SEEN_MAX) seen.delete(seen.values().next().value!);
    seen.add(storeKey);
    return { plan: "read", key: null };
  }
  const key = `${await sha256(file)}:${anchors}`;
  const learnt = verdicts.get(key);
  if (learnt && learnt.expires > now) return { plan: "apply", key };
  if (learnt) verdicts.delete(key);
  return { plan: "learn", key };
}

const validationJson = (v: ValidationFields) =>
  JSON.stringify({ validation_state: v.validation_state ?? null, validation_results: v.validation_results ?? null });

/** The rest of a json() reading: everything but its validation fields. */
const restJson = (store: Record<string, unknown>) => {
  const { validation_state: _state, validation_results: _results, ...rest } = store;
  return JSON.stringify(rest);
};

/**
 * Records the verdict of `full` (read with trust checks) against `without` (the same store and asset read without
 * them), unless the two readings differ in anything but their validation fields.
 */
export function learnTrustVerdict(key: string, full: Record<string, unknown>, without: Record<string, unknown>, now = Date.now()): void {
  if (restJson(full) !== restJson(without)) return;
  if (verdicts.size >= VERDICTS_MAX) verdicts.delete(verdicts.keys().next().value!);
  verdicts.set(key, {
    without: validationJson(without as ValidationFields),
    full: { validation_state: full.validation_state as string | undefined, validation_results: full.validation_results },
    expires: now + VERDICT_TTL_MS,
  });
}

/**
 * `without` (read without trust checks) with the learnt verdict's validation fields, or null when its own
 * validation fields are not exactly those it had when the verdict was learnt (then read with trust checks).
 */
export function applyTrustVerdict<T extends ValidationFields>(key: string, without: T): T | null {
  const learnt = verdicts.get(key);
  if (!learnt || learnt.without !== validationJson(without)) return null;
  applied++;
  return {
    ...without,
    validation_state: learnt.full.validation_state,
    validation_results: structuredClone(learnt.full.validation_results),
  };
}
