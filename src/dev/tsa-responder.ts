/**
 * The in-process RFC 3161 responder of the dev TSA: it answers POST /dev/tsa (tsa.ts) and the signer's TSA URL
 * "internal" (through the port media/c2pa/tsa-dev-port.ts, installed by app.ts). It needs the TSA certificate chain
 * and key of the bindings (the dev PKI mints them).
 */
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import {
  childrenOf,
  contentOf,
  derSetOrder,
  ecdsaSignatureDer,
  encodingOf,
  generalizedTime,
  octetString,
  oid,
  oidText,
  readTlv,
  sequence,
  setOf,
  smallInteger,
  tlv,
  unsignedInteger,
  utcTime,
} from "../media/c2pa/der";
import {
  OID_CONTENT_TYPE,
  OID_MESSAGE_DIGEST,
  OID_SHA256,
  OID_SHA384,
  OID_SHA512,
  OID_SIGNED_DATA,
  OID_SIGNING_CERTIFICATE_V2,
  OID_SIGNING_TIME,
  OID_TST_INFO,
  pemBlocks,
} from "../media/c2pa/tsa-der";
import type { DevTsaCredentials } from "../media/c2pa/tsa-dev-port";

/** TSA policy of the dev responder: a UUID-derived OID (X.667), which anyone may mint without registration. */
export const DEV_TSA_POLICY_OID = "2.25.196193726874021316389416497838219131652";

/** Message imprint algorithms the dev responder accepts, with their digest lengths. */
const IMPRINT_LENGTH_BY_OID: Record<string, number> = { [OID_SHA256]: 32, [OID_SHA384]: 48, [OID_SHA512]: 64 };

/** PKIFailureInfo bit numbers (RFC 3161 §2.4.2). */
const FAIL_BAD_ALG = 0;
const FAIL_BAD_REQUEST = 2;
const FAIL_BAD_DATA_FORMAT = 5;
const FAIL_UNACCEPTED_POLICY = 15;
const FAIL_SYSTEM_FAILURE = 25;

interface LoadedTsa {
  key: CryptoKey;
  hash: "SHA-256" | "SHA-384";
  /** The DER pieces of every token, built once per isolate: the signer's IssuerAndSerialNumber, the SHA-256 of
   * the leaf (SigningCertificateV2), the chain as a DER SET OF (the [0] certificates of SignedData). */
  issuerAndSerial: Uint8Array;
  leafHash: Uint8Array;
  certificates: Uint8Array[];
}

const loadedTsas = new Map<string, Promise<LoadedTsa>>();

/** Parses and imports the TSA credentials once per isolate (keyed by the PEM texts). */
function loadTsa(creds: DevTsaCredentials): Promise<LoadedTsa> {
  const cacheKey = `${creds.chainPem}\u0000${creds.keyPkcs8Pem}`;
  let loaded = loadedTsas.get(cacheKey);
  if (!loaded) {
    loaded = (async () => {
      const ders = pemBlocks(creds.chainPem, "CERTIFICATE");
      if (ders.length === 0) throw new Error("TSA: no certificate in the TSA chain");
      const leaf = pkijs.Certificate.fromBER(ders[0]!);
      const keyDer = pemBlocks(creds.keyPkcs8Pem, "PRIVATE KEY")[0];
      if (!keyDer) throw new Error("TSA: no PKCS#8 private key");
      const params = leaf.subjectPublicKeyInfo.algorithm.algorithmParams;
      const curveOid = params instanceof asn1js.ObjectIdentifier ? params.valueBlock.toString() : "";
      const namedCurve = curveOid === "1.3.132.0.34" ? "P-384" : "P-256";
      const key = await crypto.subtle.importKey("pkcs8", keyDer, { name: "ECDSA", namedCurve }, false, ["sign"]);
      const issuerAndSerial = sequence(new Uint8Array(leaf.issuer.toSchema().toBER(false)), new Uint8Array(leaf.serialNumber.toBER(false)));
      const leafHash = new Uint8Array(await crypto.subtle.digest("SHA-256", ders[0]!));
      return { key, hash: namedCurve === "P-384" ? "SHA-384" : "SHA-256", issuerAndSerial, leafHash, certificates: derSetOrder(ders) };
    })();
    loaded.catch(() => loadedTsas.delete(cacheKey));
    loadedTsas.set(cacheKey, loaded);
  }
  return loaded;
}

