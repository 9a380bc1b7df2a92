/**
 * RFC 3161 time-stamping: a client for a remote TSA and for the in-process dev responder (src/dev/tsa-responder.ts,
 * reached through the port tsa-dev-port.ts), both producing the TimeStampToken that C2PA stores in the COSE
 * unprotected header `sigTst2`.
 *
 * What C2PA v2 timestamps (c2pa-rs `sigtst.rs`): the SHA-256 message imprint of
 * ["CounterSignature", protected, h'', bstr(cbor(bstr(signature)))] (see `sigTst2Data` in cose.ts), and the
 * header holds the bare TimeStampToken (a CMS ContentInfo), not the TimeStampResp around it. c2pa-rs then checks
 * the imprint, the CMS signature (over the DER re-encoding of the signed attributes, so those must be in DER
 * SET OF order), the TSA certificate's profile (EKU timeStamping) and its chain to the trust anchors.
 */

import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { equalBytes } from "../../platform/bytes";
import {
  childrenOf,
  contentOf,
  encodingOf,
  NULL,
  octetString,
  oid,
  oidText,
  readTlv,
  sequence,
  smallInteger,
  type Tlv,
  TRUE,
  unsignedInteger,
} from "./der";
import { OID_SHA256, OID_SIGNED_DATA, OID_TST_INFO, octetStringContent, positiveInteger } from "./tsa-der";
import { answerDevTimestamp } from "./tsa-dev-port";

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
  // Written directly (der.ts): the same DER pkijs's TimeStampReq wrote, without its schema machinery.
  const der = sequence(smallInteger(1), sequence(sequence(SHA256_OID, NULL), octetString(imprint)), unsignedInteger(nonce), TRUE);
  return { der, imprint, nonce };
}

const SHA256_OID = oid(OID_SHA256);

/**
 * Checks a TimeStampResp against its request and returns the TimeStampToken's DER bytes exactly as the TSA sent
 * them. Invariant: returns only for status granted / grantedWithMods with a SHA-256 imprint equal to
 * `expected.imprint` and a nonce equal to `expected.nonce`; throws otherwise.
 */
export function extractTimeStampToken(responseDer: Uint8Array, expected: TimeStampRequest): Uint8Array {
  const granted = grantedToken(responseDer);
  if (granted) {
    // The checks of the asn1js path below, on the strictly parsed DER.
    if (granted.imprintAlg !== OID_SHA256) throw new Error("TSA: unexpected imprint algorithm");
    if (!equalBytes(granted.imprint, expected.imprint)) throw new Error("TSA: the token's message imprint does not match the request");
    if (!granted.nonce || !equalBytes(granted.nonce, expected.nonce)) throw new Error("TSA: the token's nonce does not match the request");
    return granted.token.slice();
  }
  return extractWithAsn1js(responseDer, expected);
}

/**
 * A granted TimeStampResp read as strict DER: the token's exact encoding, its TSTInfo imprint and nonce. Null for
 * anything else (a rejection, BER, a shape this reader does not follow): extractWithAsn1js then decides, as before.
 * Structure (RFC 3161 §2.4.2, RFC 5652 §5.1): TimeStampResp { PKIStatusInfo { status, … }, ContentInfo {
 * signedData, [0] SignedData { version, digestAlgorithms SET, EncapsulatedContentInfo { id-ct-TSTInfo,
 * [0] OCTET STRING TSTInfo }, [0] certificates?, [1] crls?, signerInfos SET } } }.
 */
