import type { Database } from "../db/client";
import { hex } from "../platform/bytes";
import { log } from "../platform/logger";
import { dataKeyById, open } from "../platform/sealing";
import { CANONICAL_FORM } from "./commitment";
import { type CreatorRow, findCreator, findCreatorByRef } from "./repo";
import type { Audience, ConsoleDisclosure, DisclosureState } from "./schemas";
import { type EffectivePolicy, effectivePolicy } from "./service";

/*
 * The ONE place that decrypts creator personal data. Every caller (the disclosure route; verify, when it shows a
 * creator) goes through `discloseCreator`, which opens only the fields the policy allows the audience.
 */

/** Which identity: a tenant's own by id, or whichever identity a manifest's `creator_ref` names. */
export type DisclosureTarget = { tenantId: string; creatorId: string } | { creatorRef: string };

/** The `svc.creator-disclosure.v1` document. Invariant: `end_user` holds only fields the policy allows the audience. */
export interface CreatorDisclosure {
  schema_version: "svc.creator-disclosure.v1";
  assurance_level: CreatorRow["assuranceLevel"];
  assurance_statement: string;
  audience: Audience;
  disclosure_state: DisclosureState;
  tenant: { brand_name: string; notice_version: string | null };
  end_user: { name: string | null; email?: string } | null;
  commitment: { algorithm: "sha256"; value: string; salt: string | null; canonical_form: string } | null;
  creator_ref: string | null;
}

export type DisclosureResult = { status: "ok"; disclosure: CreatorDisclosure } | { status: "not_found" };

const ASSURANCE_STATEMENTS: Record<CreatorRow["assuranceLevel"], string> = {
  self_asserted: "Asserted by the owning tenant, which attests a lawful basis for it; the service has not verified this identity.",
  verified: "Verified by the service.",
};

/** What an audience may see: the owning tenant per `console_disclosure`, anyone per `share_disclosure`, the operator all. */
function levelFor(policy: EffectivePolicy, audience: Audience): ConsoleDisclosure {
  if (audience === "owning_tenant") return policy.consoleDisclosure;
  if (audience === "public") return policy.shareDisclosure;
  return "name_and_email";
}

/**
 * The disclosure of one identity for `audience`. By `creatorRef` (a manifest's reference, whatever its tenant) callers
 * outside the owning tenant must ask for `public`. `operator` sees name and e-mail whatever the policy: only operator
 * tooling may ask for it (the API refuses it to every key).
 */
export async function discloseCreator(
  db: Database,
  env: { SVC_DATA_MASTER_KEYS?: string },
  target: DisclosureTarget,
  audience: Audience,
): Promise<DisclosureResult> {
  const row =
    "creatorRef" in target ? await findCreatorByRef(db, target.creatorRef) : await findCreator(db, target.tenantId, target.creatorId);
  if (!row) return { status: "not_found" };
  const policy = await effectivePolicy(db, row.tenantId);
  const level = levelFor(policy, audience);
  const attributed = level !== "none";
  const answer = (state: DisclosureState, endUser: CreatorDisclosure["end_user"] = null, salt: string | null = null): DisclosureResult => ({
    status: "ok",
    disclosure: {
      schema_version: "svc.creator-disclosure.v1",
      assurance_level: row.assuranceLevel,
      assurance_statement: ASSURANCE_STATEMENTS[row.assuranceLevel],
      audience,
      disclosure_state: state,
      tenant: { brand_name: policy.brandName, notice_version: policy.noticeVersion },
      end_user: endUser,
      commitment: attributed ? { algorithm: "sha256", value: row.commitment, salt, canonical_form: CANONICAL_FORM } : null,
      creator_ref: attributed ? row.creatorRef : null,
    },
  });
  if (row.status !== "active") return answer(row.status);
  if (level === "none" || level === "attributed") return answer("withheld");

  const unavailable = (reason: string) => {
    log.warn("creator identity cannot be disclosed", { creator_id: row.id, reason });
    return answer("unavailable");
  };
  if (!row.dataKeyId) return unavailable("no_data_key");
  const key = await dataKeyById(db, env, row.tenantId, row.dataKeyId);
  if (key.status !== "ok") return unavailable(key.status === "unavailable" ? key.reason : "no_data_key");
  const text = new TextDecoder();
  let name: string | null = null;
  if (row.nameSealed) {
    const opened = await open(key.key, { recordId: row.id, field: "name" }, row.nameSealed);
    if (!opened) return unavailable("name_does_not_open");
    name = text.decode(opened);
  }
  if (level === "name") return answer("disclosed", { name });
  // name_and_email: every field of the canonical identity is disclosed, so the salt may be too.
  const email = row.emailSealed && (await open(key.key, { recordId: row.id, field: "email" }, row.emailSealed));
  const salt = row.saltSealed && (await open(key.key, { recordId: row.id, field: "salt" }, row.saltSealed));
  if (!email || !salt) return unavailable("email_or_salt_does_not_open");
  return answer("disclosed", { name, email: text.decode(email) }, hex(salt));
}

/** What a sign request may attribute: an active identity's reference and commitment, never personal data. */
export type Attribution = { status: "active"; creator_ref: string; commitment: string } | { status: "withdrawn" | "erased" | "unknown" };

/** For sign admission: whether the tenant's identity may be attributed, and what the manifest then carries. */
export async function attributionFor(db: Database, tenantId: string, creatorId: string): Promise<Attribution> {
  const row = await findCreator(db, tenantId, creatorId);
  if (!row) return { status: "unknown" };
  if (row.status !== "active") return { status: row.status };
  return { status: "active", creator_ref: row.creatorRef, commitment: row.commitment };
}
