import type { Bindings } from "../../env";

/*
 * The port through which verification reaches the development OCSP responder. The dev signer's certificate names
 * the dev responder (SVC_DEV_OCSP_URL, this Worker's own POST /dev/ocsp), which a Worker cannot fetch, so
 * verification answers it in process. The responder is development-only code (src/dev/): areas may not import
 * it, so the wiring (app.ts) installs it here once, and verification asks this port. Without an installation,
 * or outside development, there is no dev responder and every OCSP request goes to the network.
 */

/**
 * The dev responder's credentials. `certPem`/`keyPkcs8Pem` sign the responses (ECDSA P-256 or P-384): either
 * the issuing CA itself, or a delegated responder certificate issued by that CA (then `caCertPem` is the CA,
 * whose name and key the CertIDs of requests are matched against).
 */
export interface DevOcspResponder {
  certPem: string;
  keyPkcs8Pem: string;
  caCertPem?: string;
}

/**
 * The development OCSP responder as verification sees it. Invariant: `responder` returns null outside a
 * development deployment, so an installed port changes nothing in production.
 */
export interface DevOcsp {
  /** The dev responder's credentials, or null when this is not a development deployment with a dev PKI. */
  responder(env: Bindings): DevOcspResponder | null;
  /** Answers one DER OCSPRequest with the dev responder (with the deployment's current revocations). */
  answer(env: Bindings, responder: DevOcspResponder, requestDer: Uint8Array): Promise<Uint8Array>;
  /**
   * The version of the deployment's revocation list: it changes whenever a revocation is recorded. `ride`: the read
   * goes in the caller's next D1 batch instead of a round trip of its own.
   */
  revocationsVersion(env: Bindings, ride?: (statement: D1PreparedStatement) => Promise<D1Result>): Promise<string>;
}

let installed: DevOcsp | null = null;

/** Called by the wiring (app.ts) with the dev responder of src/dev/. */
export function installDevOcsp(devOcsp: DevOcsp): void {
  installed = devOcsp;
}

/** The dev responder's credentials, or null (not development, no dev PKI, or no responder installed). */
export function devOcspResponder(env: Bindings): DevOcspResponder | null {
  return installed?.responder(env) ?? null;
}

/** The dev revocation list's version; only called after devOcspResponder returned credentials. */
export function devRevocationsVersion(env: Bindings, ride?: (statement: D1PreparedStatement) => Promise<D1Result>): Promise<string> {
  if (!installed) throw new Error("no development OCSP responder installed");
  return installed.revocationsVersion(env, ride);
}

/** Answers one DER OCSPRequest in process; only called after devOcspResponder returned credentials. */
export function answerDevOcsp(env: Bindings, responder: DevOcspResponder, requestDer: Uint8Array): Promise<Uint8Array> {
  if (!installed) throw new Error("no development OCSP responder installed");
  return installed.answer(env, responder, requestDer);
}
