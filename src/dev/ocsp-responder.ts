/**
 * The development OCSP responder (RFC 6960) for the dev PKI: answers DER OCSPRequests for the dev intermediate
 * CA's certificates. Development only: POST /dev/ocsp serves it, and verification asks it in process through the
 * port of media/c2pa/ocsp-dev-port.ts (a Worker cannot fetch itself).
 */
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import {
  derOf,
  digest,
  HASH_BY_OID,
  normalizedSerialHex,
  normalizeHexKey,
  OID_CURVE_P384,
  OID_OCSP_BASIC,
  OID_OCSP_NONCE,
  parseDer,
  REVOCATION_REASONS,
  toArrayBuffer,
  wholeSeconds,
} from "../media/c2pa/ocsp-der";
import type { DevOcspResponder } from "../media/c2pa/ocsp-dev-port";
import { pemBlocks } from "../media/c2pa/tsa-der";
import { equalBytes } from "../platform/bytes";

/** The dev responder answers at most this many Requests in one OCSPRequest (RFC 5019 clients send one). */
const MAX_REQUESTS = 8;
const DEV_RESPONSE_VALIDITY_MS = 3_600_000;

/** An entry of the dev responder's revocation list, keyed by `serialNumberHex`. */
export interface DevRevocation {
  revokedAt: Date;
  /** CRLReason code (RFC 5280 §5.3.1); omitted from the response when absent or not a CRLReason. */
  reason?: number;
}

interface LoadedResponder {
  signer: pkijs.Certificate;
  ca: pkijs.Certificate;
  delegated: boolean;
  key: CryptoKey;
  hash: "SHA-256" | "SHA-384";
  /** SHA-1 of the signer's subjectPublicKey bits: the ResponderID byKey. */
  keyId: Uint8Array;
}

const loadedResponders = new Map<string, Promise<LoadedResponder>>();

/** Parses and imports the responder credentials once per isolate (keyed by the PEM texts). */
function loadResponder(creds: DevOcspResponder): Promise<LoadedResponder> {
  const cacheKey = `${creds.certPem}\u0000${creds.keyPkcs8Pem}\u0000${creds.caCertPem ?? ""}`;
  let loaded = loadedResponders.get(cacheKey);
  if (!loaded) {
    loaded = (async () => {
      const signerDer = pemBlocks(creds.certPem, "CERTIFICATE")[0];
      if (!signerDer) throw new Error("OCSP: no responder certificate");
      const signer = pkijs.Certificate.fromBER(signerDer);
      const caDer = creds.caCertPem ? pemBlocks(creds.caCertPem, "CERTIFICATE")[0] : undefined;
      if (creds.caCertPem && !caDer) throw new Error("OCSP: no CA certificate");
      const ca = caDer ? pkijs.Certificate.fromBER(caDer) : signer;
      const keyDer = pemBlocks(creds.keyPkcs8Pem, "PRIVATE KEY")[0];
      if (!keyDer) throw new Error("OCSP: no PKCS#8 private key");
      const params = signer.subjectPublicKeyInfo.algorithm.algorithmParams;
      const curveOid = params instanceof asn1js.ObjectIdentifier ? params.valueBlock.toString() : "";
      const namedCurve = curveOid === OID_CURVE_P384 ? "P-384" : "P-256";
      const key = await crypto.subtle.importKey("pkcs8", keyDer, { name: "ECDSA", namedCurve }, false, ["sign"]);
      const keyId = await digest("SHA-1", signer.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView);
      return { signer, ca, delegated: caDer !== undefined, key, hash: namedCurve === "P-384" ? "SHA-384" : "SHA-256", keyId };
    })();
    loaded.catch(() => loadedResponders.delete(cacheKey));
    loadedResponders.set(cacheKey, loaded);
  }
  return loaded;
}

/**
 * Dev OCSP responder: answers a DER OCSPRequest with a DER OCSPResponse. Invariant: never throws for bad
 * input; an unparsable request, an empty or oversized request list or a nonce outside 1..32 octets (RFC 8954
 * §2.1) yields `malformedRequest`, a failure of its own `internalError`. Otherwise one SingleResponse per
 * Request, echoing its CertID: `revoked` (time, reason) when the CertID names the CA and a serial of `revoked`,
 * `good` for any other serial of that CA (the dev responder keeps no list of issued serials), and `unknown` for
 * CertIDs of other issuers or unsupported hash algorithms (RFC 6960 §2.2). thisUpdate = producedAt = `now` (to
 * the second), nextUpdate = now + 1 h, ResponderID byKey, the request's nonce echoed, and the responder's
 * certificate included when it is delegated.
 */
