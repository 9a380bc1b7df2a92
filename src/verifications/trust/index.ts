import type { Bindings } from "../../env";
import { configOf } from "../../platform/config";
import { C2PA_TRUST_LIST_PEM } from "./c2pa-trust-list";

/**
 * The trust anchors verification judges signers against: this deployment's own anchors (SVC_TRUST_ANCHORS_PEM:
 * the dev root in development) plus the official C2PA trust list, unless SVC_C2PA_TRUST_LIST is "off".
 * Publication-time self-checks use the deployment's anchors only (they check our own signer).
 */
export function verificationTrustAnchors(env: Pick<Bindings, "SVC_TRUST_ANCHORS_PEM" | "SVC_C2PA_TRUST_LIST">): string | null {
  const parts = [env.SVC_TRUST_ANCHORS_PEM, configOf(env).c2paTrustList ? C2PA_TRUST_LIST_PEM : null].filter((p): p is string =>
    Boolean(p?.trim()),
  );
  return parts.length > 0 ? `${parts.map((p) => p.trim()).join("\n")}\n` : null;
}
