import { discloseCreator } from "../creators/disclosure";
import type { DisclosureState } from "../creators/schemas";
import type { Database } from "../db/client";
import type { Bindings } from "../env";
import { serialNumberHex } from "../media/c2pa/ocsp";
import { normalizeHexKey } from "../media/c2pa/ocsp-der";
import { pemBlocks } from "../media/c2pa/tsa-der";
import type { CreatorAssertion, SignerSummary } from "../media/c2pa/verifier";
import type { Verdict } from "./verdict";

/**
 * The creator a verified file names, as anyone may see it. A manifest's `svc.creator` assertion is only a claim:
 * anyone can copy a reference into a manifest of their own. The service stands behind it (and looks it up) only
 * when the manifest is valid and signed with this deployment's own signing certificate, and the commitment in the
 * file is the identity's; then the signing tenant's `share_disclosure` decides what is shown (the public audience
 * of the creators area, which is the only code that decrypts).
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

const ownSerials = new Map<string, string | null>();

/** Serial (normalized hex) of this deployment's signing certificate, the first of its configured chain. */
function ownSignerSerial(env: Pick<Bindings, "SVC_C2PA_SIGNER_CHAIN_PEM">): string | null {
  const pem = env.SVC_C2PA_SIGNER_CHAIN_PEM;
  if (!pem) return null;
  let serial = ownSerials.get(pem);
  if (serial === undefined) {
    const leaf = pemBlocks(pem, "CERTIFICATE")[0];
    try {
      serial = leaf ? serialNumberHex(leaf) : null;
    } catch {
      serial = null;
    }
    ownSerials.set(pem, serial);
  }
  return serial;
}

export async function verifiedCreator(
  db: Database,
  env: Bindings,
  assertion: CreatorAssertion | null | undefined,
  verdict: Pick<Verdict, "overall">,
  signer: SignerSummary | null,
): Promise<VerifiedCreator | null> {
  if (!assertion) return null;
  const claimed: VerifiedCreator = {
    ...assertion,
    attributed_by_service: false,
    disclosure_state: null,
    name: null,
    brand_name: null,
  };
  const own = ownSignerSerial(env);
  const signedHere = own !== null && signer?.serial_number != null && normalizeHexKey(signer.serial_number) === own;
  if (verdict.overall !== "valid" || !signedHere) return claimed;
  const result = await discloseCreator(db, env, { creatorRef: assertion.creator_ref }, "public");
  if (result.status !== "ok") return claimed;
  const disclosure = result.disclosure;
  // The reference alone is not enough: the commitment in the file must be the identity's (when the policy shows it).
  if (disclosure.commitment && disclosure.commitment.value !== assertion.commitment) return claimed;
  return {
    ...assertion,
    attributed_by_service: true,
    disclosure_state: disclosure.disclosure_state,
    name: disclosure.disclosure_state === "disclosed" ? (disclosure.end_user?.name ?? null) : null,
    brand_name: disclosure.creator_ref ? disclosure.tenant.brand_name : null,
  };
}
