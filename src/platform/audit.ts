import type { MiddlewareHandler } from "hono";
import type { Database } from "../db/client";
import type { Bindings } from "../env";
import type { AppContext, AppEnv } from "./context";
import { ApiError } from "./errors";
import { ID_PREFIX } from "./ids";
import type { Principal } from "./principal";

/**
 * Who did something, as the audit records it. `api_key` and `console_user` are callers of the API; the two providers
 * reach us through their signed callbacks; `operator` is a person running an operator script against the database
 * (legal holds); `service` is the Worker's own background work (an export sealed, a deletion carried out).
 */
export type AuditActorKind = "api_key" | "console_user" | "identity_provider" | "payment_provider" | "operator" | "service";

/**
 * One audit entry before the chain numbers and hashes it.
 * `action` is the operation key (`POST /v1/api-keys`) for an API write, or a named event (`session.provisioned`,
 * `creator.disclosure_read`, `export.completed`, …) for anything else. `detail` is small, never holds personal data
 * or secrets (ids, counts, reasons, field names only) and is stored as canonical JSON.
 */
export interface AuditDraft {
  action: string;
  outcome: "succeeded" | "denied" | "failed";
  actorKind: AuditActorKind;
  actorId: string | null;
  credentialId: string | null;
  requestId: string | null;
  targetType: string | null;
  targetId: string | null;
  statusCode: number | null;
  detail: Record<string, unknown> | null;
  /** Epoch ms; defaults to the time of appending. */
  occurredAt?: number;
  /**
   * The audit_outbox row that keeps this entry apart, dropped by the write that appends it (not part of the entry).
   * The row decides who appends: a draft naming it is appended only while it is still there, so of the request's
   * own append and the sweep's (both name it) exactly one lands the entry; the other resolves without appending.
   */
  keptAs?: string;
}

/**
 * Where audit entries go (implemented by governance/audit over the AuditChain Durable Object, handed in by app.ts
 * and the queue wiring so platform never imports an area).
 * Invariant: `append` resolves only once every draft is durably in the tenant's chain, in the order given, each
 * hash-linked to the one before; it rejects (and writes nothing for the drafts it rejects) otherwise.
 */
export interface AuditSink {
  append(env: Bindings, tenantId: string, drafts: readonly AuditDraft[]): Promise<void>;
  /**
   * Keeps one entry whose append failed durably apart (in D1), with its time, for the sweep to append to the chain
   * later (once). Resolves only once it is kept; rejects when it could not be.
   */
  defer(env: Bindings, tenantId: string, draft: AuditDraft & { requestId: string }): Promise<void>;
  /**
   * The statement that keeps one entry apart (as `defer`) inside a write's own D1 batch, only when `onlyIf` holds,
   * not claimable by the sweep before `claimedUntil` (the request appends it itself meanwhile: an append of a
   * draft naming `keptAs` drops the kept row in the chain's own write). Optional: without it no write keeps its
   * entry in its batch.
   */
  keepStatement?(
    d1: D1Database,
    tenantId: string,
    kept: { id: string; draft: string; now: number; claimedUntil: number },
    onlyIf: { sql: string; binds: readonly unknown[] },
  ): D1PreparedStatement;
  /**
   * Whether the tenant's audit holds a succeeded entry of `action` on `targetId` (that write was answered): in the
   * chain, or kept by `defer` for the sweep. Only the audit area reads its tables; other areas ask here.
   */
  holdsSucceeded(db: Database, tenantId: string, action: string, targetId: string): Promise<boolean>;
}

let installed: AuditSink | null = null;

/** Called once by the wiring (app.ts); areas then record through `recordAudit` / `auditOf(c)`. */
export function installAuditSink(sink: AuditSink) {
  installed = sink;
}

