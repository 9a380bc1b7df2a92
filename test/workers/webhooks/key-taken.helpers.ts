import type { Bindings } from "../../../src/env";
import { IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_TTL_MS } from "../../../src/platform/idempotency";
import { beforeBatch } from "../support/webhooks.helpers";

/**
 * An env whose first D1 batch that claims or completes an Idempotency-Key (platform/idempotency completionInBatch)
 * runs after another request took the key: a claim taken before running has its lease moved on (a retry took it
 * over), and a key to be claimed in the batch (claimKeyInBatch) is found claimed, in flight, by a request with the
 * same fingerprint (the client's retry, first). Either way the request no longer holds the key when its batch runs.
 */
export function keyTakenBeforeBatch(base: Bindings, s: { tenantId: string; operation: string; key: string; requestSha256: string }) {
  return beforeBatch(
    base,
    /INSERT INTO idempotency_records|UPDATE idempotency_records SET state = 'completed'/,
    (db) => {
      const now = Date.now();
      return db
        .prepare(
          `INSERT INTO idempotency_records (tenant_id, operation, idempotency_key, request_sha256, state, locked_until, secret_withheld, created_at, expires_at)
           VALUES (?, ?, ?, ?, 'in_flight', ?, 0, ?, ?)
           ON CONFLICT (tenant_id, operation, idempotency_key) DO UPDATE SET locked_until = locked_until + 60000`,
        )
        .bind(s.tenantId, s.operation, s.key, s.requestSha256, now + IDEMPOTENCY_LEASE_MS + 60_000, now, now + IDEMPOTENCY_TTL_MS)
        .run();
    },
    { once: true },
  );
}