function grantedToken(
  b: Uint8Array,
): { token: Uint8Array; imprintAlg: string | null; imprint: Uint8Array; nonce: Uint8Array | null } | null {
  const top = readTlv(b, 0);
  const resp = top?.tag === 0x30 ? childrenOf(b, top) : null;
  if (resp?.length !== 2 || resp[0]!.tag !== 0x30 || resp[1]!.tag !== 0x30) return null;
  const statusInfo = childrenOf(b, resp[0]!);
  const status = statusInfo?.[0];
  if (status?.tag !== 0x02 || status.end - status.start !== 1 || (b[status.start] !== 0 && b[status.start] !== 1)) return null;
  const contentInfo = childrenOf(b, resp[1]!);
  if (contentInfo?.length !== 2 || contentInfo[0]!.tag !== 0x06 || contentInfo[1]!.tag !== 0xa0) return null;
  if (oidText(contentOf(b, contentInfo[0]!)) !== OID_SIGNED_DATA) return null;
  const explicit = childrenOf(b, contentInfo[1]!);
  if (explicit?.length !== 1 || explicit[0]!.tag !== 0x30) return null;
  const signedData = childrenOf(b, explicit[0]!);
  if (!signedData || signedData.length < 4) return null;
  const [version, digestAlgorithms, encap] = signedData;
  const signerInfos = signedData[signedData.length - 1]!;
  const middle = signedData.slice(3, -1).map((t) => t.tag);
  if (version!.tag !== 0x02 || digestAlgorithms!.tag !== 0x31 || encap!.tag !== 0x30 || signerInfos.tag !== 0x31) return null;
  if (!(middle.length === 0 || (middle.length === 1 && [0xa0, 0xa1].includes(middle[0]!)) || middle.join() === "160,161")) return null;
  // The contents pkijs's SignedData schema checked (#19 review): AlgorithmIdentifiers, certificates, SignerInfos.
  // Anything else is left to the asn1js path, which refuses what it refused before.
  const digests = childrenOf(b, digestAlgorithms!);
  if (!digests?.every((d) => isAlgorithmIdentifier(b, d))) return null;
  const certs = middle[0] === 0xa0 ? childrenOf(b, signedData[3]!) : [];
  if (
    !certs?.every(
      (c) =>
        c.tag === 0x30 &&
        childrenOf(b, c)
          ?.map((p) => p.tag)
          .join() === "48,48,3",
    )
  )
    return null;
  const signers = childrenOf(b, signerInfos);
  if (!signers?.length || !signers.every((s) => isSignerInfo(b, s))) return null;
  const encapContent = childrenOf(b, encap!);
  if (encapContent?.length !== 2 || encapContent[0]!.tag !== 0x06 || encapContent[1]!.tag !== 0xa0) return null;
  if (oidText(contentOf(b, encapContent[0]!)) !== OID_TST_INFO) return null;
  const eContent = childrenOf(b, encapContent[1]!);
  if (eContent?.length !== 1 || eContent[0]!.tag !== 0x04) return null; // a constructed (BER) OCTET STRING: asn1js path
  // TSTInfo { version, policy, messageImprint { AlgorithmIdentifier, hashedMessage }, serialNumber, genTime,
  // accuracy?, ordering?, nonce?, [0] tsa?, [1] extensions? }
  const tstTop = readTlv(b, eContent[0]!.start, eContent[0]!.end);
  if (tstTop?.tag !== 0x30 || tstTop.end !== eContent[0]!.end) return null;
  const tst = childrenOf(b, tstTop);
  if (!tst || tst.length < 5) return null;
  const [tv, policy, imprint, serial, genTime] = tst;
  if (tv!.tag !== 0x02 || policy!.tag !== 0x06 || imprint!.tag !== 0x30 || serial!.tag !== 0x02 || genTime!.tag !== 0x18) return null;
  const optional = tst.slice(5);
  const order = [0x30, 0x01, 0x02, 0xa0, 0xa1];
  let last = -1;
  for (const t of optional) {
    const i = order.indexOf(t.tag);
    if (i <= last) return null;
    last = i;
  }
  if (!optional.every((t) => optionalTstFieldIsWellFormed(b, t))) return null;
  const imprintParts = childrenOf(b, imprint!);
  if (imprintParts?.length !== 2 || imprintParts[0]!.tag !== 0x30 || imprintParts[1]!.tag !== 0x04) return null;
  const alg = childrenOf(b, imprintParts[0]!);
  if (!alg || alg.length < 1 || alg.length > 2 || alg[0]!.tag !== 0x06) return null;
  const nonce = optional.find((t) => t.tag === 0x02);
  return {
    token: encodingOf(b, resp[1]!),
    imprintAlg: oidText(contentOf(b, alg[0]!)),
    imprint: contentOf(b, imprintParts[1]!),
    nonce: nonce ? contentOf(b, nonce) : null,
  };
}

