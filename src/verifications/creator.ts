import { discloseCreator } from "../creators/disclosure";
import type { DisclosureState } from "../creators/schemas";
import type { Database } from "../db/client";
import type { Bindings } from "../env";
import { pemBlocks } from "../media/c2pa/tsa-der";
import type { CreatorAssertion } from "../media/c2pa/verifier";
import { equalBytes } from "../platform/bytes";
import type { Verdict } from "./verdict";

/**
 * The creator a verified file names, as anyone may see it. A manifest's `svc.creator` assertion is only a claim:
 * anyone can copy a reference into a manifest of their own. The service stands behind it (and looks it up) only
 * when the manifest is valid, bound to the bytes given, signed with this deployment's own signing certificate, and
 * the commitment in the file is the identity's; then the signing tenant's `share_disclosure` decides what is shown
 * (the public audience of the creators area, whose disclosure.ts is the only code that decrypts).
 */
export interface VerifiedCreator {
  creator_ref: string;
  commitment: string;
  /** The service signed this manifest and the reference and commitment are an identity enrolled here. */
  attributed_by_service: boolean;
  /** Null when not attributed by the service. */
  disclosure_state: DisclosureState | null;
  /** Only when the signing tenant's share policy discloses names. */
  name: string | null;
  /** The signing tenant's brand (null when not attributed by the service or the policy attributes nothing). */
  brand_name: string | null;
}

const ownLeaves = new Map<string, Uint8Array | null>();

/** DER of this deployment's signing certificate: the first of its configured chain. */
function ownSignerLeaf(env: Pick<Bindings, "SVC_C2PA_SIGNER_CHAIN_PEM">): Uint8Array | null {
  const pem = env.SVC_C2PA_SIGNER_CHAIN_PEM;
  if (!pem) return null;
  let leaf = ownLeaves.get(pem);
  if (leaf === undefined) {
    leaf = pemBlocks(pem, "CERTIFICATE")[0] ?? null;
    ownLeaves.set(pem, leaf);
  }
  return leaf;
}

/** Whether a manifest's signing certificate (DER) is exactly this deployment's own (byte-equal, not just a serial). */
export function signedByThisDeployment(env: Pick<Bindings, "SVC_C2PA_SIGNER_CHAIN_PEM">, signerLeaf: Uint8Array | null): boolean {
  const own = ownSignerLeaf(env);
  return own !== null && signerLeaf !== null && equalBytes(own, signerLeaf);
}

/** What the verification established about the manifest that names the creator. */
export interface CreatorEvidence {
  assertion: CreatorAssertion | null | undefined;
  /** The verdict's overall outcome. */
  overall: Verdict["overall"];
  /** The active manifest's signing certificate (DER) from its COSE x5chain, when it could be read. */
  signerLeaf: Uint8Array | null;
  /**
   * The file's bytes were checked against the manifest's hard binding: false for a manifest given alone
   * (manifest_uri) and for a sidecar whose binding this service cannot check.
   */
  bindingChecked: boolean;
}

/**
 * Invariant: `attributed_by_service` is true only when the manifest is valid, its binding to these very bytes was
 * checked, it was signed with exactly this deployment's certificate (byte-equal DER, not just a serial), the
 * commitment in the file is the identity's, and the signing tenant's share policy attributes work at all
 * (`share_disclosure` `none` adds nothing to what the file says).
 */
export async function verifiedCreator(db: Database, env: Bindings, evidence: CreatorEvidence): Promise<VerifiedCreator | null> {
  const { assertion } = evidence;
  if (!assertion) return null;
  const claimed: VerifiedCreator = {
    ...assertion,
    attributed_by_service: false,
    disclosure_state: null,
    name: null,
    brand_name: null,
  };
  const signedHere = signedByThisDeployment(env, evidence.signerLeaf);
  if (evidence.overall !== "valid" || !evidence.bindingChecked || !signedHere) return claimed;
  const result = await discloseCreator(db, env, { creatorRef: assertion.creator_ref }, "public");
  if (result.status !== "ok") return claimed;
  const disclosure = result.disclosure;
  // Policy `none`: nothing is said beyond the file, not even the identity's state.
  if (!disclosure.creator_ref || !disclosure.commitment) return claimed;
  // The reference alone is not enough: the commitment in the file must be the identity's.
  if (disclosure.commitment.value !== assertion.commitment) return claimed;
  return {
    ...assertion,
    attributed_by_service: true,
    disclosure_state: disclosure.disclosure_state,
    name: disclosure.disclosure_state === "disclosed" ? (disclosure.end_user?.name ?? null) : null,
    brand_name: disclosure.tenant.brand_name,
  };
}

/**
 * What a stored verification keeps of the creator: the file's own statement and whether the service attributed it,
 * never the name or brand (stored results, reports and shares outlive a withdrawal; the live answer does not).
 */
export function storedCreator(creator: VerifiedCreator | null): VerifiedCreator | null {
  return creator ? { ...creator, disclosure_state: null, name: null, brand_name: null } : null;
}
