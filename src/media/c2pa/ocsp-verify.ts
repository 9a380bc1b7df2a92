/**
 * Verification of an OCSP answer (RFC 6960 §3.2 and §4.2.2.2) as the comment of ocsp.ts describes: the response's
 * signature, the responder's authority, the CertID binding, freshness and the nonce.
 */
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { equalBytes } from "../../platform/bytes";
import type { OcspCertId, OcspRequest, OcspResult, OcspUnavailable, OcspUnavailableReason, OcspVerdictBase } from "./ocsp";
import {
  CLOCK_SKEW_MS,
  derOf,
  digest,
  extensionValue,
  HASH_BY_OID,
  MAX_RESPONDER_CANDIDATES,
  OID_ED25519,
  OID_EXT_KEY_USAGE,
  OID_KEY_USAGE,
  OID_KP_OCSP_SIGNING,
  OID_OCSP_BASIC,
  OID_OCSP_NONCE,
  OID_RSA_PSS,
  OID_SHA1,
  parseDer,
  RESPONSE_STATUS_NAMES,
  REVOCATION_REASONS,
  type RevocationReason,
  SIGNATURE_ALGORITHMS,
  spkiDer,
  spkiDerOf,
  trimLeadingZeros,
  validDate,
} from "./ocsp-der";

export interface VerifyOcspContext {
  /** The issuer of the certificate asked about (the request's CertID names it). */
  issuer: pkijs.Certificate;
  /** The request the response answers (CertID and nonce). */
  request: OcspRequest;
  now: Date;
  responderUrl: string;
  requireNonce?: boolean;
}

/**
 * Verifies a DER OCSPResponse for `context.request` and returns its verdict. Invariant: never throws, whatever
 * the bytes; returns good/revoked/unknown only when every check of the module comment passed, `unavailable`
 * with the first failed check otherwise. The checks run in this order: parse and response status, signature and
 * responder authorization, binding to the CertID, nonce, then times.
 */
export async function verifyOcspResponse(responseDer: Uint8Array, context: VerifyOcspContext): Promise<OcspResult> {
  const url = context.responderUrl;
  try {
    const parsed = parseResponse(responseDer);
    if ("reason" in parsed) return unavailable(parsed.reason, parsed.detail, url);
    const basic = parsed.basic;

    const signer = await authenticateResponder(basic, context.issuer, context.now);
    if (signer !== "ok") return unavailable(signer.reason, signer.detail, url);

    const single = await matchingSingleResponse(basic, context.request.certId, context.issuer);
    if ("reason" in single) return unavailable(single.reason, single.detail, url);

    const data = basic.tbsResponseData;
    if (hasUnknownCriticalExtension(data.responseExtensions) || hasUnknownCriticalExtension(single.response.singleExtensions)) {
      return unavailable("malformed", "the response carries an unsupported critical extension", url);
    }
    const nonceExt = data.responseExtensions?.find((e) => e.extnID === OID_OCSP_NONCE);
    const nonceEchoed = nonceExt !== undefined && equalBytes(nonceExt.extnValue.valueBlock.valueHexView, context.request.nonceExtnValue);
    if (nonceExt && !nonceEchoed) return unavailable("nonce_mismatch", "the response's nonce is not the request's", url);
    if (!nonceExt && context.requireNonce) return unavailable("nonce_mismatch", "the response carries no nonce", url);

    const { thisUpdate, nextUpdate } = single.response;
    const producedAt = data.producedAt;
    if (!validDate(thisUpdate) || !validDate(producedAt) || (nextUpdate !== undefined && !validDate(nextUpdate))) {
      return unavailable("malformed", "the response has an unreadable time", url);
    }
    const nowMs = context.now.getTime();
    if (thisUpdate.getTime() > nowMs + CLOCK_SKEW_MS) {
      return unavailable("not_yet_valid", `thisUpdate ${thisUpdate.toISOString()} is in the future`, url);
    }
    if (nextUpdate && nextUpdate.getTime() <= nowMs) {
      return unavailable("stale", `nextUpdate ${nextUpdate.toISOString()} has passed`, url);
    }
    if (nextUpdate && nextUpdate.getTime() < thisUpdate.getTime()) {
      return unavailable("malformed", "nextUpdate precedes thisUpdate", url);
    }
    // Without nextUpdate the responder vouches for "now" only (RFC 6960 §2.4): only an echoed nonce shows that
    // this answer was made for this request rather than replayed.
    if (!nextUpdate && !nonceEchoed) return unavailable("stale", "no nextUpdate and no echoed nonce", url);

    const base: OcspVerdictBase = {
      responder_url: url,
      produced_at: producedAt.toISOString(),
      this_update: thisUpdate.toISOString(),
      next_update: nextUpdate ? nextUpdate.toISOString() : null,
    };
    const status = single.status;
    if (status.kind === "good") return { status: "good", ...base };
    if (status.kind === "unknown") return { status: "unknown", ...base };
    return {
      status: "revoked",
      ...base,
      revocation_time: status.revokedAt.toISOString(),
      revocation_reason: status.reason,
    };
  } catch (error) {
    return unavailable("malformed", `the response could not be processed: ${String((error as Error)?.message ?? error)}`, url);
  }
}

