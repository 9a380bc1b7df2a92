import { z } from "@hono/zod-openapi";
import type { Database } from "../db/client";
import type { Bindings } from "../env";
import { recordAudit } from "../platform/audit";
import { withFields } from "../platform/logger";
import { type IdpHeaders, idpSecretKey, verifyIdpSignature } from "./idp-signature";
import {
  applyIdpEvent,
  claimIdpEventAudit,
  clearPendingDeactivation,
  findIdpEvent,
  findUserByEmailIndex,
  findUserBySubject,
  type IdpEventRow,
  markIdpEventAudited,
  notePendingSubject,
  releaseIdpEventAudit,
  type UserChange,
  type UserRow,
} from "./repo/users";
import { emailIndexOf, sealEmail } from "./service";

/*
 * The identity provider's user-lifecycle callback (POST /webhooks/idp): rules without HTTP. Each event names a user
 * by the provider's subject (and optionally its issuer; default the configured session issuer), is applied at most
 * once per `idp-id`, and is audited in the user's account as done by `identity_provider`. A deactivation or
 * deletion of a subject with no user yet is kept (idp_pending_subjects) and refuses its just-in-time sign-up.
 */

const log = withFields({ component: "idp-callback" });

/** The lifecycle events understood; any other type is acknowledged and ignored (providers send many). */
export const IDP_EVENT_TYPES = ["user.deactivated", "user.reactivated", "user.deleted", "user.email_changed"] as const;
export type IdpEventType = (typeof IDP_EVENT_TYPES)[number];

export const IdpEventSchema = z
  .object({
    type: z
      .string()
      .min(1)
      .max(128)
      .openapi({
        description: `Event type. Understood: ${IDP_EVENT_TYPES.map((t) => `\`${t}\``).join(", ")}; any other type is acknowledged with result \`ignored\`.`,
        example: "user.deactivated",
      }),
    data: z
      .object({
        subject: z
          .string()
          .min(1)
          .max(255)
          .openapi({ description: "The user's subject (`sub`) at the identity provider.", example: "user_2x9k" }),
        issuer: z.string().min(1).max(512).optional().openapi({
          description: "The issuer the subject belongs to; default the configured session issuer (SVC_SESSION_ISSUER).",
          example: "https://idp.example.com",
        }),
        email: z.string().max(320).optional().openapi({
          description: "`user.email_changed` only: the new e-mail (required there, with `email_verified: true`).",
          example: "new@example.com",
        }),
        email_verified: z.boolean().optional().openapi({ description: "`user.email_changed` only: must be true.", example: true }),
      })
      .openapi({ description: "Who the event is about." }),
  })
  .openapi("IdpEvent", { description: "An identity-provider user-lifecycle event (Svix-style envelope)." });

export type IdpResult = "applied" | "unchanged" | "unknown_user" | "ignored";

export type IdpCallbackOutcome =
  | { status: "received"; result: IdpResult; duplicate: boolean }
  | { status: "unavailable" }
  | { status: "headers_invalid" }
  | { status: "signature_invalid" }
  | { status: "body_invalid" }
  | { status: "unprocessable"; message: string }
  | { status: "conflict"; message: string };

/** Verifies, deduplicates and applies one callback. `raw` is the exact body the signature covers. */
export async function handleIdpCallback(ctx: Ctx, headers: IdpHeaders, raw: string, now = Date.now()): Promise<IdpCallbackOutcome> {
  const key = idpSecretKey(ctx.env.SVC_IDP_WEBHOOK_SECRET);
  if (!key) return { status: "unavailable" };
  const signature = await verifyIdpSignature(headers, raw, key, now);
  if (signature === "headers_invalid") return { status: "headers_invalid" };
  if (signature !== "valid") return { status: "signature_invalid" };
  const id = headers.id as string;

  const seen = await findIdpEvent(ctx.db, id);
  if (seen) return replay(ctx, seen, now);

  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { status: "body_invalid" };
  }
  const event = IdpEventSchema.safeParse(parsed);
  if (!event.success) return { status: "unprocessable", message: "The event must be {type, data: {subject, …}} (see IdpEvent)." };
  const { type, data } = event.data;
  const issuer = data.issuer ?? ctx.env.SVC_SESSION_ISSUER?.trim();
  const record = { id, type: type.slice(0, 128), receivedAt: now };
  if (!(IDP_EVENT_TYPES as readonly string[]).includes(type)) return recordedAlone(ctx, { ...record, result: "ignored" });
  if (!issuer) return { status: "unprocessable", message: "data.issuer is required: no session issuer is configured." };
  // Decided on the user as read; the write only lands on that status, so a concurrent event that moved the user
  // first makes this one re-read and decide again (a deletion is never overwritten, see applyIdpEvent).
  let kept = false;
  for (let attempt = 0; attempt < IDP_APPLY_ATTEMPTS; attempt++) {
    const found = await findUserBySubject(ctx.db, issuer, data.subject);
    if (!found) {
      // No user yet: a deactivation or deletion is kept so the subject cannot sign up (see provision), then the
      // user is read once more, as it may have been provisioned meanwhile (provisioning reads the kept one after).
      if (!kept && (type === "user.deactivated" || type === "user.deleted")) {
        await notePendingSubject(ctx.db, issuer, data.subject, type === "user.deleted" ? "deleted" : "deactivated", now);
        kept = true;
        continue;
      }
      if (type === "user.reactivated") await clearPendingDeactivation(ctx.db, issuer, data.subject);
      return recordedAlone(ctx, { ...record, result: "unknown_user" });
    }
    const user = found.user;
    const change = await changeOf(ctx, type as IdpEventType, user, data, now);
    if ("status" in change) return change;
    const result: IdpResult = change.set ? "applied" : "unchanged";
    const outcome = await recorded(
      ctx,
      { ...record, tenantId: user.tenantId, userId: user.id, result },
      change.set ? { userId: user.id, from: user.status, set: change.set } : null,
      user,
    );
    if (outcome !== "stale") return outcome;
  }
  // Still racing after a few tries: nothing was recorded, so the provider's retry applies it later.
  log.warn("idp event kept losing a race; left to the provider's retry", { idp_event: type });
  return { status: "unavailable" };
}

