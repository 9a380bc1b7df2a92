/**
 * RFC 3161 time-stamping: a client for a remote TSA and a development TSA responder, both producing the
 * TimeStampToken that C2PA stores in the COSE unprotected header `sigTst2`.
 *
 * What C2PA v2 timestamps (c2pa-rs `sigtst.rs`): the SHA-256 message imprint of
 * ["CounterSignature", protected, h'', bstr(cbor(bstr(signature)))] (see `sigTst2Data` in cose.ts), and the
 * header holds the bare TimeStampToken (a CMS ContentInfo), not the TimeStampResp around it. c2pa-rs then checks
 * the imprint, the CMS signature (over the DER re-encoding of the signed attributes, so those must be in DER
 * SET OF order), the TSA certificate's profile (EKU timeStamping) and its chain to the trust anchors.
 */

import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { concatBytes, equalBytes } from "../../platform/bytes";

const OID_SHA256 = "2.16.840.1.101.3.4.2.1";
const OID_SHA384 = "2.16.840.1.101.3.4.2.2";
const OID_SHA512 = "2.16.840.1.101.3.4.2.3";
const OID_SIGNED_DATA = "1.2.840.113549.1.7.2";
const OID_TST_INFO = "1.2.840.113549.1.9.16.1.4";
const OID_CONTENT_TYPE = "1.2.840.113549.1.9.3";
const OID_MESSAGE_DIGEST = "1.2.840.113549.1.9.4";
const OID_SIGNING_TIME = "1.2.840.113549.1.9.5";
const OID_SIGNING_CERTIFICATE_V2 = "1.2.840.113549.1.9.16.2.47";
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

/** Where timestamps come from: a remote RFC 3161 TSA, or the dev responder called in process. */
export type TsaConfig =
  | {
      kind: "remote";
      url: string;
      /** Injected for tests or a service binding; defaults to the global fetch. */
      fetch?: typeof fetch;
      timeoutMs?: number;
    }
  | { kind: "internal"; chainPem: string; keyPkcs8Pem: string };

/**
 * Reads the TSA settings of the bindings: `url` "internal" selects the in-process dev responder (which then
 * needs the TSA chain and key); any other URL is a remote TSA; nothing configured means no timestamps.
 */
export function tsaConfigFrom(settings: {
  url?: string | undefined;
  chainPem?: string | undefined;
  keyPkcs8Pem?: string | undefined;
}): TsaConfig | null {
  const url = settings.url?.trim();
  if (!url) return null;
  if (url === "internal") {
    if (!settings.chainPem || !settings.keyPkcs8Pem) {
      throw new Error('TSA URL "internal" needs the TSA certificate chain and key');
    }
    return { kind: "internal", chainPem: settings.chainPem, keyPkcs8Pem: settings.keyPkcs8Pem };
  }
  return { kind: "remote", url };
}

/** A TimeStampReq ready to send, with what its answer must echo. */
export interface TimeStampRequest {
  der: Uint8Array;
  /** SHA-256 of the data. */
  imprint: Uint8Array;
  /** Positive, minimally encoded big-endian nonce. */
  nonce: Uint8Array;
}

/** Builds a DER TimeStampReq (v1, SHA-256 imprint of `data`, random 64-bit nonce, certReq TRUE). */
export async function buildTimeStampRequest(data: Uint8Array): Promise<TimeStampRequest> {
  const imprint = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
  const nonce = positiveInteger(crypto.getRandomValues(new Uint8Array(8)));
  const req = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID_SHA256, algorithmParams: new asn1js.Null() }),
      hashedMessage: new asn1js.OctetString({ valueHex: imprint }),
    }),
    nonce: new asn1js.Integer({ valueHex: nonce }),
    certReq: true,
  });
  return { der: new Uint8Array(req.toSchema().toBER(false)), imprint, nonce };
}

/**
 * Checks a TimeStampResp against its request and returns the TimeStampToken's DER bytes exactly as the TSA sent
 * them. Invariant: returns only for status granted / grantedWithMods with a SHA-256 imprint equal to
 * `expected.imprint` and a nonce equal to `expected.nonce`; throws otherwise.
 */