export function unavailable(reason: OcspUnavailableReason, detail: string, url: string | null): OcspUnavailable {
  return { status: "unavailable", reason, detail, responder_url: url };
}

type Failure = { reason: OcspUnavailableReason; detail: string };

/** OCSPResponse → BasicOCSPResponse; DER only (no trailing bytes), successful status, basic response type. */
function parseResponse(der: Uint8Array): { basic: pkijs.BasicOCSPResponse } | Failure {
  const outer = parseDer(der);
  if (!(outer instanceof asn1js.Sequence)) return { reason: "malformed", detail: "not a DER OCSPResponse" };
  let response: pkijs.OCSPResponse;
  try {
    response = new pkijs.OCSPResponse({ schema: outer });
  } catch {
    return { reason: "malformed", detail: "not an OCSPResponse" };
  }
  const status = response.responseStatus.valueBlock.valueDec;
  if (status !== 0) {
    return { reason: "responder_error", detail: `responder status ${RESPONSE_STATUS_NAMES[status] ?? status}` };
  }
  const bytes = response.responseBytes;
  if (!bytes || bytes.responseType !== OID_OCSP_BASIC) return { reason: "malformed", detail: "no BasicOCSPResponse" };
  if (bytes.response.idBlock.isConstructed) return { reason: "malformed", detail: "constructed response OCTET STRING" };
  const inner = parseDer(bytes.response.valueBlock.valueHexView);
  if (!(inner instanceof asn1js.Sequence)) return { reason: "malformed", detail: "the BasicOCSPResponse is not DER" };
  try {
    return { basic: new pkijs.BasicOCSPResponse({ schema: inner }) };
  } catch {
    return { reason: "malformed", detail: "not a BasicOCSPResponse" };
  }
}

/**
 * Finds the signer among the issuer and the response's certificates that the ResponderID names, checks the
 * signature under its key and its authority to answer for `issuer` (RFC 6960 §4.2.2.2): the issuer's own key,
 * or a certificate the issuer signed with id-kp-OCSPSigning, valid at `now`. The delegated responder's own
 * revocation status is not checked (RFC 6960 §4.2.2.2.1 leaves that to the CA's id-pkix-ocsp-nocheck policy).
 */
async function authenticateResponder(basic: pkijs.BasicOCSPResponse, issuer: pkijs.Certificate, now: Date): Promise<"ok" | Failure> {
  const responderId: unknown = basic.tbsResponseData.responderID;
  const candidates = [issuer, ...(basic.certs ?? []).slice(0, MAX_RESPONDER_CANDIDATES)];
  const signedBy: pkijs.Certificate[] = [];
  let named = 0;
  let unsupported = false;
  for (const candidate of candidates) {
    if (!(await responderIdNames(responderId, candidate))) continue;
    named++;
    const outcome = await verifySignature(
      basic.tbsResponseData.tbsView,
      basic.signature,
      candidate.subjectPublicKeyInfo,
      basic.signatureAlgorithm,
    );
    if (outcome === "unsupported") unsupported = true;
    if (outcome === "valid") signedBy.push(candidate);
  }
  if (named === 0) {
    // A signer the client has no certificate for cannot be the issuer nor a delegate the issuer certified.
    return { reason: "unauthorized_responder", detail: "the ResponderID names neither the issuer nor a certificate in the response" };
  }
  if (signedBy.length === 0) {
    return unsupported
      ? { reason: "unsupported_algorithm", detail: `signature algorithm ${basic.signatureAlgorithm.algorithmId} is not accepted` }
      : { reason: "bad_signature", detail: "the signature does not verify under the key the ResponderID names" };
  }
  const issuerKey = spkiDer(issuer);
  for (const signer of signedBy) {
    if (equalBytes(spkiDer(signer), issuerKey)) return "ok"; // signed with the CA's own key
    if (await isDelegatedResponder(signer, issuer, now)) return "ok";
  }
  return { reason: "unauthorized_responder", detail: "the signer is neither the issuer nor a delegated OCSP responder of it" };
}