/** Re-reads of the user before a callback that keeps losing races is answered unavailable (the provider retries). */
const IDP_APPLY_ATTEMPTS = 4;

type Change = { set: UserChange | null };
type Ctx = { db: Database; env: Bindings; requestId: string | null };

/** The user columns an event moves (null: already so), or a refusal. */
async function changeOf(
  ctx: Ctx,
  type: IdpEventType,
  user: UserRow,
  data: { email?: string; email_verified?: boolean },
  now: number,
): Promise<Change | Extract<IdpCallbackOutcome, { status: "unprocessable" | "conflict" | "unavailable" }>> {
  switch (type) {
    case "user.deactivated":
      return { set: user.status === "active" ? { status: "deactivated", updatedAt: now } : null };
    case "user.reactivated":
      if (user.status === "deleted") return { status: "conflict", message: "A deleted user cannot be reactivated." };
      return { set: user.status === "deactivated" ? { status: "active", updatedAt: now } : null };
    case "user.deleted":
      // Erases the personal data with the status; the row stays so the subject cannot provision a new account.
      return {
        set:
          user.status === "deleted"
            ? null
            : { status: "deleted", emailSealed: null, emailDataKeyId: null, emailIndex: null, updatedAt: now },
      };
    case "user.email_changed": {
      if (!data.email || data.email_verified !== true || !/^[^\s@]+@[^\s@]+$/.test(data.email)) {
        return { status: "unprocessable", message: "user.email_changed needs data.email with data.email_verified true." };
      }
      if (user.status === "deleted") return { status: "conflict", message: "A deleted user's e-mail cannot change." };
      const emailIndex = await emailIndexOf(ctx.env, data.email);
      if (!emailIndex) return { status: "unavailable" };
      if (emailIndex === user.emailIndex) return { set: null };
      const holder = await findUserByEmailIndex(ctx.db, emailIndex);
      if (holder && holder.id !== user.id) return { status: "conflict", message: "The new e-mail belongs to another user." };
      const sealed = await sealEmail(ctx.db, ctx.env, user.tenantId, user.id, data.email);
      if (!sealed) return { status: "unavailable" };
      return { set: { ...sealed, emailIndex, updatedAt: now } };
    }
  }
}

/** Records the callback (with its change, in one batch), then audits an applied change. "stale": re-decide. */
async function recorded(
  ctx: Ctx,
  event: Parameters<typeof applyIdpEvent>[1],
  change: Parameters<typeof applyIdpEvent>[2],
  user: UserRow | null,
): Promise<IdpCallbackOutcome | "stale"> {
  const stored = await applyIdpEvent(ctx.db, event, change);
  if (stored === "stale") return "stale";
  if (stored === "email_taken") return { status: "conflict", message: "The new e-mail belongs to another user." };
  if (stored === "duplicate") {
    const seen = await findIdpEvent(ctx.db, event.id);
    return seen ? replay(ctx, seen, event.receivedAt) : { status: "received", result: event.result as IdpResult, duplicate: true };
  }
  if (event.result === "applied" && user) await auditEvent(ctx, event.id, event.type, user.tenantId, user.id, event.receivedAt);
  return { status: "received", result: event.result as IdpResult, duplicate: false };
}

/** Records a callback that moves no user (so it is never stale). */
async function recordedAlone(ctx: Ctx, event: Parameters<typeof applyIdpEvent>[1]): Promise<IdpCallbackOutcome> {
  const outcome = await recorded(ctx, event, null, null);
  return outcome === "stale" ? { status: "unavailable" } : outcome;
}

/** A delivery of an event already recorded: its first result, and the audit entry if it is still owed. */
async function replay(ctx: Ctx, seen: IdpEventRow, now: number) {
  if (seen.result === "applied" && seen.auditedAt === null && seen.tenantId && seen.userId) {
    await auditEvent(ctx, seen.id, seen.type, seen.tenantId, seen.userId, now);
  }
  return { status: "received" as const, result: seen.result as IdpResult, duplicate: true };
}

/**
 * Appends the event to the user's account audit, then marks it audited. Only the delivery holding the audit claim
 * appends (concurrent deliveries of one event audit it once). A failure is logged, the claim given back and the entry
 * left owed: the provider's retry (same idp-id) appends it then.
 */
async function auditEvent(ctx: Ctx, idpId: string, type: string, tenantId: string, userId: string, now: number) {
  try {
    if (!(await claimIdpEventAudit(ctx.db, idpId, now))) return;
  } catch (err) {
    log.error("idp event audit claim failed", { idp_event: type, tenant_id: tenantId, error: String(err) });
    return;
  }
  try {
    await recordAudit(ctx.env, tenantId, {
      // The audit action is the event's own name (user.deactivated, …).
      action: type,
      outcome: "succeeded",
      actorKind: "identity_provider",
      actorId: idpId,
      credentialId: null,
      requestId: ctx.requestId,
      targetType: "user",
      targetId: userId,
      statusCode: null,
      detail: null,
    });
    await markIdpEventAudited(ctx.db, idpId, now);
  } catch (err) {
    log.error("idp event audit failed", { idp_event: type, tenant_id: tenantId, error: String(err) });
    await releaseIdpEventAudit(ctx.db, idpId, now).catch(() => undefined);
  }
}
