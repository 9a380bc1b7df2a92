import { expect } from "vitest";
import { concatBytes } from "../../../src/platform/bytes";
import { readPixelMemo } from "../../../src/verifications/pixel-memo";
import { api, callUrl, json, testEnv, uploadAsset, waitForJob } from "./helpers";
import { observedD1 } from "./observed-d1";

/**
 * A JPEG published by express signing (watermark, both image fingerprints, sign): its bytes and publication, once
 * the publication's follow-up (the jobs queue's run of the completed job) has filled its pixel memo.
 */
export async function publishedJpeg(key: string, source: Uint8Array) {
  const { assetId } = await uploadAsset(key, source, "image/jpeg", "photo");
  const signed = await api("/v1/sign", {
    method: "POST",
    key,
    body: {
      asset_id: assetId,
      recipe_id: "rcp_system_express_watermark_then_sign",
      mode: "express",
      fingerprint_algorithms: ["iscc-image", "pdq"],
    },
    headers: { "idempotency-key": crypto.randomUUID() },
  });
  const answered = await json(signed);
  // Under load the express answer may come before the run ends (202, running): the job still completes.
  const job = answered.state === "completed" ? answered : await waitForJob(key, answered.job_id, 90_000);
  expect(job.state, JSON.stringify(job)).toBe("completed");
  const d = await json(await api(`/v1/assets/${assetId}/download`, { method: "POST", key }));
  const res = await callUrl(d.url, { method: "GET", headers: d.headers });
  const publicationId = job.result.publication_id as string;
  // Hang guard only: the follow-up runs within the queue's batch timeout once the answer is sent.
  for (let i = 0; i < 600 && (await memoRows(publicationId)).length === 0; i++) await new Promise((r) => setTimeout(r, 100));
  return { assetId, publicationId, bytes: new Uint8Array(await res.arrayBuffer()) };
}

export async function memoRows(publicationId: string) {
  const rows = await testEnv.DB.prepare("SELECT * FROM verify_pixel_memos WHERE publication_id = ?").bind(publicationId).all();
  return rows.results as { signature_sha256: string; pixels_sha256: string; version: number; facts: string; measured_at: number }[];
}

/** The JPEG's segments before its first scan, and the rest (from SOS on). */
export function jpegSegments(bytes: Uint8Array): { marker: number; bytes: Uint8Array }[] {
  const out: { marker: number; bytes: Uint8Array }[] = [];
  let i = 2;
  while (i < bytes.length) {
    const marker = bytes[i + 1]!;
    if (marker === 0xda) {
      out.push({ marker, bytes: bytes.subarray(i) });
      return out;
    }
    const end = i + 2 + ((bytes[i + 2]! << 8) | bytes[i + 3]!);
    out.push({ marker, bytes: bytes.subarray(i, end) });
    i = end;
  }
  return out;
}

/** `target` with its own APP11 segments replaced by `donor`'s (inserted where the target's first APP11 was, else after APP0). */
export function withStoreOf(target: Uint8Array, donor: Uint8Array): Uint8Array {
  const donorStore = jpegSegments(donor)
    .filter((s) => s.marker === 0xeb)
    .map((s) => s.bytes);
  const segments = jpegSegments(target);
  const at = Math.max(
    0,
    segments.findIndex((s) => s.marker === 0xeb),
  );
  const kept = segments.filter((s) => s.marker !== 0xeb).map((s) => s.bytes);
  const insertAt = segments.some((s) => s.marker === 0xeb) ? at : segments[0]?.marker === 0xe0 ? 1 : 0;
  return concatBytes([new Uint8Array([0xff, 0xd8]), ...kept.slice(0, insertAt), ...donorStore, ...kept.slice(insertAt)]);
}

/** The pixel memo a verification of `subject` would use (readPixelMemo's; null when no read was made or none applies). */
export async function pixelMemoFor(...args: Parameters<typeof readPixelMemo>) {
  return (await readPixelMemo(...args))?.memo ?? null;
}

/** The pixel memo's read (the first statement of its batch). */
export const MEMO_READ = "FROM verify_pixel_memos WHERE signature_sha256 = ?";
/** The exact lookup of soft-bindings/repo.ts indexMatches (its value bound), i.e. the index lookup's own batch. */
export const INDEX_EXACT = "WHERE sb.algorithm = ? AND sb.bits = ? ORDER BY";

/** A D1 that records each batch's SQL; with `hideSpeculated`, the memo row reads as if its lookups' values were not given. */
export function watchedD1(options: { hideSpeculated?: boolean; afterMemoBatch?: () => Promise<void> } = {}) {
  const batches: string[][] = [];
  const alone: string[] = [];
  const texts = new WeakMap<object, string>();
  const observed = observedD1(testEnv.DB, { onBind: (sql, _binds, bound) => texts.set(bound, sql) });
  const d1 = new Proxy(observed, {
    get(target, prop) {
      if (prop === "batch")
        return async (statements: D1PreparedStatement[]) => {
          const sqls = statements.map((s) => texts.get(s) ?? "?");
          batches.push(sqls);
          const results = await target.batch(statements);
          if (sqls[0]?.includes(MEMO_READ)) {
            if (options.hideSpeculated)
              for (const row of results[0]!.results as Record<string, unknown>[]) {
                row.spec_watermark = null;
                row.spec_iscc = null;
              }
            await options.afterMemoBatch?.();
          }
          return results;
        };
      if (prop === "prepare")
        return (sql: string) => {
          const p = target.prepare(sql);
          return new Proxy(p, {
            get(s, name) {
              if (name === "first" || name === "all" || name === "run" || name === "raw") alone.push(sql);
              const v = Reflect.get(s, name);
              return typeof v === "function" ? v.bind(s) : v;
            },
          });
        };
      const v = Reflect.get(target, prop);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  return { d1, batches, alone };
}
