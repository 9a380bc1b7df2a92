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