/** Appends entries to a tenant's audit chain outside a request (queue consumers, sweeps, callbacks). */
export async function recordAudit(env: Bindings, tenantId: string, drafts: AuditDraft | readonly AuditDraft[]): Promise<void> {
  if (!installed) throw new Error("no audit sink installed");
  await installed.append(env, tenantId, Array.isArray(drafts) ? drafts : [drafts as AuditDraft]);
}

/** See AuditSink.holdsSucceeded (api-keys: whether a revoke that landed was answered, #22). */
export async function auditHoldsSucceeded(db: Database, tenantId: string, action: string, targetId: string): Promise<boolean> {
  if (!installed) throw new Error("no audit sink installed");
  return installed.holdsSucceeded(db, tenantId, action, targetId);
}

/** The actor fields of an authenticated principal; null for an anonymous caller (nothing to attribute). */
export function actorOf(principal: Principal): Pick<AuditDraft, "actorKind" | "actorId" | "credentialId"> | null {
  if (principal.kind === "api_key") return { actorKind: "api_key", actorId: principal.apiKeyId, credentialId: principal.apiKeyId };
  // A session's credential is the provider's token, never stored: the user id names both actor and credential.
  if (principal.kind === "session") return { actorKind: "console_user", actorId: principal.userId, credentialId: principal.userId };
  return null;
}

/**
 * Records a named event done by this request's caller (e.g. a disclosure read, which is not a write but is
 * security-relevant). Awaited: when the entry cannot be appended the request fails with 503
 * `svc.audit.unavailable` (retryable) before anything is answered.
 */
export async function auditRequestEvent(
  c: AppContext,
  tenantId: string,
  event: Pick<AuditDraft, "action" | "targetType" | "targetId"> & Partial<Pick<AuditDraft, "outcome" | "detail" | "statusCode">>,
) {
  const actor = actorOf(c.var.principal) ?? { actorKind: "service" as const, actorId: null, credentialId: null };
  try {
    await recordAudit(c.env, tenantId, {
      outcome: "succeeded",
      statusCode: null,
      detail: null,
      ...event,
      ...actor,
      requestId: c.var.requestId,
    });
  } catch (error) {
    c.var.log.error("audit append failed", { action: event.action, error: String(error) });
    throw new ApiError("svc.audit.unavailable");
  }
}

/**
 * How long an entry kept by its write's batch stays unclaimable by the sweep: the request appends it itself well
 * within this; a request that died (or whose append failed) leaves it to the sweep after it.
 */
const KEPT_IN_BATCH_MS = 5 * 60_000;

/** A write's audit entry planned before its batch and kept there (auditInBatch), by the request's context. */
const planned = new WeakMap<object, { draft: AuditDraft & { requestId: string; occurredAt: number }; keptAs: string; kept: boolean }>();

/**
 * This write's audit entry kept in the audit outbox by the write's own D1 batch (#19), for a write that completes
 * its idempotency key in that batch (platform/idempotency completionInBatch): the entry auditWrites would append
 * for a `status` answer, decided before the batch, so that a crash after the batch still leaves the write's entry
 * for the sweep to append (the retry is answered the stored answer, and a replayed answer is never audited).
 * auditWrites then appends that very entry, which drops the kept row in the chain's own write. Undefined when the
 * entry cannot be known before the answer (the target named only by the response), for a write the audit does not
 * record, or when the sink keeps no entry in a batch.
 */
