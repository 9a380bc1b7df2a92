import type { Bindings } from "../../env";
import { configOf } from "../../platform/config";
import { C2PA_TRUST_LIST_PEM } from "./c2pa-trust-list";

/**
 * The trust anchors verification judges signers against: this deployment's own anchors (SVC_TRUST_ANCHORS_PEM:
 * the dev root in development) plus the official C2PA trust list, unless SVC_C2PA_TRUST_LIST is "off".
 * Publication-time self-checks use the deployment's anchors only (they check our own signer).
 */
export function verificationTrustAnchors(env: Pick<Bindings, "SVC_TRUST_ANCHORS_PEM" | "SVC_C2PA_TRUST_LIST">): string | null {
  const own = env.SVC_TRUST_ANCHORS_PEM;
  const list = configOf(env).c2paTrustList;
  // The same inputs give the same string object: the per-isolate caches keyed by the bundle's text (trust-anchors.ts,
  // the fast validator) then find it without building and comparing a fresh 80 KB string on every verification.
  if (lastBundle && lastBundle.own === own && lastBundle.list === list) return lastBundle.pem;
  const parts = [own, list ? C2PA_TRUST_LIST_PEM : null].filter((p): p is string => Boolean(p?.trim()));
  const pem = parts.length > 0 ? `${parts.map((p) => p.trim()).join("\n")}\n` : null;
  lastBundle = { own, list, pem };
  return pem;
}

/** The last bundle built, with its inputs (a deployment has one configuration; a change builds the new one). */
let lastBundle: { own: string | undefined; list: boolean; pem: string | null } | null = null;
