// The operator's legal-hold commands (scripts/legal-hold.mjs), as functions over an `exec(sql) → rows` runner so
// they run the same against local or remote D1 (through wrangler) and in tests. Each hold placed or released is
// appended to the tenant's audit chain exactly as src/governance/audit/chain.ts hashes entries.
import { createHash } from "node:crypto";
import { newId } from "../../src/platform/ids.ts";

export const GENESIS_HASH = "0".repeat(64);
/** Must equal AUDIT_HASH_VERSION in src/governance/audit/chain.ts (a node test checks the two hashes agree). */
export const AUDIT_HASH_VERSION = "svc.audit-entry.v1";
const MAX_REASON = 500;
const MAX_NAME = 100;
const ID = (prefix) => new RegExp(`^${prefix}_[a-z2-7]{16}$`);
/**
 * What --by and --reason may hold. wrangler rewrites `BEGIN TRANSACTION;` / `COMMIT;` in a command even inside a
 * quoted literal, so no `;` (nor control characters, backslashes or other SQL-meaningful punctuation) gets through:
 * the operator's handle is a plain name, a reason is words, numbers and ordinary punctuation.
 */
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]*$/;
const SAFE_REASON = /^[\p{L}\p{N} .,:_\-/()#&'+@]+$/u;
/** Appends lost to a concurrent writer (the service's AuditChain object) are retried this many times. */
const MAX_APPEND_ATTEMPTS = 5;

/** SQL literal: NULL, a number, or a single-quoted string with quotes doubled (wrangler takes no bound parameters). */
export const sql = (value) =>
  value === null || value === undefined ? "NULL" : typeof value === "number" ? String(value) : `'${String(value).replace(/'/g, "''")}'`;

/** SHA-256 (hex) over the JSON array of every field but `hash`, in the order chain.ts `entryHash` uses. */
export function entryHash(e) {
  const text = JSON.stringify([
    AUDIT_HASH_VERSION,
    e.tenantId,
    e.seq,
    e.id,
    e.occurredAt,
    e.action,
    e.outcome,
    e.actorKind,
    e.actorId,
    e.credentialId,
    e.requestId,
    e.targetType,
    e.targetId,
    e.statusCode,
    e.detail,
    e.prevHash,
  ]);
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** Canonical JSON (keys sorted at every level), as chain.ts `canonicalDetail` stores details. */
export function canonicalDetail(detail) {
  const sort = (v) =>
    Array.isArray(v)
      ? v.map(sort)
      : v && typeof v === "object"
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sort(v[k])]),
          )
        : v;
  return JSON.stringify(sort(detail));
}

/** The operator entry following `head` (null: the chain is empty). */
export function operatorEntry(head, { tenantId, action, operator, holdId, detail, now = Date.now(), id = newId("auditEvent") }) {
  const unhashed = {
    tenantId,
    seq: (head?.seq ?? 0) + 1,
    id,
    occurredAt: now,
    action,
    outcome: "succeeded",
    actorKind: "operator",
    actorId: operator,
    credentialId: null,
    requestId: null,
    targetType: "legal_hold",
    targetId: holdId,
    statusCode: null,
    detail: canonicalDetail(detail),
    prevHash: head?.hash ?? GENESIS_HASH,
  };
  return { ...unhashed, hash: entryHash(unhashed) };
}

/** The entry's INSERT; with `onlyIf` (an SQL condition) it inserts nothing unless the condition holds. */
export function insertEntrySql(e, onlyIf = null) {
  const cols = [
    ["tenant_id", e.tenantId],
    ["seq", e.seq],
    ["id", e.id],
    ["occurred_at", e.occurredAt],
    ["action", e.action],
    ["outcome", e.outcome],
    ["actor_kind", e.actorKind],
    ["actor_id", e.actorId],
    ["credential_id", e.credentialId],
    ["request_id", e.requestId],
    ["target_type", e.targetType],
    ["target_id", e.targetId],
    ["status_code", e.statusCode],
    ["detail", e.detail],
    ["prev_hash", e.prevHash],
    ["hash", e.hash],
  ];
  const names = cols.map(([c]) => c).join(", ");
  const values = cols.map(([, v]) => sql(v)).join(", ");
  return onlyIf === null
    ? `INSERT INTO audit_events (${names}) VALUES (${values})`
    : `INSERT INTO audit_events (${names}) SELECT ${values} WHERE ${onlyIf}`;
}

const headSql = (tenantId) => `SELECT seq, hash FROM audit_events WHERE tenant_id = ${sql(tenantId)} ORDER BY seq DESC LIMIT 1`;

/**
 * Appends the audit entry and then runs `then` (the hold's own write) in the same command: an entry that lost its
 * seq to the service's writer fails the whole command before `then` runs, and is computed again from the new head.
 */
async function appendThen(exec, entryOf, then, onlyIf = null) {
  for (let attempt = 1; ; attempt++) {
    const [head] = await exec(headSql(entryOf.tenantId));
    const entry = operatorEntry(head ?? null, entryOf);
    try {
      await exec(`${insertEntrySql(entry, onlyIf)}; ${then}`);
      return entry;
    } catch (error) {
      if (attempt >= MAX_APPEND_ATTEMPTS || !/UNIQUE|PRIMARY KEY|constraint/i.test(String(error?.stderr ?? error?.message ?? error)))
        throw error;
    }
  }
}