export function extractTimeStampToken(responseDer: Uint8Array, expected: TimeStampRequest): Uint8Array {
  const parsed = asn1js.fromBER(responseDer);
  if (parsed.offset === -1 || !(parsed.result instanceof asn1js.Sequence)) {
    throw new Error("TSA: the response is not DER");
  }
  const resp = new pkijs.TimeStampResp({ schema: parsed.result });
  const status = resp.status.status;
  if (status !== 0 && status !== 1) {
    const text = resp.status.statusStrings?.map((s) => s.valueBlock.value).join("; ") ?? "";
    throw new Error(`TSA: request not granted (status ${status}${text ? `: ${text}` : ""})`);
  }
  const token = resp.timeStampToken;
  if (!token || token.contentType !== OID_SIGNED_DATA) throw new Error("TSA: the response carries no token");
  const signed = new pkijs.SignedData({ schema: token.content });
  const eContent = signed.encapContentInfo.eContent;
  if (signed.encapContentInfo.eContentType !== OID_TST_INFO || !eContent) {
    throw new Error("TSA: the token has no TSTInfo");
  }
  const tstInfo = pkijs.TSTInfo.fromBER(octetStringContent(eContent));
  if (tstInfo.messageImprint.hashAlgorithm.algorithmId !== OID_SHA256) throw new Error("TSA: unexpected imprint algorithm");
  if (!equalBytes(tstInfo.messageImprint.hashedMessage.valueBlock.valueHexView, expected.imprint)) {
    throw new Error("TSA: the token's message imprint does not match the request");
  }
  if (!tstInfo.nonce || !equalBytes(tstInfo.nonce.valueBlock.valueHexView, expected.nonce)) {
    throw new Error("TSA: the token's nonce does not match the request");
  }
  // The token is the second element of the TimeStampResp SEQUENCE: return its original encoding (a re-encoding
  // could differ from what the TSA signed over).
  const tokenBlock = parsed.result.valueBlock.value[1];
  if (!tokenBlock) throw new Error("TSA: the response carries no token");
  return new Uint8Array(tokenBlock.valueBeforeDecodeView);
}

/**
 * Obtains a TimeStampToken (DER ContentInfo) over `data` from the configured TSA. Remote TSAs get an HTTP POST
 * of `application/timestamp-query`; "internal" runs `respondTimestamp` in process. Either way the answer passes
 * `extractTimeStampToken` (status, imprint, nonce) before it is returned.
 */
export async function requestTimestamp(data: Uint8Array, config: TsaConfig, now: Date = new Date()): Promise<Uint8Array> {
  const request = await buildTimeStampRequest(data);
  let responseDer: Uint8Array;
  if (config.kind === "internal") {
    responseDer = await respondTimestamp(request.der, { chainPem: config.chainPem, keyPkcs8Pem: config.keyPkcs8Pem }, now);
  } else {
    const doFetch = config.fetch ?? fetch;
    const response = await doFetch(config.url, {
      method: "POST",
      headers: { "content-type": "application/timestamp-query", accept: "application/timestamp-reply" },
      body: request.der,
      signal: AbortSignal.timeout(config.timeoutMs ?? 10_000),
    });
    if (!response.ok) throw new Error(`TSA: HTTP ${response.status} from ${config.url}`);
    const type = response.headers.get("content-type") ?? "";
    if (!/^application\/timestamp-(reply|response)\b/i.test(type)) {
      throw new Error(`TSA: unexpected content type "${type}" from ${config.url}`);
    }
    responseDer = new Uint8Array(await response.arrayBuffer());
  }
  return extractTimeStampToken(responseDer, request);
}

/** The dev TSA's credentials: certificate chain (TSA leaf first, then intermediates) and PKCS#8 key (ECDSA). */
export interface DevTsaCredentials {
  chainPem: string;
  keyPkcs8Pem: string;
}