export function auditInBatch(
  c: AppContext,
  status: number,
):
  | { statement(d1: D1Database, onlyIf: { sql: string; binds: readonly unknown[] }): D1PreparedStatement; settle(kept: boolean): void }
  | undefined {
  const operation = c.var.operation;
  const principal = c.var.principal;
  const actor = principal ? actorOf(principal) : null;
  const sink = installed;
  if (!sink?.keepStatement || !operation || !actor || principal.kind === "anonymous" || QUERIES.has(operation.key)) return undefined;
  if (!MUTATING.has(c.req.method) || status < 200 || status >= 300) return undefined;
  const target = targetOfPath(c);
  if (!target) return undefined;
  const now = Date.now();
  const draft = {
    action: operation.key,
    outcome: "succeeded" as const,
    ...actor,
    requestId: c.var.requestId,
    ...target,
    statusCode: status,
    detail: null,
    occurredAt: now,
  } satisfies AuditDraft;
  const plan = { draft, keptAs: crypto.randomUUID(), kept: false };
  const tenantId = principal.tenantId;
  return {
    statement: (d1, onlyIf) =>
      sink.keepStatement!(
        d1,
        tenantId,
        { id: plan.keptAs, draft: JSON.stringify(draft), now, claimedUntil: now + KEPT_IN_BATCH_MS },
        onlyIf,
      ),
    settle: (kept) => {
      plan.kept = kept;
      if (kept) planned.set(c, plan);
    },
  };
}

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/** POST operations that are queries: they change nothing, so they are not audited as writes. */
const QUERIES = new Set([
  "POST /v1/billing/quotes",
  "POST /v1/soft-binding-resolution/matches/byBinding",
  "POST /v1/soft-binding-resolution/matches/byContent",
  // The MCP envelope: the writes its tools make are audited as the REST operations they call.
  "POST /mcp",
]);
/** id prefix → the resource type it names, to say what a create made (from the response's id). */
const TYPE_OF_PREFIX = new Map<string, string>(Object.entries(ID_PREFIX).map(([kind, prefix]) => [prefix, snake(kind)]));