function need(condition, message) {
  if (!condition) throw new UsageError(message);
}

export class UsageError extends Error {}

function needOperator(by) {
  need(
    typeof by === "string" && by.length > 0 && by.length <= MAX_NAME && SAFE_NAME.test(by),
    `--by is required: the operator's handle (letters, digits and . _ @ -, at most ${MAX_NAME} characters)`,
  );
}

/** Places a hold on a tenant (or one of its assets) and audits it as `legal_hold.placed` by the operator. */
export async function placeHold(exec, { tenant, asset = null, reason, by, now = Date.now() }) {
  need(ID("ten").test(tenant ?? ""), "--tenant must be a tenant id (ten_…)");
  need(asset === null || ID("ast").test(asset), "--asset must be an asset id (ast_…)");
  need(
    typeof reason === "string" && reason.trim().length > 0 && reason.length <= MAX_REASON,
    `--reason is required (at most ${MAX_REASON} characters)`,
  );
  need(SAFE_REASON.test(reason), "--reason may hold letters, digits, spaces and . , : _ - / ( ) # & ' + @ only (no ;)");
  needOperator(by);
  need((await exec(`SELECT id FROM tenants WHERE id = ${sql(tenant)}`)).length === 1, `no tenant ${tenant}`);
  if (asset !== null) {
    need(
      (await exec(`SELECT id FROM assets WHERE id = ${sql(asset)} AND tenant_id = ${sql(tenant)}`)).length === 1,
      `no asset ${asset} in tenant ${tenant}`,
    );
  }
  const holdId = newId("legalHold");
  const scope = asset === null ? "account" : "asset";
  const insertHold = `INSERT INTO legal_holds (id, tenant_id, scope, asset_id, reason, placed_by, placed_at) VALUES (${[holdId, tenant, scope, asset, reason, by, now].map(sql).join(", ")})`;
  const entry = await appendThen(
    exec,
    {
      tenantId: tenant,
      action: "legal_hold.placed",
      operator: by,
      holdId,
      detail: asset === null ? { scope } : { scope, asset_id: asset },
      now,
    },
    insertHold,
  );
  return { holdId, scope, asset, auditSeq: entry.seq };
}

/**
 * Releases an active hold and audits it as `legal_hold.released` by the operator. Both writes are conditional on the
 * hold being still active, in one command: of two concurrent releases one releases and is audited, the other
 * changes nothing, appends nothing and is told the hold was already released.
 */
export async function releaseHold(exec, { hold, by, now = Date.now() }) {
  need(ID("lgh").test(hold ?? ""), "--hold must be a legal hold id (lgh_…)");
  needOperator(by);
  const [row] = await exec(`SELECT tenant_id, scope, asset_id, released_at FROM legal_holds WHERE id = ${sql(hold)}`);
  need(row, `no hold ${hold}`);
  need(row.released_at === null, `hold ${hold} was already released`);
  const release = `UPDATE legal_holds SET released_at = ${sql(now)}, released_by = ${sql(by)} WHERE id = ${sql(hold)} AND released_at IS NULL`;
  const detail = row.asset_id ? { scope: row.scope, asset_id: row.asset_id } : { scope: row.scope };
  const stillActive = `EXISTS (SELECT 1 FROM legal_holds WHERE id = ${sql(hold)} AND released_at IS NULL)`;
  const entry = await appendThen(
    exec,
    { tenantId: row.tenant_id, action: "legal_hold.released", operator: by, holdId: hold, detail, now },
    release,
    stillActive,
  );
  const written = await exec(`SELECT id FROM audit_events WHERE tenant_id = ${sql(row.tenant_id)} AND id = ${sql(entry.id)}`);
  need(written.length === 1, `hold ${hold} was already released (by a concurrent release)`);
  return { holdId: hold, tenantId: row.tenant_id, auditSeq: entry.seq };
}

/** A tenant's holds, newest first. */
export async function listHolds(exec, { tenant }) {
  need(ID("ten").test(tenant ?? ""), "--tenant must be a tenant id (ten_…)");
  return exec(
    `SELECT id, scope, asset_id, reason, placed_by, placed_at, released_by, released_at FROM legal_holds WHERE tenant_id = ${sql(tenant)} ORDER BY placed_at DESC, id DESC`,
  );
}

/** `--name value` pairs (and bare flags) after the command. */
export function parseArgs(argv) {
  const [command, ...rest] = argv;
  const options = {};
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (!arg.startsWith("--")) throw new UsageError(`unexpected argument ${arg}`);
    const name = arg.slice(2);
    if (name === "remote") options.remote = true;
    else {
      const value = rest[i + 1];
      if (value === undefined || value.startsWith("--")) throw new UsageError(`--${name} needs a value`);
      options[name] = value;
      i++;
    }
  }
  return { command, options };
}
