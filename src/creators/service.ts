import type { Database } from "../db/client";
import { utf8 } from "../platform/bytes";
import { newId, randomBase32 } from "../platform/ids";
import { iso } from "../platform/openapi";
import { lookupHash, type SealingUnavailable, seal, tenantDataKey } from "../platform/sealing";
import { commitmentOf } from "./commitment";
import {
  type CreatorRow,
  findActiveByEmailLookup,
  findCreator,
  findPolicy,
  insertCreatorUnlessActive,
  markErased,
  markWithdrawn,
  type PolicyRow,
  tenantName,
  upsertPolicy,
} from "./repo";
import type { ConsoleDisclosure, ShareDisclosure } from "./schemas";

/*
 * Creator identities: enrolment (sealed personal data, keyed-hash lookup, commitment), withdrawal, erasure and the
 * disclosure policy. Disclosure (the only decryption) is in disclosure.ts.
 */

/** Normalised e-mail: NFC, trimmed, lowercased whole (what is sealed, looked up, committed to and disclosed). */
export function normaliseEmail(email: string): string {
  return email.normalize("NFC").trim().toLowerCase();
}

/** Normalised name: NFC, trimmed; null for none or blank. */
export function normaliseName(name: string | null | undefined): string | null {
  const normalised = name?.normalize("NFC").trim();
  return normalised ? normalised : null;
}

/** The purpose string of the e-mail lookup hash (domain separation from any other lookup under the same key). */
const EMAIL_LOOKUP = "creator.email.v1";

/** The consent as recorded: the request's fields exactly as given. */
export interface ConsentInput {
  basis: string;
  obtained_at: string;
  notice_version?: string | null | undefined;
  reference?: string | null | undefined;
}

export interface EnrolInput {
  tenantId: string;
  /** The API key that gave the consent attestation. */
  apiKeyId: string;
  email: string;
  name?: string | null | undefined;
  consent: ConsentInput;
}

/** `existing`: the tenant already has an active identity for this e-mail; it is returned unchanged. */
export type EnrolResult =
  | { status: "created"; row: CreatorRow }
  | { status: "existing"; row: CreatorRow }
  | { status: "unavailable"; reason: SealingUnavailable };

/** Enrols a creator: seals e-mail, name and salt under the tenant data key; commits to the canonical identity. */
export async function enrolCreator(
  db: Database,
  env: { SVC_DATA_MASTER_KEYS?: string },
  input: EnrolInput,
  now = Date.now(),
): Promise<EnrolResult> {
  const dataKey = await tenantDataKey(db, env, input.tenantId, { create: true });
  if (dataKey.status === "none") return { status: "unavailable", reason: "data_key_unusable" };
  if (dataKey.status === "unavailable") return dataKey;
  const key = dataKey.key;
  const email = normaliseEmail(input.email);
  const name = normaliseName(input.name);
  const emailLookup = await lookupHash(key, EMAIL_LOOKUP, email);
  const existing = await findActiveByEmailLookup(db, input.tenantId, emailLookup);
  if (existing) return { status: "existing", row: existing };

  const id = newId("creatorIdentity");
  const salt = crypto.getRandomValues(new Uint8Array(32));
  const row: CreatorRow = {
    id,
    tenantId: input.tenantId,
    status: "active",
    assuranceLevel: "self_asserted",
    dataKeyId: key.id,
    emailLookup,
    emailSealed: await seal(key, { recordId: id, field: "email" }, utf8(email)),
    nameSealed: name === null ? null : await seal(key, { recordId: id, field: "name" }, utf8(name)),
    saltSealed: await seal(key, { recordId: id, field: "salt" }, salt),
    displayNamePresent: name !== null,
    creatorRef: `cref_${randomBase32(26)}`,
    commitment: await commitmentOf(salt, email, name),
    consent: JSON.stringify({
      basis: input.consent.basis,
      obtained_at: input.consent.obtained_at,
      notice_version: input.consent.notice_version ?? null,
      reference: input.consent.reference ?? null,
    }),
    consentRecordedAt: now,
    consentApiKeyId: input.apiKeyId,
    createdAt: now,
    withdrawnAt: null,
    erasedAt: null,
  };
  if (await insertCreatorUnlessActive(db, row)) return { status: "created", row };
  // A concurrent enrolment of the same e-mail won the unique index: answer with it.
  const winner = await findActiveByEmailLookup(db, input.tenantId, emailLookup);
  if (winner) return { status: "existing", row: winner };
  throw new Error("creator identity insert conflicted without an active identity"); // an id or creator_ref collision
}