function snake(name: string): string {
  return name.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`);
}

/** The target a write's last path parameter names, or null when it has none. */
function targetOfPath(c: AppContext): { targetType: string; targetId: string | null } | null {
  const params = c.req.param() as Record<string, string>;
  const names = Object.keys(params);
  const last = names[names.length - 1];
  return last === undefined ? null : { targetType: last.replace(/_id$/, ""), targetId: params[last] ?? null };
}

/** What a write acted on: the last path parameter (`/v1/api-keys/{api_key_id}/rotate` → api_key), else the id the response names. */
async function targetOf(c: AppContext): Promise<{ targetType: string | null; targetId: string | null }> {
  const fromPath = targetOfPath(c);
  if (fromPath) return fromPath;
  if (c.res.status >= 300 || !c.res.headers.get("content-type")?.includes("application/json")) return { targetType: null, targetId: null };
  try {
    const body = (await c.res.clone().json()) as Record<string, unknown>;
    // The id the answer names at its top level, else in a nested record (`{ secret, api_key: { api_key_id } }`).
    const found =
      idIn(body) ?? Object.values(body).reduce<ReturnType<typeof idIn>>((hit, v) => hit ?? (isRecord(v) ? idIn(v) : null), null);
    if (found) return found;
  } catch {
    // not JSON after all: no target named
  }
  return { targetType: null, targetId: null };
}

/**
 * Appends one audit entry for every write an authenticated caller made, after the handler answered: succeeded
 * (2xx) or denied (403: the caller may not do this to that). Other refusals (validation, conflicts, limits) changed
 * nothing and are in the request log, not the audit. An idempotent replay never reaches here (it changed nothing).
 * The entry is awaited before the answer leaves (for a keyed write, by the idempotency middleware together with its
 * completion): a write whose audit entry cannot be appended (the chain's object unreachable) keeps the entry in D1
 * for the sweep to append with its original time (the write itself already happened and is not undone; only when
 * D1 cannot keep it either is it lost, logged as an error), except a write that issues a one-time secret, keyed or
 * not: its secret is never shown unaudited. It answers 503 (retryable: the idempotency middleware releases the key) after undoing what the
 * secret opens where the handler said how (`withdrawSecret`: a rotation is canceled, an unkeyed create revoked or
 * deleted, a webhook endpoint deleted keyed or not); a keyed API key create is left for its retry, which converges on
 * the same key and re-issues its secret.
 */
export const auditWrites: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (!MUTATING.has(c.req.method)) return;
  const operation = c.var.operation;
  const principal = c.var.principal;
  const actor = principal ? actorOf(principal) : null;
  if (!operation || !actor || principal.kind === "anonymous" || QUERIES.has(operation.key)) return;
  const status = c.res.status;
  const outcome = status >= 200 && status < 300 ? "succeeded" : status === 403 ? "denied" : null;
  if (!outcome) return;
  const target = await targetOf(c);
  const error = outcome === "denied" ? await errorCodeOf(c) : null;
  const issuesSecret = outcome === "succeeded" && "replay" in operation.policy && operation.policy.replay === "secret_not_replayable";
  // Kept by the write's own batch (auditInBatch): that very entry is appended (which drops the kept row); an
  // answer other than the one planned (a bug) is appended as it is, and the kept row is left for the sweep.
  const plan = planned.get(c);
  planned.delete(c);
  if (plan && (plan.draft.statusCode !== status || plan.draft.targetId !== target.targetId))
    c.var.log.error("audit entry kept in the batch differs from the answer given", { operation: operation.key });
  const keptInBatch = plan && plan.draft.statusCode === status && plan.draft.targetId === target.targetId ? plan : undefined;
  const draft = keptInBatch
    ? { ...keptInBatch.draft, keptAs: keptInBatch.keptAs }
    : ({
        action: operation.key,
        outcome,
        ...actor,
        requestId: c.var.requestId,
        ...target,
        statusCode: status,
        detail: error ? { error_code: error } : null,
        occurredAt: Date.now(),
      } satisfies AuditDraft);
  const append = recordAudit(c.env, principal.tenantId, draft).then(
    () => true,
    async (err) => {
      c.var.log.error("audit append failed", { operation: operation.key, error: String(err) });
      // Already kept by the write's batch: the sweep appends it once its claim lapses.
      if (keptInBatch) return true;
      // A write that happened keeps its entry: kept apart in D1 and appended by the sweep (a secret is never shown
      // on a promise of an entry, below).
      if (issuesSecret || !installed) return false;
      try {
        await installed.defer(c.env, principal.tenantId, draft);
        return true;
      } catch (deferError) {
        c.var.log.error("audit entry lost: neither appended nor kept", { operation: operation.key, error: String(deferError) });
        return false;
      }
    },
  );
  // A keyed write's idempotency completion awaits this append with its own write (platform/idempotency); a
  // secret's answer waits for its entry here, whether keyed or not (the one place that decides it is shown).
  const join = c.var.auditAppend;
  if (join && !issuesSecret) {
    join.pending = append;
    return;
  }
  if ((await append) || !issuesSecret) return;
  const withdraw = c.var.withdrawSecret;
  if (withdraw) {
    await withdraw().catch((err) => {
      // Nobody holds the secret (it is not shown): the credential is unusable though live. Logged to be found.
      c.var.log.error("withdrawing an unaudited secret failed", { operation: operation.key, error: String(err) });
    });
  }
  throw new ApiError(
    "svc.dependency.unavailable",
    "The audit log could not record this operation, so its one-time secret was not shown; retry the request (with the same Idempotency-Key, if it had one).",
    { headers: { "Retry-After": "1" } },
  );
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function idIn(record: Record<string, unknown>): { targetType: string; targetId: string } | null {
  for (const [field, value] of Object.entries(record)) {
    if (typeof value !== "string" || !(field === "id" || field.endsWith("_id"))) continue;
    const type = TYPE_OF_PREFIX.get(value.split("_")[0] ?? "");
    if (type) return { targetType: type, targetId: value };
  }
  return null;
}

async function errorCodeOf(c: AppContext): Promise<string | null> {
  try {
    const body = (await c.res.clone().json()) as { error?: { code?: unknown }; code?: unknown };
    const code = body.error?.code ?? body.code;
    return typeof code === "string" ? code.slice(0, 128) : null;
  } catch {
    return null;
  }
}
