import type { Bindings } from "../env";
import type { CaptureAssertion } from "../media/c2pa/verifier";
import type { CreatorEvidence } from "./creator";
import { signedByThisDeployment } from "./creator";

/**
 * The capture a verified file states (its `svc.capture` assertion: the device-attestation admission that let it be
 * signed). Like the creator, only a claim until the service stands behind it: `attested_by_service` is true only
 * when the manifest is valid, bound to these bytes, and signed with exactly this deployment's certificate, which
 * signs a capture assertion only after a passing admission. Nothing is looked up: the admission itself stays the
 * tenant's (GET /v1/capture-admissions/{id}).
 */
export interface VerifiedCapture extends CaptureAssertion {
  attested_by_service: boolean;
}

export function verifiedCapture(
  env: Pick<Bindings, "SVC_C2PA_SIGNER_CHAIN_PEM">,
  assertion: CaptureAssertion | null | undefined,
  evidence: Omit<CreatorEvidence, "assertion">,
): VerifiedCapture | null {
  if (!assertion) return null;
  const attested = evidence.overall === "valid" && evidence.bindingChecked && signedByThisDeployment(env, evidence.signerLeaf);
  return { ...assertion, attested_by_service: attested };
}
