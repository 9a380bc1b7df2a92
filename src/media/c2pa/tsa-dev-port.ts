/*
 * The port through which the signer reaches the development TSA. SVC_TSA_URL "internal" names the dev TSA
 * (src/dev/tsa-responder.ts, also served as POST /dev/tsa), which the signer calls in process: a Worker cannot
 * fetch itself. The responder is development-only code (src/dev/) that media may not import, so the wiring
 * (app.ts) installs it here once, as it installs the dev OCSP responder into ocsp-dev-port.ts.
 */

/** The dev TSA's credentials: certificate chain (TSA leaf first, then intermediates) and PKCS#8 key (ECDSA). */
export interface DevTsaCredentials {
  chainPem: string;
  keyPkcs8Pem: string;
}

/**
 * The dev TSA as the signer sees it. Invariant: answers a DER TimeStampReq with a DER TimeStampResp signed at
 * `now`, and never throws for bad input (it answers a rejection instead).
 */
export type DevTimestampResponder = (requestDer: Uint8Array, tsa: DevTsaCredentials, now: Date) => Promise<Uint8Array>;

let installed: DevTimestampResponder | null = null;

/** Called by the wiring (app.ts) with the dev TSA of src/dev/ (tests that sign without the app call it too). */
export function installDevTsa(respond: DevTimestampResponder): void {
  installed = respond;
}

/** Answers one DER TimeStampReq with the installed dev TSA; throws when none is installed. */
export function answerDevTimestamp(requestDer: Uint8Array, tsa: DevTsaCredentials, now: Date): Promise<Uint8Array> {
  if (!installed) throw new Error('TSA: no development TSA installed for TSA URL "internal"');
  return installed(requestDer, tsa, now);
}