/** What the responder needs of a TimeStampReq (RFC 3161 §2.4.1). */
interface TimeStampQuery {
  version: number;
  imprintAlg: string;
  imprintLength: number;
  /** The request's MessageImprint element, echoed into the TSTInfo as is. */
  messageImprint: Uint8Array;
  reqPolicy: string | null;
  /** The INTEGER element of the nonce, echoed as is. */
  nonce: Uint8Array | null;
  certReq: boolean;
}

/**
 * TimeStampReq { version, messageImprint { AlgorithmIdentifier, OCTET STRING }, reqPolicy OID?, nonce INTEGER?,
 * certReq BOOLEAN DEFAULT FALSE, [0] extensions? } read as strict DER; a request in another encoding goes through
 * pkijs (queryWithPkijs). Null: not a TimeStampReq.
 */
function parseQuery(b: Uint8Array): TimeStampQuery | null {
  const top = readTlv(b, 0);
  const parts = top?.tag === 0x30 && top.end === b.length ? childrenOf(b, top) : null;
  if (!parts || parts.length < 2) return queryWithPkijs(b);
  const [version, imprint, ...rest] = parts;
  if (version!.tag !== 0x02 || version!.end - version!.start !== 1 || imprint!.tag !== 0x30) return queryWithPkijs(b);
  const order = [0x06, 0x02, 0x01, 0xa0];
  let last = -1;
  for (const t of rest) {
    const i = order.indexOf(t.tag);
    if (i <= last) return queryWithPkijs(b);
    last = i;
  }
  const imprintParts = childrenOf(b, imprint!);
  const alg = imprintParts?.[0]?.tag === 0x30 ? childrenOf(b, imprintParts[0]) : null;
  if (imprintParts?.length !== 2 || imprintParts[1]!.tag !== 0x04 || !alg?.length || alg[0]!.tag !== 0x06) return queryWithPkijs(b);
  const policy = rest.find((t) => t.tag === 0x06);
  const nonce = rest.find((t) => t.tag === 0x02);
  const certReq = rest.find((t) => t.tag === 0x01);
  if (certReq && (certReq.end - certReq.start !== 1 || (b[certReq.start] !== 0 && b[certReq.start] !== 0xff))) return queryWithPkijs(b);
  return {
    version: b[version!.start]!,
    imprintAlg: oidText(contentOf(b, alg[0]!)) ?? "",
    imprintLength: imprintParts[1]!.end - imprintParts[1]!.start,
    messageImprint: encodingOf(b, imprint!),
    reqPolicy: policy ? oidText(contentOf(b, policy)) : null,
    nonce: nonce ? encodingOf(b, nonce) : null,
    certReq: certReq ? b[certReq.start] === 0xff : false,
  };
}

function queryWithPkijs(b: Uint8Array): TimeStampQuery | null {
  try {
    const req = pkijs.TimeStampReq.fromBER(b);
    return {
      version: req.version,
      imprintAlg: req.messageImprint.hashAlgorithm.algorithmId,
      imprintLength: req.messageImprint.hashedMessage.valueBlock.valueHexView.length,
      messageImprint: new Uint8Array(req.messageImprint.toSchema().toBER(false)),
      reqPolicy: req.reqPolicy ?? null,
      nonce: req.nonce ? new Uint8Array(req.nonce.toBER(false)) : null,
      certReq: Boolean(req.certReq),
    };
  } catch {
    return null;
  }
}

/**
 * Dev TSA responder: answers a DER TimeStampReq with a DER TimeStampResp. Invariant: never throws for bad input;
 * an unparsable request, an unknown hash algorithm or a wrong-length imprint yields a `rejection` response with
 * the RFC 3161 failInfo bit; a good one yields a granted response whose token is signed by the TSA key at `now`
 * (to the second), echoes the nonce, and embeds the TSA chain when `certReq` is set.
 */
