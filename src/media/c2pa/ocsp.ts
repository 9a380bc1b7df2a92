/**
 * OCSP (RFC 6960, in the RFC 5019 lightweight profile): a client that asks the responder named in a certificate's
 * Authority Information Access extension for the certificate's revocation status and verifies the answer, a cache
 * interface for those answers. The answer's checks live in ocsp-verify.ts, the shared DER pieces in ocsp-der.ts,
 * and the development responder of the dev PKI in src/dev/ocsp-responder.ts.
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
 */
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { hex } from "../../platform/bytes";
import { readBodyPrefix } from "../../platform/net/outbound";
import {
  asCertificate,
  CLOCK_SKEW_MS,
  certIdOf,
  certIdToPkijs,
  normalizedSerialHex,
  OID_AD_OCSP,
  OID_AUTHORITY_INFO_ACCESS,
  OID_OCSP_NONCE,
  OID_SHA1,
  parseDer,
  parseUrl,
  type RevocationReason,
  toArrayBuffer,
} from "./ocsp-der";
import { issuedBy, unavailable, verifyOcspResponse } from "./ocsp-verify";

/** Length of the nonce the client sends: RFC 8954 §2.1 requires 32 octets from new clients. */
const NONCE_LENGTH = 32;
const DEFAULT_TIMEOUT_MS = 3_000;
const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;

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

export interface OcspVerdictBase {
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
  return requestFor(await certIdOf(asCertificate(cert), asCertificate(issuer), "SHA-1"));
}

/** The OCSPRequest of buildOcspRequest for a CertID already made. */
function requestFor(certId: OcspCertId): OcspRequest {
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
  const prepared = await preparedPair(options.cert, options.issuer);
  if (prepared.status === "unavailable") return { ...prepared.result };
  const { issuer, url, certId } = prepared;
  const cacheKey = cacheKeyOf(certId);
  // A cached verdict cannot prove freshness the way a required nonce does, so requireNonce bypasses the read.
  if (options.cache && !options.requireNonce) {
    const cached = await options.cache.get(cacheKey).catch(() => null);
    if (cached && isCurrent(cached, now)) return cached;
  }
  const request = requestFor(certId);

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

/** What checkOcsp establishes about a certificate and its issuer before any request: none of it depends on time. */
type PreparedPair =
  | { status: "ready"; cert: pkijs.Certificate; issuer: pkijs.Certificate; url: string; certId: OcspCertId }
  | { status: "unavailable"; result: OcspUnavailable };

/**
 * Per isolate, the prepared pairs of certificates given as DER (a verification passes the signer's x5chain bytes):
 * parsing both, checking that the issuer signed the certificate and hashing the CertID cost more than a cached
 * answer. Invariant: an entry is a pure function of its key, the SHA-256 of both exact DER encodings (no clock, no
 * network), so a hit gives what preparing again would; the parsed certificates are only read. At most
 * PREPARED_MAX entries, oldest first out.
 */
const preparedPairs = new Map<string, Promise<PreparedPair>>();
const PREPARED_MAX = 256;

async function preparedPair(cert: Uint8Array | pkijs.Certificate, issuer: Uint8Array | pkijs.Certificate): Promise<PreparedPair> {
  if (!(cert instanceof Uint8Array) || !(issuer instanceof Uint8Array)) return preparePair(cert, issuer);
  const sha = async (b: Uint8Array) => hex(new Uint8Array(await crypto.subtle.digest("SHA-256", b)));
  const key = `${await sha(cert)}:${await sha(issuer)}`;
  let entry = preparedPairs.get(key);
  if (!entry) {
    entry = preparePair(cert.slice(), issuer.slice());
    if (preparedPairs.size >= PREPARED_MAX) preparedPairs.delete(preparedPairs.keys().next().value!);
    preparedPairs.set(key, entry);
  }
  return entry;
}

async function preparePair(certInput: Uint8Array | pkijs.Certificate, issuerInput: Uint8Array | pkijs.Certificate): Promise<PreparedPair> {
  const failed = (result: OcspUnavailable): PreparedPair => ({ status: "unavailable", result });
  let cert: pkijs.Certificate;
  let issuer: pkijs.Certificate;
  try {
    cert = asCertificate(certInput);
    issuer = asCertificate(issuerInput);
  } catch {
    return failed(unavailable("invalid_certificate", "the certificate or its issuer does not parse", null));
  }
  // Binds the issuer to the certificate before its key hash keys the cache and authorizes responders.
  const issued = await issuedBy(cert, issuer);
  if (issued === "unsupported") {
    return failed(
      unavailable("unsupported_algorithm", `certificate signature algorithm ${cert.signatureAlgorithm.algorithmId} is not accepted`, null),
    );
  }
  if (issued !== "valid") return failed(unavailable("issuer_mismatch", "the given issuer did not sign the certificate", null));
  const url = ocspResponderUrl(cert);
  if (!url) return failed(unavailable("no_ocsp_url", "the certificate names no http(s) OCSP responder (AIA)", null));
  try {
    return { status: "ready", cert, issuer, url, certId: await certIdOf(cert, issuer, "SHA-1") };
  } catch {
    return failed(unavailable("invalid_certificate", "no CertID could be built for the certificate", url));
  }
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
