/**
 * The in-process RFC 3161 responder of the dev TSA: it answers POST /dev/tsa (tsa.ts) and the signer's TSA URL
 * "internal" (through the port media/c2pa/tsa-dev-port.ts, installed by app.ts). It needs the TSA certificate chain
 * and key of the bindings (the dev PKI mints them).
 */
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
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
  positiveInteger,
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
function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}