export async function respondTimestamp(requestDer: Uint8Array, tsa: DevTsaCredentials, now: Date): Promise<Uint8Array> {
  const req = parseQuery(requestDer);
  if (!req) return rejection(FAIL_BAD_DATA_FORMAT, "request is not a DER TimeStampReq");
  if (req.version !== 1) return rejection(FAIL_BAD_REQUEST, "unsupported request version");
  const imprintLength = IMPRINT_LENGTH_BY_OID[req.imprintAlg];
  if (!imprintLength) return rejection(FAIL_BAD_ALG, "unsupported message imprint algorithm");
  if (req.imprintLength !== imprintLength) {
    return rejection(FAIL_BAD_DATA_FORMAT, "message imprint length does not match its algorithm");
  }
  if (req.reqPolicy && req.reqPolicy !== DEV_TSA_POLICY_OID) return rejection(FAIL_UNACCEPTED_POLICY, "unaccepted policy");
  try {
    const token = await signToken(req, await loadTsa(tsa), now);
    return sequence(sequence(smallInteger(0)), token); // TimeStampResp { PKIStatusInfo { granted }, token }
  } catch {
    return rejection(FAIL_SYSTEM_FAILURE, "TSA failure");
  }
}

/**
 * The TimeStampToken (CMS ContentInfo with SignedData, RFC 3161 §2.4.2 and RFC 5652), written as DER directly
 * (der.ts): the signed attributes in DER SET OF order (verifiers re-encode them before checking the signature),
 * the eContent a primitive OCTET STRING (c2pa-rs's DER decoder refuses a constructed one: "timestamp response
 * had no TstInfo"), SHA-2 AlgorithmIdentifiers without parameters (RFC 5754).
 */
async function signToken(req: TimeStampQuery, tsa: LoadedTsa, now: Date): Promise<Uint8Array> {
  const genTime = new Date(Math.floor(now.getTime() / 1000) * 1000); // DER GeneralizedTime without fraction
  const tstInfo = sequence(
    smallInteger(1),
    oid(DEV_TSA_POLICY_OID),
    req.messageImprint,
    unsignedInteger(crypto.getRandomValues(new Uint8Array(16))),
    generalizedTime(genTime),
    sequence(smallInteger(1)), // accuracy { seconds 1 }
    ...(req.nonce ? [req.nonce] : []),
  );
  const hashOid = oid(tsa.hash === "SHA-384" ? OID_SHA384 : OID_SHA256);
  const contentDigest = new Uint8Array(await crypto.subtle.digest(tsa.hash, tstInfo));
  const attribute = (type: string, value: Uint8Array) => sequence(oid(type), setOf(value));
  const attributes = derSetOrder([
    attribute(OID_CONTENT_TYPE, oid(OID_TST_INFO)),
    attribute(OID_SIGNING_TIME, utcTime(genTime)),
    attribute(OID_MESSAGE_DIGEST, octetString(contentDigest)),
    // SigningCertificateV2 { certs: [ESSCertIDv2 { certHash }] } (hashAlgorithm SHA-256 is the DEFAULT, omitted).
    attribute(OID_SIGNING_CERTIFICATE_V2, sequence(sequence(sequence(octetString(tsa.leafHash))))),
  ]);
  const signedAttrs = setOf(...attributes);
  const raw = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: tsa.hash }, tsa.key, signedAttrs));
  const signerInfo = sequence(
    smallInteger(1),
    tsa.issuerAndSerial,
    sequence(hashOid),
    tlv(0xa0, ...attributes), // [0] IMPLICIT: the same SET OF, retagged
    sequence(oid(tsa.hash === "SHA-384" ? OID_ECDSA_SHA384 : OID_ECDSA_SHA256)),
    octetString(ecdsaSignatureDer(raw)),
  );
  const signedData = sequence(
    smallInteger(3),
    setOf(sequence(hashOid)),
    sequence(oid(OID_TST_INFO), tlv(0xa0, octetString(tstInfo))),
    ...(req.certReq ? [tlv(0xa0, ...tsa.certificates)] : []),
    setOf(signerInfo),
  );
  return sequence(oid(OID_SIGNED_DATA), tlv(0xa0, signedData));
}

const OID_ECDSA_SHA256 = "1.2.840.10045.4.3.2";
const OID_ECDSA_SHA384 = "1.2.840.10045.4.3.3";

function rejection(failBit: number, message: string): Uint8Array {
  const byteLength = (failBit >> 3) + 1;
  const bits = new Uint8Array(byteLength);
  bits[byteLength - 1] = 0x80 >> (failBit & 7);
  const resp = new pkijs.TimeStampResp({
    status: new pkijs.PKIStatusInfo({
      status: pkijs.PKIStatus.rejection,
      statusStrings: [new asn1js.Utf8String({ value: message })],
      failInfo: new asn1js.BitString({ valueHex: bits, unusedBits: 7 - (failBit & 7) }),
    }),
  });
  return new Uint8Array(resp.toSchema().toBER(false));
}