/** Whether `issuer`'s name is `cert`'s issuer name and its key verifies `cert`'s signature. Never throws. */
export async function issuedBy(cert: pkijs.Certificate, issuer: pkijs.Certificate): Promise<SignatureOutcome> {
  try {
    if (!cert.issuer.isEqual(issuer.subject)) return "invalid";
    return await verifySignature(cert.tbsView, cert.signatureValue, issuer.subjectPublicKeyInfo, cert.signatureAlgorithm);
  } catch {
    return "invalid";
  }
}

/** A certificate issued directly by `issuer`, with id-kp-OCSPSigning, digitalSignature if keyUsage is present, valid now. */
async function isDelegatedResponder(cert: pkijs.Certificate, issuer: pkijs.Certificate, now: Date): Promise<boolean> {
  try {
    const t = now.getTime();
    if (cert.notBefore.value.getTime() > t + CLOCK_SKEW_MS || cert.notAfter.value.getTime() < t - CLOCK_SKEW_MS) return false;
    const eku = extensionValue(cert, OID_EXT_KEY_USAGE);
    if (!(eku instanceof asn1js.Sequence)) return false;
    const purposes = eku.valueBlock.value.map((p) => (p instanceof asn1js.ObjectIdentifier ? p.valueBlock.toString() : ""));
    if (!purposes.includes(OID_KP_OCSP_SIGNING)) return false;
    const keyUsage = extensionValue(cert, OID_KEY_USAGE);
    if (keyUsage !== null) {
      if (!(keyUsage instanceof asn1js.BitString)) return false;
      const bits = keyUsage.valueBlock.valueHexView;
      if (bits.length === 0 || (bits[0]! & 0x80) === 0) return false; // digitalSignature is bit 0
    }
    return (await issuedBy(cert, issuer)) === "valid";
  } catch {
    return false;
  }
}

/** ResponderID byName (subject equal) or byKey (SHA-1 of the subjectPublicKey bits). */
async function responderIdNames(responderId: unknown, cert: pkijs.Certificate): Promise<boolean> {
  try {
    if (responderId instanceof pkijs.RelativeDistinguishedNames) return cert.subject.isEqual(responderId);
    if (responderId instanceof asn1js.OctetString) {
      const keyHash = await digest("SHA-1", cert.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView);
      return equalBytes(keyHash, responderId.valueBlock.valueHexView);
    }
    return false;
  } catch {
    return false;
  }
}

type CertStatus = { kind: "good" } | { kind: "unknown" } | { kind: "revoked"; revokedAt: Date; reason: RevocationReason | null };

/**
 * The SingleResponse whose CertID is ours, whatever hash algorithm the responder used for it. Several matching
 * SingleResponses must agree on the status.
 */
async function matchingSingleResponse(
  basic: pkijs.BasicOCSPResponse,
  ours: OcspCertId,
  issuer: pkijs.Certificate,
): Promise<{ response: pkijs.SingleResponse; status: CertStatus } | Failure> {
  const hashesByAlgorithm = new Map<string, { name: Uint8Array; key: Uint8Array }>();
  let found: { response: pkijs.SingleResponse; status: CertStatus } | null = null;
  for (const single of basic.tbsResponseData.responses) {
    const id = single.certID;
    const hash = HASH_BY_OID[id.hashAlgorithm.algorithmId];
    if (!hash) continue;
    if (!equalBytes(trimLeadingZeros(id.serialNumber.valueBlock.valueHexView), trimLeadingZeros(ours.serialNumber))) continue;
    let expected = hashesByAlgorithm.get(hash);
    if (!expected) {
      expected =
        hash === "SHA-1"
          ? { name: ours.issuerNameHash, key: ours.issuerKeyHash }
          : {
              name: await digest(hash, derOf(issuer.subject.toSchema())),
              key: await digest(hash, issuer.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView),
            };
      hashesByAlgorithm.set(hash, expected);
    }
    if (!equalBytes(id.issuerNameHash.valueBlock.valueHexView, expected.name)) continue;
    if (!equalBytes(id.issuerKeyHash.valueBlock.valueHexView, expected.key)) continue;
    const status = readCertStatus(single.certStatus);
    if (!status) return { reason: "malformed", detail: "unreadable certStatus" };
    if (found && !sameStatus(found.status, status)) return { reason: "malformed", detail: "conflicting SingleResponses" };
    found ??= { response: single, status };
  }
  return found ?? { reason: "not_bound", detail: "no SingleResponse for this certificate's CertID" };
}