export type WithdrawResult = { status: "ok"; row: CreatorRow } | { status: "not_found" } | { status: "erased" };

/** active → withdrawn. Withdrawing a withdrawn identity changes nothing and answers it again (idempotent). */
export async function withdrawCreator(db: Database, tenantId: string, creatorId: string, now = Date.now()): Promise<WithdrawResult> {
  const moved = await markWithdrawn(db, tenantId, creatorId, now);
  if (moved) return { status: "ok", row: moved };
  const row = await findCreator(db, tenantId, creatorId);
  if (!row) return { status: "not_found" };
  return row.status === "erased" ? { status: "erased" } : { status: "ok", row };
}

export type EraseResult = { status: "erased"; row: CreatorRow } | { status: "not_found" };

/**
 * Governance erasure (#18 calls this): deletes the sealed e-mail and name, the lookup hash and the salt, so the
 * commitment in published manifests can never be resolved again; status erased. Erasing again changes nothing.
 */
export async function eraseCreator(db: Database, tenantId: string, creatorId: string, now = Date.now()): Promise<EraseResult> {
  const erased = await markErased(db, tenantId, creatorId, now);
  if (erased) return { status: "erased", row: erased };
  const row = await findCreator(db, tenantId, creatorId);
  return row ? { status: "erased", row } : { status: "not_found" };
}

/** The policy in effect: the stored one, or the defaults (brand name: the tenant's name). */
export interface EffectivePolicy {
  brandName: string;
  consoleDisclosure: ConsoleDisclosure;
  shareDisclosure: ShareDisclosure;
  noticeVersion: string | null;
  updatedAt: number | null;
}

export async function effectivePolicy(db: Database, tenantId: string): Promise<EffectivePolicy> {
  const stored = await findPolicy(db, tenantId);
  if (stored) return policyOf(stored);
  return {
    brandName: (await tenantName(db, tenantId)) ?? "",
    consoleDisclosure: "name_and_email",
    shareDisclosure: "name",
    noticeVersion: null,
    updatedAt: null,
  };
}

function policyOf(row: PolicyRow): EffectivePolicy {
  return {
    brandName: row.brandName,
    consoleDisclosure: row.consoleDisclosure,
    shareDisclosure: row.shareDisclosure,
    noticeVersion: row.noticeVersion,
    updatedAt: row.updatedAt,
  };
}

export async function replacePolicy(
  db: Database,
  tenantId: string,
  apiKeyId: string,
  body: {
    brand_name: string;
    console_disclosure: ConsoleDisclosure;
    share_disclosure: ShareDisclosure;
    notice_version?: string | null | undefined;
  },
  now = Date.now(),
): Promise<EffectivePolicy> {
  return policyOf(
    await upsertPolicy(db, {
      tenantId,
      brandName: body.brand_name,
      consoleDisclosure: body.console_disclosure,
      shareDisclosure: body.share_disclosure,
      noticeVersion: body.notice_version ?? null,
      updatedAt: now,
      updatedByKeyId: apiKeyId,
    }),
  );
}

export function policyView(policy: EffectivePolicy) {
  return {
    brand_name: policy.brandName,
    console_disclosure: policy.consoleDisclosure,
    share_disclosure: policy.shareDisclosure,
    notice_version: policy.noticeVersion,
    updated_at: iso(policy.updatedAt),
  };
}

export function creatorView(row: CreatorRow) {
  return {
    creator_id: row.id,
    created_at: iso(row.createdAt),
    assurance_level: row.assuranceLevel,
    status: row.status,
    display_name_present: row.displayNamePresent,
    erased_at: iso(row.erasedAt),
    withdrawn_at: iso(row.withdrawnAt),
  };
}
