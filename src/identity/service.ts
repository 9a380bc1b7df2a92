import type { Database } from "../db/client";
import type { Bindings } from "../env";
import { recordAudit } from "../platform/audit";
import type { SessionClaims, SessionDirectory, SessionResolution } from "../platform/auth/session";
import { hex, utf8 } from "../platform/bytes";
import { hmacSha256 } from "../platform/crypto";
import { newId } from "../platform/ids";
import { withFields } from "../platform/logger";
import { dataKeyById, open, seal, tenantDataKey } from "../platform/sealing";
import {
  applyPendingStatus,
  findPendingSubject,
  findUserByEmailIndex,
  findUserBySubject,
  insertAccountWithUser,
  touchSignIn,
  type UserRow,
} from "./repo/users";

/*
 * Console users (#18): rules without HTTP. A verified session resolves to its user; the first one with a verified
 * e-mail provisions an account and its user just in time. E-mails are personal data: sealed at rest, looked up only
 * through a keyed blind index, never logged and never in an audit entry.
 */

const log = withFields({ component: "identity" });

/** A sign-in is audited at most once per user per hour (a console polls; the audit should not). */
export const SIGN_IN_AUDIT_EVERY_MS = 3_600_000;
/** Name of a just-in-time account: no personal data (the e-mail stays sealed on the user). */
export const PROVISIONED_ACCOUNT_NAME = "Console account";

/** The one spelling an e-mail is compared in: trimmed, lower case (providers differ in the case they send). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * The blind index of an e-mail: HMAC-SHA-256 under the key pepper (a deployment secret, global because one e-mail may
 * belong to one user across all accounts), domain-separated from key hashes. Null without a pepper.
 */
export async function emailIndexOf(env: { SVC_KEY_PEPPER?: string }, email: string): Promise<string | null> {
  const pepper = env.SVC_KEY_PEPPER;
  if (!pepper) return null;
  return hex(await hmacSha256(pepper, utf8(`svc.users.email.v1\n${normalizeEmail(email)}`)));
}

/** The e-mail sealed for `userId` under its tenant's data key; null when sealing is unavailable. */
export async function sealEmail(db: Database, env: Bindings, tenantId: string, userId: string, email: string) {
  const key = await tenantDataKey(db, env, tenantId, { create: true });
  if (key.status !== "ok") return null;
  return {
    emailSealed: await seal(key.key, { recordId: userId, field: "email" }, utf8(normalizeEmail(email))),
    emailDataKeyId: key.key.id,
  };
}

/** The user's e-mail in clear, or null (erased, or sealing unavailable). For GET /v1/me only. */
export async function openEmail(db: Database, env: Bindings, user: UserRow): Promise<string | null> {
  if (!user.emailSealed || !user.emailDataKeyId) return null;
  const key = await dataKeyById(db, env, user.tenantId, user.emailDataKeyId);
  if (key.status !== "ok") return null;
  const plain = await open(key.key, { recordId: user.id, field: "email" }, user.emailSealed);
  return plain ? new TextDecoder().decode(plain) : null;
}

type Context = Parameters<SessionDirectory["resolve"]>[0];

/** The identity side of authentication's session port. */
export const sessionDirectory: SessionDirectory = {
  async resolve(ctx, claims, now) {
    const found = await findUserBySubject(ctx.db, claims.issuer, claims.subject);
    if (found) {
      const due = found.user.lastSignedInAt === null || found.user.lastSignedInAt < now - SIGN_IN_AUDIT_EVERY_MS;
      // Read first: a request within the hour writes nothing (the conditional update settles concurrent ones).
      if (due && found.user.status === "active" && found.tenantStatus === "active") noteSignIn(ctx, found.user, now);
      return {
        status: "ok",
        tenantId: found.user.tenantId,
        userId: found.user.id,
        tenantStatus: found.tenantStatus,
        userStatus: found.user.status,
      };
    }
    return provision(ctx, claims, now);
  },
};

/** Audits a sign-in off the response path, at most once an hour per user. */
function noteSignIn(ctx: Context, user: UserRow, now: number) {
  ctx.waitUntil(
    (async () => {
      if (!(await touchSignIn(ctx.db, user.id, now, SIGN_IN_AUDIT_EVERY_MS))) return;
      await recordAudit(ctx.env, user.tenantId, {
        action: "session.signed_in",
        outcome: "succeeded",
        actorKind: "console_user",
        actorId: user.id,
        credentialId: user.id,
        requestId: ctx.requestId,
        targetType: "user",
        targetId: user.id,
        statusCode: null,
        detail: null,
      });
    })().catch((err) => log.error("sign-in audit failed", { error: String(err) })),
  );
}

/**
 * Just-in-time provisioning: a new account and its user for a subject seen for the first time. Needs a verified
 * e-mail that no other user holds. A concurrent first request of the same subject may win the race: then its user
 * is the answer.
 */
async function provision(ctx: Context, claims: SessionClaims, now: number): Promise<SessionResolution> {
  // The provider deactivated or deleted this subject before it ever signed in: nothing is provisioned.
  if (await findPendingSubject(ctx.db, claims.issuer, claims.subject)) return { status: "inactive" };
  if (!claims.emailVerified || claims.email === null) return { status: "email_unverified" };
  const emailIndex = await emailIndexOf(ctx.env, claims.email);
  if (emailIndex === null) return { status: "unavailable" };
  // Same subject was handled above, so a holder of this e-mail is another subject's user.
  if (await findUserByEmailIndex(ctx.db, emailIndex)) return { status: "email_conflict" };
  const tenantId = newId("tenant");
  const userId = newId("user");
  const sealed = await sealEmail(ctx.db, ctx.env, tenantId, userId, claims.email);
  if (!sealed) return { status: "unavailable" };
  const created = await insertAccountWithUser(
    ctx.db,
    { id: tenantId, name: PROVISIONED_ACCOUNT_NAME, contactEmail: null, status: "active", createdAt: now },
    {
      id: userId,
      tenantId,
      issuer: claims.issuer,
      subject: claims.subject,
      ...sealed,
      emailIndex,
      status: "active",
      createdAt: now,
      updatedAt: now,
      lastSignedInAt: now,
    },
  );
  if (!created) {
    const winner = await findUserBySubject(ctx.db, claims.issuer, claims.subject);
    if (!winner) return { status: "email_conflict" };
    return {
      status: "ok",
      tenantId: winner.user.tenantId,
      userId: winner.user.id,
      tenantStatus: winner.tenantStatus,
      userStatus: winner.user.status,
    };
  }
  try {
    await recordAudit(ctx.env, tenantId, {
      action: "session.provisioned",
      outcome: "succeeded",
      actorKind: "console_user",
      actorId: userId,
      credentialId: userId,
      requestId: ctx.requestId,
      targetType: "user",
      targetId: userId,
      statusCode: null,
      detail: { issuer: claims.issuer },
    });
  } catch (err) {
    log.error("provisioning audit failed", { tenant_id: tenantId, error: String(err) });
  }
  // Read again after the insert: a deactivation or deletion kept while this user was being created is applied now
  // (the callback re-reads the user after keeping one, so either side sees the other).
  const pending = await findPendingSubject(ctx.db, claims.issuer, claims.subject);
  const userStatus = pending ? await applyPendingStatus(ctx.db, userId, pending, now) : "active";
  return { status: "ok", tenantId, userId, tenantStatus: "active", userStatus };
}