function sameStatus(a: CertStatus, b: CertStatus): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === "revoked" && b.kind === "revoked") return a.revokedAt.getTime() === b.revokedAt.getTime() && a.reason === b.reason;
  return true;
}

/** CertStatus ::= CHOICE { good [0] IMPLICIT NULL, revoked [1] IMPLICIT RevokedInfo, unknown [2] IMPLICIT NULL }. */
function readCertStatus(block: unknown): CertStatus | null {
  if (!(block instanceof asn1js.BaseBlock) || block.idBlock.tagClass !== 3) return null;
  const { tagNumber, isConstructed } = block.idBlock;
  if (tagNumber === 0 && !isConstructed) return { kind: "good" };
  if (tagNumber === 2 && !isConstructed) return { kind: "unknown" };
  if (tagNumber !== 1 || !isConstructed || !(block instanceof asn1js.Constructed)) return null;
  const [time, reasonBlock] = block.valueBlock.value;
  if (!(time instanceof asn1js.GeneralizedTime)) return null;
  const revokedAt = time.toDate();
  if (!validDate(revokedAt)) return null;
  let reason: RevocationReason | null = null;
  if (reasonBlock) {
    // revocationReason [0] EXPLICIT CRLReason (ENUMERATED)
    const inner = reasonBlock instanceof asn1js.Constructed ? reasonBlock.valueBlock.value[0] : undefined;
    if (reasonBlock.idBlock.tagClass !== 3 || reasonBlock.idBlock.tagNumber !== 0 || !(inner instanceof asn1js.Enumerated)) return null;
    const code = inner.valueBlock.valueDec;
    reason = (REVOCATION_REASONS as Record<number, RevocationReason>)[code] ?? "unspecified";
  }
  return { kind: "revoked", revokedAt, reason };
}

/** Critical extensions other than the nonce are not understood here, so RFC 5280 §4.2 says reject. */
function hasUnknownCriticalExtension(extensions: pkijs.Extension[] | undefined): boolean {
  return (extensions ?? []).some((e) => e.critical && e.extnID !== OID_OCSP_NONCE);
}

// ---------------------------------------------------------------------------------------------------------------
// Signatures

type SignatureOutcome = "valid" | "invalid" | "unsupported";

/**
 * Verifies `signature` over `data` under `spki` with `algorithm`, restricted to SIGNATURE_ALGORITHMS and to the
 * key type each needs (an ECDSA algorithm identifier never verifies with an RSA key). Never throws.
 */
async function verifySignature(
  data: Uint8Array,
  signature: asn1js.BitString,
  spki: pkijs.PublicKeyInfo,
  algorithm: pkijs.AlgorithmIdentifier,
): Promise<SignatureOutcome> {
  const allowed = SIGNATURE_ALGORITHMS[algorithm.algorithmId];
  if (!allowed) return "unsupported";
  try {
    if (!allowed.keyOids.includes(spki.algorithm.algorithmId)) return "invalid";
    if (signature.valueBlock.unusedBits !== 0) return "invalid";
    if (algorithm.algorithmId === OID_ED25519) {
      // pkijs's engine does not know Ed25519; WebCrypto does (workerd and Node alike).
      const key = await crypto.subtle.importKey("spki", spkiDerOf(spki), { name: "Ed25519" }, false, ["verify"]);
      return (await crypto.subtle.verify({ name: "Ed25519" }, key, signature.valueBlock.valueHexView, data)) ? "valid" : "invalid";
    }
    if (algorithm.algorithmId === OID_RSA_PSS) {
      const params = new pkijs.RSASSAPSSParams({ schema: algorithm.algorithmParams });
      const hash = HASH_BY_OID[params.hashAlgorithm?.algorithmId ?? OID_SHA1];
      if (!hash || hash === "SHA-1") return "unsupported";
    }
    const engine = pkijs.getCrypto(true);
    return (await engine.verifyWithPublicKey(data, signature, spki, algorithm)) ? "valid" : "invalid";
  } catch {
    return "invalid";
  }
}