/** AlgorithmIdentifier { OBJECT IDENTIFIER, parameters? }. */
function isAlgorithmIdentifier(b: Uint8Array, t: Tlv): boolean {
  const parts = t.tag === 0x30 ? childrenOf(b, t) : null;
  return !!parts && parts.length >= 1 && parts.length <= 2 && parts[0]!.tag === 0x06 && oidText(contentOf(b, parts[0]!)) !== null;
}

/**
 * SignerInfo { version INTEGER, sid (IssuerAndSerialNumber | [0] SubjectKeyIdentifier), digestAlgorithm,
 * [0] signedAttrs?, signatureAlgorithm, signature OCTET STRING, [1] unsignedAttrs? } (RFC 5652 §5.3).
 */
function isSignerInfo(b: Uint8Array, t: Tlv): boolean {
  const f = t.tag === 0x30 ? childrenOf(b, t) : null;
  if (!f || f.length < 5 || f[0]!.tag !== 0x02) return false;
  const sid = f[1]!;
  if (sid.tag === 0x30) {
    const ias = childrenOf(b, sid);
    if (ias?.length !== 2 || ias[0]!.tag !== 0x30 || ias[1]!.tag !== 0x02) return false;
  } else if (sid.tag !== 0x80) return false;
  let i = 2;
  if (!isAlgorithmIdentifier(b, f[i++]!)) return false;
  if (f[i]?.tag === 0xa0) {
    const attrs = childrenOf(b, f[i++]!);
    if (!attrs?.every((a) => a.tag === 0x30)) return false;
  }
  if (!f[i] || !isAlgorithmIdentifier(b, f[i++]!)) return false;
  if (f[i++]?.tag !== 0x04) return false;
  if (f[i]?.tag === 0xa1) {
    const attrs = childrenOf(b, f[i++]!);
    if (!attrs?.every((a) => a.tag === 0x30)) return false;
  }
  return i === f.length;
}

/** TSTInfo's optional fields as pkijs's TSTInfo schema reads them: accuracy, ordering, nonce, [0] tsa, [1] extensions. */
function optionalTstFieldIsWellFormed(b: Uint8Array, t: Tlv): boolean {
  switch (t.tag) {
    case 0x30: {
      // Accuracy { seconds INTEGER?, [0] millis?, [1] micros? }
      const parts = childrenOf(b, t);
      if (!parts) return false;
      let last = -1;
      for (const p of parts) {
        const i = [0x02, 0x80, 0x81].indexOf(p.tag);
        if (i <= last || p.end === p.start) return false;
        last = i;
      }
      return true;
    }
    case 0x01:
      return t.end - t.start === 1 && (b[t.start] === 0 || b[t.start] === 0xff);
    case 0x02:
      return t.end > t.start;
    case 0xa0:
      return childrenOf(b, t)?.length === 1;
    case 0xa1:
      return !!childrenOf(b, t)?.every((e) => e.tag === 0x30);
    default:
      return false;
  }
}

/** The original asn1js/pkijs reading, for responses the strict reader leaves (rejections, BER encodings). */
function extractWithAsn1js(responseDer: Uint8Array, expected: TimeStampRequest): Uint8Array {
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
 * of `application/timestamp-query`; "internal" asks the installed dev TSA in process (tsa-dev-port.ts). Either way the answer passes
 * `extractTimeStampToken` (status, imprint, nonce) before it is returned.
 */
export async function requestTimestamp(data: Uint8Array, config: TsaConfig, now: Date = new Date()): Promise<Uint8Array> {
  const request = await buildTimeStampRequest(data);
  let responseDer: Uint8Array;
  if (config.kind === "internal") {
    responseDer = await answerDevTimestamp(request.der, { chainPem: config.chainPem, keyPkcs8Pem: config.keyPkcs8Pem }, now);
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
