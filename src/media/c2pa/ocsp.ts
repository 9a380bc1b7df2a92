/**
 * OCSP (RFC 6960, in the RFC 5019 lightweight profile): a client that asks the responder named in a certificate's
 * Authority Information Access extension for the certificate's revocation status and verifies the answer, a cache
 * interface for those answers, and a development responder for the dev PKI.
 *
 * What "verified" means here (RFC 6960 §3.2 and §4.2.2.2), all of it checked before a status is reported:
 *  - the BasicOCSPResponse signature verifies, with an allowed algorithm (no MD5/SHA-1), under the key of the
 *    certificate that the ResponderID names;
 *  - that key is the issuer's own key, or belongs to a delegated responder certificate that the issuer signed
 *    directly, that carries the id-kp-OCSPSigning EKU and is valid now;
 *  - a SingleResponse carries exactly our CertID (hashes of the issuer's name and key, and the serial number);
 *  - thisUpdate is not in the future (beyond a small clock skew) and nextUpdate has not passed; a response
 *    without nextUpdate is only accepted when it echoes our nonce (it claims freshness for "now" only);
 *  - a nonce in the response equals ours (a response without one is accepted, as RFC 5019 responders serve
 *    pre-produced answers, unless the caller requires it).
 * Anything else is `unavailable` with a reason: an unverifiable answer is no answer, never "good".
 *
 * Self-contained on purpose (npm imports only, no relative imports, erasable TypeScript only), like dev-pki.ts:
 * Node scripts can import it directly with type stripping to run the dev responder.
 */
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { equalBytes, hex } from "../../platform/bytes";
import { readBodyPrefix } from "../../platform/net/outbound";
import { pemBlocks } from "./tsa";

const OID_SHA1 = "1.3.14.3.2.26";
const OID_SHA256 = "2.16.840.1.101.3.4.2.1";
const OID_SHA384 = "2.16.840.1.101.3.4.2.2";
const OID_SHA512 = "2.16.840.1.101.3.4.2.3";
const OID_AUTHORITY_INFO_ACCESS = "1.3.6.1.5.5.7.1.1";
const OID_AD_OCSP = "1.3.6.1.5.5.7.48.1";
const OID_OCSP_BASIC = "1.3.6.1.5.5.7.48.1.1";
const OID_OCSP_NONCE = "1.3.6.1.5.5.7.48.1.2";
const OID_KP_OCSP_SIGNING = "1.3.6.1.5.5.7.3.9";
const OID_KEY_USAGE = "2.5.29.15";
const OID_EXT_KEY_USAGE = "2.5.29.37";
const OID_KEY_EC = "1.2.840.10045.2.1";
const OID_KEY_RSA = "1.2.840.113549.1.1.1";
const OID_RSA_PSS = "1.2.840.113549.1.1.10";
const OID_ED25519 = "1.3.101.112";
const OID_CURVE_P384 = "1.3.132.0.34";

/** CertID hash algorithms understood on both sides (the client sends SHA-1, as RFC 5019 §2.1.1 requires). */
const HASH_BY_OID: Record<string, "SHA-1" | "SHA-256" | "SHA-384" | "SHA-512"> = {
  [OID_SHA1]: "SHA-1",
  [OID_SHA256]: "SHA-256",
  [OID_SHA384]: "SHA-384",
  [OID_SHA512]: "SHA-512",
};

/**
 * Signature algorithms accepted on responses and delegated responder certificates, with the key type each needs.
 * SHA-1 and MD5 based ones are absent on purpose: the nonce is chosen by the requester, so a responder signing
 * with a collision-prone hash signs partly attacker-chosen data.
 */
const SIGNATURE_ALGORITHMS: Record<string, { keyOids: readonly string[] }> = {
  "1.2.840.10045.4.3.2": { keyOids: [OID_KEY_EC] }, // ecdsa-with-SHA256
  "1.2.840.10045.4.3.3": { keyOids: [OID_KEY_EC] }, // ecdsa-with-SHA384
  "1.2.840.10045.4.3.4": { keyOids: [OID_KEY_EC] }, // ecdsa-with-SHA512
  "1.2.840.113549.1.1.11": { keyOids: [OID_KEY_RSA] }, // sha256WithRSAEncryption
  "1.2.840.113549.1.1.12": { keyOids: [OID_KEY_RSA] }, // sha384WithRSAEncryption
  "1.2.840.113549.1.1.13": { keyOids: [OID_KEY_RSA] }, // sha512WithRSAEncryption
  [OID_RSA_PSS]: { keyOids: [OID_KEY_RSA, OID_RSA_PSS] }, // RSASSA-PSS (its hash is checked separately)
  [OID_ED25519]: { keyOids: [OID_ED25519] },
};