interface LoadedTsa {
  chain: pkijs.Certificate[];
  leafDer: Uint8Array;
  key: CryptoKey;
  hash: "SHA-256" | "SHA-384";
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
      const chain = ders.map((der) => pkijs.Certificate.fromBER(der));
      const leaf = chain[0]!;
      const keyDer = pemBlocks(creds.keyPkcs8Pem, "PRIVATE KEY")[0];
      if (!keyDer) throw new Error("TSA: no PKCS#8 private key");
      const params = leaf.subjectPublicKeyInfo.algorithm.algorithmParams;
      const curveOid = params instanceof asn1js.ObjectIdentifier ? params.valueBlock.toString() : "";
      const namedCurve = curveOid === "1.3.132.0.34" ? "P-384" : "P-256";
      const key = await crypto.subtle.importKey("pkcs8", keyDer, { name: "ECDSA", namedCurve }, false, ["sign"]);
      return { chain, leafDer: ders[0]!, key, hash: namedCurve === "P-384" ? "SHA-384" : "SHA-256" };
    })();
    loaded.catch(() => loadedTsas.delete(cacheKey));
    loadedTsas.set(cacheKey, loaded);
  }
  return loaded;
}

/**
 * Dev TSA responder: answers a DER TimeStampReq with a DER TimeStampResp. Invariant: never throws for bad input;
 * an unparsable request, an unknown hash algorithm or a wrong-length imprint yields a `rejection` response with
 * the RFC 3161 failInfo bit; a good one yields a granted response whose token is signed by the TSA key at `now`
 * (to the second), echoes the nonce, and embeds the TSA chain when `certReq` is set.
 */
export async function respondTimestamp(requestDer: Uint8Array, tsa: DevTsaCredentials, now: Date): Promise<Uint8Array> {
  let req: pkijs.TimeStampReq;
  try {
    req = pkijs.TimeStampReq.fromBER(requestDer);
  } catch {
    return rejection(FAIL_BAD_DATA_FORMAT, "request is not a DER TimeStampReq");
  }
  if (req.version !== 1) return rejection(FAIL_BAD_REQUEST, "unsupported request version");
  const imprintLength = IMPRINT_LENGTH_BY_OID[req.messageImprint.hashAlgorithm.algorithmId];
  if (!imprintLength) return rejection(FAIL_BAD_ALG, "unsupported message imprint algorithm");
  if (req.messageImprint.hashedMessage.valueBlock.valueHexView.length !== imprintLength) {
    return rejection(FAIL_BAD_DATA_FORMAT, "message imprint length does not match its algorithm");
  }
  if (req.reqPolicy && req.reqPolicy !== DEV_TSA_POLICY_OID) return rejection(FAIL_UNACCEPTED_POLICY, "unaccepted policy");
  try {
    const token = await signToken(req, await loadTsa(tsa), now);
    const resp = new pkijs.TimeStampResp({
      status: new pkijs.PKIStatusInfo({ status: pkijs.PKIStatus.granted }),
      timeStampToken: token,
    });
    return new Uint8Array(resp.toSchema().toBER(false));
  } catch {
    return rejection(FAIL_SYSTEM_FAILURE, "TSA failure");
  }
}