export async function respondOcsp(
  requestDer: Uint8Array,
  responder: DevOcspResponder,
  revoked: ReadonlyMap<string, DevRevocation>,
  now: Date,
): Promise<Uint8Array> {
  let request: pkijs.OCSPRequest;
  try {
    const parsed = parseDer(requestDer);
    if (!(parsed instanceof asn1js.Sequence)) return errorResponse(1);
    request = new pkijs.OCSPRequest({ schema: parsed });
  } catch {
    return errorResponse(1);
  }
  const list = request.tbsRequest.requestList;
  if (list.length === 0 || list.length > MAX_REQUESTS) return errorResponse(1);
  const nonce = request.tbsRequest.requestExtensions?.find((e) => e.extnID === OID_OCSP_NONCE);
  if (nonce) {
    const length = nonceLength(nonce.extnValue.valueBlock.valueHexView);
    if (length < 1 || length > 32) return errorResponse(1);
  }
  try {
    const loaded = await loadResponder(responder);
    const revokedBySerial = new Map<string, DevRevocation>();
    for (const [serial, entry] of revoked) revokedBySerial.set(normalizeHexKey(serial), entry);
    const thisUpdate = wholeSeconds(now);
    const nextUpdate = new Date(thisUpdate.getTime() + DEV_RESPONSE_VALIDITY_MS);
    const responses: pkijs.SingleResponse[] = [];
    for (const entry of list) {
      const certID = entry.reqCert;
      const status = (await namesCa(certID, loaded.ca))
        ? statusBlock(revokedBySerial.get(normalizedSerialHex(certID.serialNumber.valueBlock.valueHexView)))
        : primitiveStatus(2);
      responses.push(new pkijs.SingleResponse({ certID, certStatus: status, thisUpdate, nextUpdate }));
    }
    const basic = new pkijs.BasicOCSPResponse({
      tbsResponseData: new pkijs.ResponseData({
        responderID: new asn1js.OctetString({ valueHex: loaded.keyId }),
        producedAt: thisUpdate,
        responses,
        ...(nonce
          ? {
              responseExtensions: [
                new pkijs.Extension({ extnID: OID_OCSP_NONCE, extnValue: toArrayBuffer(nonce.extnValue.valueBlock.valueHexView) }),
              ],
            }
          : {}),
      }),
      ...(loaded.delegated ? { certs: [loaded.signer] } : {}),
    });
    await basic.sign(loaded.key, loaded.hash);
    const response = new pkijs.OCSPResponse({
      responseStatus: new asn1js.Enumerated({ value: 0 }),
      responseBytes: new pkijs.ResponseBytes({
        responseType: OID_OCSP_BASIC,
        response: new asn1js.OctetString({ valueHex: basic.toSchema().toBER(false) }),
      }),
    });
    return new Uint8Array(response.toSchema().toBER(false));
  } catch {
    return errorResponse(2);
  }
}

/** Whether a request's CertID names `ca` (its subject and key, hashed with the CertID's algorithm). */
async function namesCa(certID: pkijs.CertID, ca: pkijs.Certificate): Promise<boolean> {
  const hash = HASH_BY_OID[certID.hashAlgorithm.algorithmId];
  if (!hash) return false;
  const nameHash = await digest(hash, derOf(ca.subject.toSchema()));
  const keyHash = await digest(hash, ca.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView);
  return (
    equalBytes(nameHash, certID.issuerNameHash.valueBlock.valueHexView) && equalBytes(keyHash, certID.issuerKeyHash.valueBlock.valueHexView)
  );
}

function statusBlock(revocation: DevRevocation | undefined): asn1js.BaseBlock {
  if (!revocation) return primitiveStatus(0);
  const reason = revocation.reason;
  const validReason = reason !== undefined && Number.isInteger(reason) && reason in REVOCATION_REASONS;
  return new asn1js.Constructed({
    idBlock: { tagClass: 3, tagNumber: 1 },
    value: [
      new asn1js.GeneralizedTime({ valueDate: wholeSeconds(revocation.revokedAt) }),
      ...(validReason
        ? [new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 0 }, value: [new asn1js.Enumerated({ value: reason })] })]
        : []),
    ],
  });
}

/** good [0] / unknown [2]: IMPLICIT NULL, an empty context-specific primitive. */
function primitiveStatus(tagNumber: 0 | 2): asn1js.BaseBlock {
  return new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber } });
}

/** An OCSPResponse with an error status and no responseBytes (1 malformedRequest, 2 internalError). */
function errorResponse(status: 1 | 2): Uint8Array {
  return new Uint8Array(new pkijs.OCSPResponse({ responseStatus: new asn1js.Enumerated({ value: status }) }).toSchema().toBER(false));
}

/** Octets of the nonce inside the extension value: an OCTET STRING (RFC 8954) or, from old clients, raw bytes. */
function nonceLength(extnValue: Uint8Array): number {
  const inner = parseDer(extnValue);
  if (inner instanceof asn1js.OctetString && !inner.idBlock.isConstructed) return inner.valueBlock.valueHexView.length;
  return extnValue.length;
}