/** Length of the nonce the client sends: RFC 8954 §2.1 requires 32 octets from new clients. */
const NONCE_LENGTH = 32;
/** Tolerated clock difference for thisUpdate in the future and for a delegated responder's validity period. */
const CLOCK_SKEW_MS = 5 * 60_000;
const DEFAULT_TIMEOUT_MS = 3_000;
const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;
/** Bound on the certificates of a response examined as signer candidates (each costs a signature check). */
const MAX_RESPONDER_CANDIDATES = 8;
/** The dev responder answers at most this many Requests in one OCSPRequest (RFC 5019 clients send one). */
const MAX_REQUESTS = 8;
const DEV_RESPONSE_VALIDITY_MS = 3_600_000;

/** CRLReason (RFC 5280 §5.3.1) names by code; 7 is unused. */
const REVOCATION_REASONS = {
  0: "unspecified",
  1: "keyCompromise",
  2: "cACompromise",
  3: "affiliationChanged",
  4: "superseded",
  5: "cessationOfOperation",
  6: "certificateHold",
  8: "removeFromCRL",
  9: "privilegeWithdrawn",
  10: "aACompromise",
} as const;
export type RevocationReason = (typeof REVOCATION_REASONS)[keyof typeof REVOCATION_REASONS];

/** OCSPResponseStatus names (RFC 6960 §4.2.1), for diagnostics. */
const RESPONSE_STATUS_NAMES: Record<number, string> = {
  0: "successful",
  1: "malformedRequest",
  2: "internalError",
  3: "tryLater",
  5: "sigRequired",
  6: "unauthorized",
};

// ---------------------------------------------------------------------------------------------------------------
// Results

/** Why no verified status could be obtained. */
export type OcspUnavailableReason =
  /** The certificate names no http(s) OCSP responder in its Authority Information Access extension. */
  | "no_ocsp_url"
  /** `cert` or `issuer` is not a parsable X.509 certificate. */
  | "invalid_certificate"
  /** `issuer` did not issue `cert` (names differ or the certificate's signature does not verify under its key). */
  | "issuer_mismatch"
  | "network_error"
  | "timeout"
  /** A non-2xx HTTP status, redirects included (they are not followed). */
  | "http_error"
  /** The response body exceeds the size bound. */
  | "too_large"
  /** Not a DER OCSPResponse carrying a BasicOCSPResponse, or a SingleResponse that cannot be read. */
  | "malformed"
  /** The responder answered with an error status (malformedRequest, internalError, tryLater, unauthorized…). */
  | "responder_error"
  /** The response is signed with an algorithm outside the allowed set (e.g. SHA-1). */
  | "unsupported_algorithm"
  /** A certificate the ResponderID names is at hand, but the signature does not verify under its key. */
  | "bad_signature"
  /**
   * The signer is neither the issuer nor a delegated responder of the issuer: the ResponderID names no
   * certificate at hand, or the signature verifies under a certificate without that authority.
   */
  | "unauthorized_responder"
  /** No SingleResponse is about this certificate (issuer name/key hash and serial). */
  | "not_bound"
  /** thisUpdate lies in the future beyond the clock skew. */
  | "not_yet_valid"
  /** nextUpdate has passed, or there is no nextUpdate and no echoed nonce to prove freshness. */
  | "stale"
  /** The response's nonce differs from the request's (or is missing while required). */
  | "nonce_mismatch";

interface OcspVerdictBase {
  responder_url: string;
  /** ISO 8601. */
  produced_at: string;
  /** ISO 8601: when the status was known to be correct. */
  this_update: string;
  /** ISO 8601, or null when the responder gave none (such results are never cached). */
  next_update: string | null;
}

export interface OcspGood extends OcspVerdictBase {
  status: "good";
}