async function signToken(req: pkijs.TimeStampReq, tsa: LoadedTsa, now: Date): Promise<pkijs.ContentInfo> {
  const genTime = new Date(Math.floor(now.getTime() / 1000) * 1000); // DER GeneralizedTime without fraction
  const tstInfo = new pkijs.TSTInfo({
    version: 1,
    policy: DEV_TSA_POLICY_OID,
    messageImprint: req.messageImprint,
    serialNumber: new asn1js.Integer({ valueHex: positiveInteger(crypto.getRandomValues(new Uint8Array(16))) }),
    genTime,
    accuracy: new pkijs.Accuracy({ seconds: 1 }),
    ...(req.nonce ? { nonce: req.nonce } : {}),
  });
  const tstInfoDer = new Uint8Array(tstInfo.toSchema().toBER(false));
  const leaf = tsa.chain[0]!;
  const hashOid = tsa.hash === "SHA-384" ? OID_SHA384 : OID_SHA256;
  const contentDigest = new Uint8Array(await crypto.subtle.digest(tsa.hash, tstInfoDer));
  const leafHash = new Uint8Array(await crypto.subtle.digest("SHA-256", tsa.leafDer));

  const attributes = [
    attribute(OID_CONTENT_TYPE, new asn1js.ObjectIdentifier({ value: OID_TST_INFO })),
    attribute(OID_SIGNING_TIME, new asn1js.UTCTime({ valueDate: genTime })),
    attribute(OID_MESSAGE_DIGEST, new asn1js.OctetString({ valueHex: contentDigest })),
    // SigningCertificateV2 { certs: [ESSCertIDv2 { certHash }] } (hashAlgorithm SHA-256 is the DEFAULT, omitted).
    attribute(
      OID_SIGNING_CERTIFICATE_V2,
      new asn1js.Sequence({
        value: [
          new asn1js.Sequence({
            value: [new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: leafHash })] })],
          }),
        ],
      }),
    ),
  ];
  // DER SET OF order: verifiers re-encode the signed attributes before checking the signature.
  attributes.sort((a, b) => compareBytes(derOf(a), derOf(b)));

  const encapContentInfo = new pkijs.EncapsulatedContentInfo({ eContentType: OID_TST_INFO });
  // Assigned after construction: pkijs's constructor turns an OCTET STRING into a constructed (BER) one, which
  // c2pa-rs's DER decoder rejects ("timestamp response had no TstInfo").
  encapContentInfo.eContent = new asn1js.OctetString({ valueHex: tstInfoDer });
  const signed = new pkijs.SignedData({
    version: 3,
    encapContentInfo,
    signerInfos: [
      new pkijs.SignerInfo({
        version: 1,
        sid: new pkijs.IssuerAndSerialNumber({ issuer: leaf.issuer, serialNumber: leaf.serialNumber }),
        signedAttrs: new pkijs.SignedAndUnsignedAttributes({ type: 0, attributes }),
      }),
    ],
    ...(req.certReq ? { certificates: sortedByDer(tsa.chain) } : {}),
  });
  await signed.sign(tsa.key, 0, tsa.hash);
  // SHA-2 AlgorithmIdentifiers without parameters (RFC 5754) rather than pkijs's NULL.
  const digestAlg = new pkijs.AlgorithmIdentifier({ algorithmId: hashOid });
  signed.digestAlgorithms = [digestAlg];
  signed.signerInfos[0]!.digestAlgorithm = digestAlg;
  return new pkijs.ContentInfo({ contentType: OID_SIGNED_DATA, content: signed.toSchema(true) });
}

function attribute(type: string, value: asn1js.BaseBlock): pkijs.Attribute {
  return new pkijs.Attribute({ type, values: [value] });
}

function derOf(a: pkijs.Attribute): Uint8Array {
  return new Uint8Array(a.toSchema().toBER(false));
}

/** Certificates as a DER SET OF (sorted by encoding). */
function sortedByDer(chain: pkijs.Certificate[]): pkijs.Certificate[] {
  return [...chain].sort((a, b) =>
    compareBytes(new Uint8Array(a.toSchema(true).toBER(false)), new Uint8Array(b.toSchema(true).toBER(false))),
  );
}

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

function octetStringContent(block: asn1js.OctetString): Uint8Array {
  // A constructed (BER) OCTET STRING keeps its pieces in valueBlock.value; DER ones hold the bytes directly.
  if (block.idBlock.isConstructed) {
    return concatBytes(block.valueBlock.value.map((p) => (p as asn1js.OctetString).valueBlock.valueHexView));
  }
  return block.valueBlock.valueHexView;
}

/** Big-endian bytes as a positive, minimally encoded DER INTEGER body. */
function positiveInteger(bytes: Uint8Array): Uint8Array {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const trimmed = bytes.subarray(start);
  if (trimmed[0]! & 0x80) {
    const out = new Uint8Array(trimmed.length + 1);
    out.set(trimmed, 1);
    return out;
  }
  return trimmed.slice();
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** DER bodies of the PEM blocks with `label`, in order. */
export function pemBlocks(pem: string, label: string): Uint8Array[] {
  const out: Uint8Array[] = [];
  const re = new RegExp(`-----BEGIN ${label}-----([\\s\\S]*?)-----END ${label}-----`, "g");
  for (const match of pem.matchAll(re)) {
    const binary = atob(match[1]!.replace(/\s+/g, ""));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    out.push(bytes);
  }
  return out;
}