export interface OcspRevoked extends OcspVerdictBase {
  status: "revoked";
  /** ISO 8601. */
  revocation_time: string;
  /** Null when the responder gave no reason; codes unknown to RFC 5280 read as "unspecified". */
  revocation_reason: RevocationReason | null;
}

/** The responder does not know the certificate (RFC 6960 §2.2), typically an issuer it does not serve. */
export interface OcspUnknown extends OcspVerdictBase {
  status: "unknown";
}

export interface OcspUnavailable {
  status: "unavailable";
  reason: OcspUnavailableReason;
  /** Human-readable diagnostic; not stable, not for matching. */
  detail: string;
  responder_url: string | null;
}

/** A verified answer of the responder: what the cache stores. */
export type OcspVerdict = OcspGood | OcspRevoked | OcspUnknown;
export type OcspResult = OcspVerdict | OcspUnavailable;

// ---------------------------------------------------------------------------------------------------------------
// Cache

/**
 * Where verified answers are kept between checks (in memory, KV, …). Invariant kept by `checkOcsp`: only
 * verdicts with a nextUpdate are put, with `expiresAt` equal to that nextUpdate, never later; `unavailable`
 * results are never put. `checkOcsp` re-checks a returned entry's nextUpdate against its own `now`, so a store
 * whose expiry is coarse (KV's minimum TTL is 60 s) cannot serve an expired answer. Errors thrown by a cache are
 * treated as a miss.
 */
export interface OcspCache {
  get(key: string): Promise<OcspVerdict | null>;
  put(key: string, entry: OcspVerdict, expiresAt: Date): Promise<void>;
}

/**
 * Per-isolate cache with a bounded number of entries (the oldest insertion goes first). `clock` decides expiry
 * of stored entries; it defaults to the wall clock.
 */
export class InMemoryOcspCache implements OcspCache {
  private readonly entries = new Map<string, { entry: OcspVerdict; expiresAt: number }>();
  private readonly maxEntries: number;
  private readonly clock: () => number;

  constructor(options?: { maxEntries?: number; clock?: () => number }) {
    this.maxEntries = Math.max(1, options?.maxEntries ?? 1024);
    this.clock = options?.clock ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  async get(key: string): Promise<OcspVerdict | null> {
    const hit = this.entries.get(key);
    if (!hit) return null;
    if (hit.expiresAt <= this.clock()) {
      this.entries.delete(key);
      return null;
    }
    return hit.entry;
  }

  async put(key: string, entry: OcspVerdict, expiresAt: Date): Promise<void> {
    const expires = expiresAt.getTime();
    if (!(expires > this.clock())) return;
    this.entries.delete(key); // re-insert at the end of the eviction order
    while (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
    this.entries.set(key, { entry, expiresAt: expires });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Requests

/** The CertID of a certificate (RFC 6960 §4.1.1) with SHA-1 hashes. */
export interface OcspCertId {
  issuerNameHash: Uint8Array;
  issuerKeyHash: Uint8Array;
  /** The serial number's INTEGER content octets as encoded in the certificate. */
  serialNumber: Uint8Array;
}

/** An OCSPRequest ready to send, with what the answer is checked against. */
export interface OcspRequest {
  der: Uint8Array;
  certId: OcspCertId;
  /** The random nonce (32 octets). */
  nonce: Uint8Array;
  /** DER of the nonce extension's extnValue (an OCTET STRING around `nonce`), which a responder echoes. */
  nonceExtnValue: Uint8Array;
}

/**
 * Builds a DER OCSPRequest for `cert` as RFC 5019 profiles it: one Request, CertID with SHA-1 (the hash every
 * responder must understand), no requestor name, unsigned, plus a 32-octet nonce extension (RFC 8954).
 * Throws only if a DER certificate does not parse.
 */
export async function buildOcspRequest(cert: Uint8Array | pkijs.Certificate, issuer: Uint8Array | pkijs.Certificate): Promise<OcspRequest> {
  const certId = await certIdOf(asCertificate(cert), asCertificate(issuer), "SHA-1");
  const nonce = crypto.getRandomValues(new Uint8Array(NONCE_LENGTH));
  const nonceExtnValue = new Uint8Array(new asn1js.OctetString({ valueHex: nonce }).toBER(false));
  const request = new pkijs.OCSPRequest({
    tbsRequest: new pkijs.TBSRequest({
      requestList: [new pkijs.Request({ reqCert: certIdToPkijs(certId, OID_SHA1) })],
      requestExtensions: [new pkijs.Extension({ extnID: OID_OCSP_NONCE, extnValue: toArrayBuffer(nonceExtnValue) })],
    }),
  });
  return { der: new Uint8Array(request.toSchema(true).toBER(false)), certId, nonce, nonceExtnValue };
}

/** The first http(s) OCSP responder URL of the certificate's Authority Information Access extension, or null. */
export function ocspResponderUrl(cert: Uint8Array | pkijs.Certificate): string | null {
  try {
    const ext = asCertificate(cert).extensions?.find((e) => e.extnID === OID_AUTHORITY_INFO_ACCESS);
    if (!ext) return null;
    const syntax = parseDer(ext.extnValue.valueBlock.valueHexView);
    if (!(syntax instanceof asn1js.Sequence)) return null;
    for (const description of syntax.valueBlock.value) {
      if (!(description instanceof asn1js.Sequence)) continue;
      const [method, location] = description.valueBlock.value;
      if (!(method instanceof asn1js.ObjectIdentifier) || method.valueBlock.toString() !== OID_AD_OCSP) continue;
      // accessLocation is a GeneralName; only uniformResourceIdentifier [6] IMPLICIT IA5String is usable.
      if (location?.idBlock.tagClass !== 3 || location.idBlock.tagNumber !== 6 || location.idBlock.isConstructed) continue;
      const text = String.fromCharCode(...(location as asn1js.Primitive).valueBlock.valueHexView);
      const url = parseUrl(text);
      if (url && (url.protocol === "http:" || url.protocol === "https:")) return url.href;
    }
    return null;
  } catch {
    return null;
  }
}

/** Lowercase hex of a serial number without leading zero octets: the key format of the dev responder's list. */
export function serialNumberHex(cert: Uint8Array | pkijs.Certificate): string {
  return normalizedSerialHex(asCertificate(cert).serialNumber.valueBlock.valueHexView);
}

// ---------------------------------------------------------------------------------------------------------------
// Checking

/** How requests reach the responder: the global fetch, a service binding, or a test double. */
export type OcspFetcher = (request: Request) => Promise<Response>;

export interface CheckOcspOptions {
  /** The certificate whose status is asked (DER or parsed). */
  cert: Uint8Array | pkijs.Certificate;
  /** Its issuer's certificate (DER or parsed): the CA whose responder answers. */
  issuer: Uint8Array | pkijs.Certificate;
  /** Defaults to the global fetch. */
  fetcher?: OcspFetcher;
  /** The time the answer must be valid at; defaults to now. */
  now?: Date;
  cache?: OcspCache | null;
  /** Whole exchange (connect, headers, body); default 3 s. */
  timeoutMs?: number;
  /** Default 64 KiB. */
  maxResponseBytes?: number;
  /**
   * Reject responses that do not echo the nonce (default false: RFC 5019 responders may not). Cached verdicts
   * are then not served (they are still stored).
   */
  requireNonce?: boolean;
}

/**
 * The revocation status of `cert` from the OCSP responder of its AIA extension, verified as the module comment
 * describes. Invariant: never throws and never reports good/revoked/unknown from an answer that failed any
 * check; the request is a POST of application/ocsp-request that follows no redirect, is aborted after
 * `timeoutMs` and whose answer is read up to `maxResponseBytes`. With a cache, a verified verdict is served
 * from it until its nextUpdate; `unavailable` is never cached.
 */
export async function checkOcsp(options: CheckOcspOptions): Promise<OcspResult> {
  const now = options.now ?? new Date();
  let cert: pkijs.Certificate;
  let issuer: pkijs.Certificate;
  try {
    cert = asCertificate(options.cert);
    issuer = asCertificate(options.issuer);
  } catch {
    return unavailable("invalid_certificate", "the certificate or its issuer does not parse", null);
  }
  // Binds the issuer to the certificate before its key hash keys the cache and authorizes responders.
  const issued = await issuedBy(cert, issuer);
  if (issued === "unsupported") {
    return unavailable(
      "unsupported_algorithm",
      `certificate signature algorithm ${cert.signatureAlgorithm.algorithmId} is not accepted`,
      null,
    );
  }
  if (issued !== "valid") return unavailable("issuer_mismatch", "the given issuer did not sign the certificate", null);
  const url = ocspResponderUrl(cert);
  if (!url) return unavailable("no_ocsp_url", "the certificate names no http(s) OCSP responder (AIA)", null);

  let request: OcspRequest;
  try {
    request = await buildOcspRequest(cert, issuer);
  } catch {
    return unavailable("invalid_certificate", "no CertID could be built for the certificate", url);
  }
  const cacheKey = cacheKeyOf(request.certId);
  // A cached verdict cannot prove freshness the way a required nonce does, so requireNonce bypasses the read.
  if (options.cache && !options.requireNonce) {
    const cached = await options.cache.get(cacheKey).catch(() => null);
    if (cached && isCurrent(cached, now)) return cached;
  }

  const fetched = await fetchResponse(url, request.der, {
    fetcher: options.fetcher ?? ((req) => fetch(req)),
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
  });
  if (!fetched.ok) return unavailable(fetched.reason, fetched.detail, url);

  const result = await verifyOcspResponse(fetched.body, {
    issuer,
    request,
    now,
    responderUrl: url,
    requireNonce: options.requireNonce ?? false,
  });
  if (options.cache && result.status !== "unavailable" && result.next_update) {
    await options.cache.put(cacheKey, result, new Date(result.next_update)).catch(() => undefined);
  }
  return result;
}

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

function unavailable(reason: OcspUnavailableReason, detail: string, url: string | null): OcspUnavailable {
  return { status: "unavailable", reason, detail, responder_url: url };
}

function isCurrent(entry: OcspVerdict, now: Date): boolean {
  if (!entry.next_update) return false;
  const next = Date.parse(entry.next_update);
  const thisUpdate = Date.parse(entry.this_update);
  return Number.isFinite(next) && next > now.getTime() && Number.isFinite(thisUpdate) && thisUpdate <= now.getTime() + CLOCK_SKEW_MS;
}

function cacheKeyOf(id: OcspCertId): string {
  return `ocsp:v1:${hex(id.issuerNameHash)}:${hex(id.issuerKeyHash)}:${normalizedSerialHex(id.serialNumber)}`;
}

type Fetched = { ok: true; body: Uint8Array } | { ok: false; reason: OcspUnavailableReason; detail: string };

const TIMED_OUT = Symbol("timeout");

/** POSTs the request and reads the answer within the time and size bounds. Never throws. */
async function fetchResponse(
  url: string,
  der: Uint8Array,
  limits: { fetcher: OcspFetcher; timeoutMs: number; maxBytes: number },
): Promise<Fetched> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Raced against every await, so a fetcher that ignores the abort signal still cannot hold the check.
  const deadline = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve(TIMED_OUT);
    }, limits.timeoutMs);
  });
  let response: Response | undefined;
  try {
    const request = new Request(url, {
      method: "POST",
      headers: { "content-type": "application/ocsp-request", accept: "application/ocsp-response" },
      body: der,
      // A redirect could lead anywhere (including internal addresses); the AIA URL is the only one asked.
      redirect: "manual",
      signal: controller.signal,
    });
    const pending = limits.fetcher(request);
    pending.catch(() => undefined); // a rejection after the deadline won the race is not an unhandled one
    const answered = await Promise.race([pending, deadline]);
    if (answered === TIMED_OUT) return { ok: false, reason: "timeout", detail: `no answer within ${limits.timeoutMs} ms` };
    response = answered;
    if (response.status < 200 || response.status > 299) {
      return { ok: false, reason: "http_error", detail: `HTTP ${response.status}` };
    }
    const declared = Number(response.headers.get("content-length") ?? Number.NaN);
    if (Number.isFinite(declared) && declared > limits.maxBytes) {
      return { ok: false, reason: "too_large", detail: `declared ${declared} bytes, more than ${limits.maxBytes}` };
    }
    const reading = readBodyPrefix(response, limits.maxBytes);
    reading.catch(() => undefined);
    const read = await Promise.race([reading, deadline]);
    if (read === TIMED_OUT) return { ok: false, reason: "timeout", detail: `body not read within ${limits.timeoutMs} ms` };
    if (read.truncated) return { ok: false, reason: "too_large", detail: `more than ${limits.maxBytes} bytes` };
    response = undefined; // consumed
    return { ok: true, body: read.bytes };
  } catch (error) {
    if (controller.signal.aborted) return { ok: false, reason: "timeout", detail: `no answer within ${limits.timeoutMs} ms` };
    return { ok: false, reason: "network_error", detail: String((error as Error)?.message ?? error) };
  } finally {
    clearTimeout(timer);
    if (response?.body && !response.bodyUsed) response.body.cancel().catch(() => undefined);
    controller.abort(); // releases whatever is still pending
  }
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
async function issuedBy(cert: pkijs.Certificate, issuer: pkijs.Certificate): Promise<SignatureOutcome> {
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

// ---------------------------------------------------------------------------------------------------------------
// Dev responder

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

// ---------------------------------------------------------------------------------------------------------------
// Helpers

async function certIdOf(cert: pkijs.Certificate, issuer: pkijs.Certificate, hash: "SHA-1"): Promise<OcspCertId> {
  return {
    issuerNameHash: await digest(hash, derOf(issuer.subject.toSchema())),
    issuerKeyHash: await digest(hash, issuer.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView),
    serialNumber: cert.serialNumber.valueBlock.valueHexView.slice(),
  };
}

function certIdToPkijs(id: OcspCertId, hashOid: string): pkijs.CertID {
  return new pkijs.CertID({
    hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: hashOid, algorithmParams: new asn1js.Null() }),
    issuerNameHash: new asn1js.OctetString({ valueHex: id.issuerNameHash }),
    issuerKeyHash: new asn1js.OctetString({ valueHex: id.issuerKeyHash }),
    serialNumber: new asn1js.Integer({ valueHex: id.serialNumber }),
  });
}

function asCertificate(cert: Uint8Array | pkijs.Certificate): pkijs.Certificate {
  if (cert instanceof pkijs.Certificate) return cert;
  const parsed = parseDer(cert);
  if (!(parsed instanceof asn1js.Sequence)) throw new Error("not a DER certificate");
  return new pkijs.Certificate({ schema: parsed });
}

/** One DER element spanning all of `bytes`, or null (trailing bytes are refused, not ignored). */
function parseDer(bytes: Uint8Array): asn1js.AsnType | null {
  try {
    const parsed = asn1js.fromBER(bytes);
    if (parsed.offset === -1 || parsed.offset !== bytes.length || parsed.result.error) return null;
    return parsed.result;
  } catch {
    return null;
  }
}

/** The parsed extnValue of `oid` in `cert`, null when absent; unparsable values read as undefined. */
function extensionValue(cert: pkijs.Certificate, oid: string): asn1js.AsnType | null | undefined {
  const ext = cert.extensions?.find((e) => e.extnID === oid);
  if (!ext) return null;
  return parseDer(ext.extnValue.valueBlock.valueHexView) ?? undefined;
}

function spkiDer(cert: pkijs.Certificate): Uint8Array {
  return spkiDerOf(cert.subjectPublicKeyInfo);
}

function spkiDerOf(spki: pkijs.PublicKeyInfo): Uint8Array {
  return derOf(spki.toSchema());
}

function derOf(block: asn1js.BaseBlock): Uint8Array {
  return new Uint8Array(block.toBER(false));
}

async function digest(hash: string, data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest(hash, data));
}

function validDate(date: Date | undefined): date is Date {
  return date instanceof Date && Number.isFinite(date.getTime());
}

function wholeSeconds(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}

function trimLeadingZeros(bytes: Uint8Array): Uint8Array {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  return bytes.subarray(start);
}

function normalizedSerialHex(bytes: Uint8Array): string {
  return hex(trimLeadingZeros(bytes));
}

/** A caller's serial key ("00AB:CD", "0x…") in `serialNumberHex` form. */
function normalizeHexKey(serial: string): string {
  const digits = serial
    .toLowerCase()
    .replace(/^0x/, "")
    .replace(/[^0-9a-f]/g, "");
  const even = digits.length % 2 ? `0${digits}` : digits;
  const trimmed = even.replace(/^(00)+(?=..)/, "");
  return trimmed;
}

function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.slice().buffer;
}
