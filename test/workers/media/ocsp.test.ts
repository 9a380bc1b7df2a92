import type * as X509 from "@peculiar/x509";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { describe, expect, it } from "vitest";
import { type DevRevocation, respondOcsp } from "../../../src/dev/ocsp-responder";
import {
  buildOcspRequest,
  checkOcsp,
  InMemoryOcspCache,
  type OcspFetcher,
  type OcspResult,
  ocspResponderUrl,
  serialNumberHex,
} from "../../../src/media/c2pa/ocsp";
import type { DevOcspResponder } from "../../../src/media/c2pa/ocsp-dev-port";
import { verifyOcspResponse } from "../../../src/media/c2pa/ocsp-verify";
import { prng } from "../../support/prng";
import { loadX509 } from "../support/x509";

const x509 = await loadX509();

const OID_OCSP_NONCE = "1.3.6.1.5.5.7.48.1.2";
const OCSP_URL = "http://ocsp.test/";
const HOUR = 3_600_000;
const NOW = new Date(Math.floor(Date.now() / 1000) * 1000);
const EC = { name: "ECDSA", namedCurve: "P-256" } as const;
const SIGNING = { name: "ECDSA", hash: "SHA-256" } as const;

// ------------------------------------------------------------------------------------------------------------
// A small test PKI: root → intermediate → { signer (AIA OCSP), sibling, no-AIA leaf, delegated responders },
// plus an unrelated CA with its own leaf and an unrelated self-signed "responder".

interface Party {
  name: string;
  keys: CryptoKeyPair;
  cert: X509.X509Certificate;
  der: Uint8Array;
  pem: string;
  keyPem: string;
}

async function keyPair(): Promise<CryptoKeyPair> {
  return (await crypto.subtle.generateKey(EC, true, ["sign", "verify"])) as CryptoKeyPair;
}

async function finish(name: string, keys: CryptoKeyPair, cert: X509.X509Certificate): Promise<Party> {
  const pkcs8 = new Uint8Array((await crypto.subtle.exportKey("pkcs8", keys.privateKey)) as ArrayBuffer);
  const b64 = btoa(String.fromCharCode(...pkcs8)).replace(/.{64}/g, "$&\n");
  return {
    name,
    keys,
    cert,
    der: new Uint8Array(cert.rawData),
    pem: cert.toString("pem"),
    keyPem: `-----BEGIN PRIVATE KEY-----\n${b64}\n-----END PRIVATE KEY-----\n`,
  };
}

async function selfSignedCa(name: string): Promise<Party> {
  const keys = await keyPair();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name: `CN=${name}, O=svc test`,
    keys,
    signingAlgorithm: SIGNING,
    notBefore: new Date(NOW.getTime() - HOUR),
    notAfter: new Date(NOW.getTime() + 3650 * 24 * HOUR),
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return finish(name, keys, cert);
}

async function issued(
  name: string,
  issuer: Party,
  options: { ca?: boolean; aia?: string; eku?: string[]; notAfter?: Date; keyUsage?: X509.KeyUsageFlags } = {},
): Promise<Party> {
  const keys = await keyPair();
  const extensions: X509.Extension[] = [
    options.ca
      ? new x509.BasicConstraintsExtension(true, 0, true)
      : new x509.KeyUsagesExtension(options.keyUsage ?? x509.KeyUsageFlags.digitalSignature, true),
    await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    await x509.AuthorityKeyIdentifierExtension.create(issuer.keys.publicKey),
  ];
  if (options.ca) extensions.push(new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true));
  if (options.aia) extensions.push(new x509.AuthorityInfoAccessExtension({ ocsp: [new x509.GeneralName("url", options.aia)] }));
  if (options.eku) extensions.push(new x509.ExtendedKeyUsageExtension(options.eku, false));
  const cert = await x509.X509CertificateGenerator.create({
    subject: `CN=${name}, O=svc test`,
    issuer: issuer.cert.subject,
    publicKey: keys.publicKey,
    signingKey: issuer.keys.privateKey,
    signingAlgorithm: SIGNING,
    notBefore: new Date(NOW.getTime() - HOUR),
    notAfter: options.notAfter ?? new Date(NOW.getTime() + 365 * 24 * HOUR),
    extensions,
  });
  return finish(name, keys, cert);
}

const root = await selfSignedCa("test root CA");
const intermediate = await issued("test intermediate CA", root, { ca: true });
const signer = await issued("test C2PA signer", intermediate, { aia: OCSP_URL, eku: ["1.3.6.1.5.5.7.3.36"] });
const sibling = await issued("test sibling signer", intermediate, { aia: OCSP_URL });
const noAia = await issued("test signer without AIA", intermediate);
const delegated = await issued("test OCSP responder", intermediate, { eku: [x509.ExtendedKeyUsage.ocspSigning] });
const delegatedNoEku = await issued("test responder without EKU", intermediate, { eku: [x509.ExtendedKeyUsage.clientAuth] });
const delegatedExpired = await issued("test expired responder", intermediate, {
  eku: [x509.ExtendedKeyUsage.ocspSigning],
  notAfter: new Date(NOW.getTime() - 30 * 60_000),
});
const delegatedNoDigitalSignature = await issued("test responder keyCertSign only", intermediate, {
  eku: [x509.ExtendedKeyUsage.ocspSigning],
  keyUsage: x509.KeyUsageFlags.keyCertSign,
});
const otherCa = await selfSignedCa("other CA");
const foreign = await issued("other CA's signer", otherCa, { aia: OCSP_URL });
const otherCaResponder = await issued("other CA's OCSP responder", otherCa, { eku: [x509.ExtendedKeyUsage.ocspSigning] });
const unrelated = await selfSignedCa("unrelated responder");

const asCa: DevOcspResponder = { certPem: intermediate.pem, keyPkcs8Pem: intermediate.keyPem };
const asDelegate = (party: Party): DevOcspResponder => ({ certPem: party.pem, keyPkcs8Pem: party.keyPem, caCertPem: intermediate.pem });

// ------------------------------------------------------------------------------------------------------------
// Helpers

interface FakeResponder {
  fetcher: OcspFetcher;
  requests: Request[];
  /** The time the responder answers at (moves with the tests' clock). */
  at: Date;
}

/** A fetcher that answers with the dev responder, optionally editing the request it sees or the answer. */
function devResponder(
  responder: DevOcspResponder,
  options: {
    revoked?: Map<string, DevRevocation>;
    at?: Date;
    rewriteRequest?: (der: Uint8Array) => Uint8Array | Promise<Uint8Array>;
    rewriteResponse?: (der: Uint8Array) => Uint8Array | Promise<Uint8Array>;
  } = {},
): FakeResponder {
  const fake: FakeResponder = {
    requests: [],
    at: options.at ?? NOW,
    fetcher: async (req) => {
      fake.requests.push(req.clone());
      let der: Uint8Array = new Uint8Array(await req.arrayBuffer());
      if (options.rewriteRequest) der = await options.rewriteRequest(der);
      let answer = await respondOcsp(der, responder, options.revoked ?? new Map(), fake.at);
      if (options.rewriteResponse) answer = await options.rewriteResponse(answer);
      return new Response(answer, { headers: { "content-type": "application/ocsp-response" } });
    },
  };
  return fake;
}

const check = (fetcher: OcspFetcher, extra: Partial<Parameters<typeof checkOcsp>[0]> = {}) =>
  checkOcsp({ cert: signer.der, issuer: intermediate.der, fetcher, now: NOW, ...extra });

function expectUnavailable(result: OcspResult, reason: string) {
  expect(result.status).toBe("unavailable");
  if (result.status === "unavailable") expect(result.reason, result.detail).toBe(reason);
}

function editRequest(der: Uint8Array, edit: (req: pkijs.OCSPRequest) => void | Promise<void>): Promise<Uint8Array> {
  const req = pkijs.OCSPRequest.fromBER(der);
  return Promise.resolve(edit(req)).then(() => new Uint8Array(req.toSchema(true).toBER(false)));
}

function basicOf(der: Uint8Array): { outer: pkijs.OCSPResponse; basic: pkijs.BasicOCSPResponse } {
  const outer = pkijs.OCSPResponse.fromBER(der);
  const basic = pkijs.BasicOCSPResponse.fromBER(outer.responseBytes!.response.valueBlock.valueHexView);
  return { outer, basic };
}

/** Edits a response's signed data and signs it again (with the issuing CA's key unless told otherwise). */
async function resign(
  der: Uint8Array,
  edit: (data: pkijs.ResponseData) => void,
  key: CryptoKey = intermediate.keys.privateKey,
): Promise<Uint8Array> {
  const { outer, basic } = basicOf(der);
  edit(basic.tbsResponseData);
  await basic.sign(key, "SHA-256");
  outer.responseBytes!.response = new asn1js.OctetString({ valueHex: basic.toSchema().toBER(false) });
  return new Uint8Array(outer.toSchema().toBER(false));
}

/** Status tag of the first SingleResponse (0 good, 1 revoked, 2 unknown), straight from the DER. */
function firstStatusTag(der: Uint8Array): number {
  return (basicOf(der).basic.tbsResponseData.responses[0]!.certStatus as asn1js.BaseBlock).idBlock.tagNumber;
}

const pk = (party: Party) => pkijs.Certificate.fromBER(party.der);

// ------------------------------------------------------------------------------------------------------------

describe("OCSP request (RFC 5019 profile)", () => {
  it("has one SHA-1 CertID for the certificate and a 32-octet nonce", async () => {
    const request = await buildOcspRequest(signer.der, intermediate.der);
    const parsed = pkijs.OCSPRequest.fromBER(request.der);
    expect(parsed.tbsRequest.requestList).toHaveLength(1);
    const certId = parsed.tbsRequest.requestList[0]!.reqCert;
    expect(certId.hashAlgorithm.algorithmId).toBe("1.3.14.3.2.26");
    const expected = await pkijs.CertID.create(pk(signer), { hashAlgorithm: "SHA-1", issuerCertificate: pk(intermediate) });
    expect(certId.isEqual(expected)).toBe(true);
    expect(request.nonce).toHaveLength(32);
    const nonceExt = parsed.tbsRequest.requestExtensions?.find((e) => e.extnID === OID_OCSP_NONCE);
    const inner = asn1js.fromBER(nonceExt!.extnValue.valueBlock.valueHexView).result as asn1js.OctetString;
    expect([...inner.valueBlock.valueHexView]).toEqual([...request.nonce]);
    expect(parsed.optionalSignature).toBeUndefined();
    // A fresh nonce each time.
    expect((await buildOcspRequest(signer.der, intermediate.der)).nonce).not.toEqual(request.nonce);
  });

  it("reads the responder URL from the AIA extension", () => {
    expect(ocspResponderUrl(signer.der)).toBe(OCSP_URL);
    expect(ocspResponderUrl(noAia.der)).toBeNull();
  });
});

describe("checkOcsp against the dev responder", () => {
  it("reports good, with the times and the responder URL, over a POST that follows no redirect", async () => {
    const fake = devResponder(asCa);
    const result = await check(fake.fetcher);
    expect(result).toEqual({
      status: "good",
      responder_url: OCSP_URL,
      produced_at: NOW.toISOString(),
      this_update: NOW.toISOString(),
      next_update: new Date(NOW.getTime() + HOUR).toISOString(),
    });
    expect(fake.requests).toHaveLength(1);
    const req = fake.requests[0]!;
    expect(req.method).toBe("POST");
    expect(req.url).toBe(OCSP_URL);
    expect(req.redirect).toBe("manual");
    expect(req.headers.get("content-type")).toBe("application/ocsp-request");
  });

  it("reports revoked with the revocation time and reason", async () => {
    const revokedAt = new Date("2025-03-04T05:06:07Z");
    const fake = devResponder(asCa, { revoked: new Map([[serialNumberHex(signer.der), { revokedAt, reason: 1 }]]) });
    const result = await check(fake.fetcher);
    expect(result).toMatchObject({ status: "revoked", revocation_time: revokedAt.toISOString(), revocation_reason: "keyCompromise" });
    // The sibling is not on the list: good.
    expect((await checkOcsp({ cert: sibling.der, issuer: intermediate.der, fetcher: fake.fetcher, now: NOW })).status).toBe("good");
  });

  it("reports revoked without a reason, and accepts revocation-list keys in other hex spellings", async () => {
    const key = `00${serialNumberHex(signer.der).toUpperCase()}`;
    const fake = devResponder(asCa, { revoked: new Map([[key, { revokedAt: new Date("2025-01-01T00:00:00Z") }]]) });
    expect(await check(fake.fetcher)).toMatchObject({ status: "revoked", revocation_reason: null });
  });

  it("a certificate of another CA: the responder says unknown (RFC 6960 §2.2), which it may not say for that CA", async () => {
    const request = await buildOcspRequest(foreign.der, otherCa.der);
    expect(firstStatusTag(await respondOcsp(request.der, asCa, new Map(), NOW))).toBe(2);
    const fake = devResponder(asCa);
    const result = await checkOcsp({ cert: foreign.der, issuer: otherCa.der, fetcher: fake.fetcher, now: NOW });
    expectUnavailable(result, "unauthorized_responder");
  });

  it("passes on an authorized unknown", async () => {
    const fake = devResponder(asCa, {
      rewriteResponse: (der) =>
        resign(der, (data) => void (data.responses[0]!.certStatus = new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber: 2 } }))),
    });
    expect(await check(fake.fetcher)).toMatchObject({ status: "unknown", responder_url: OCSP_URL });
  });

  it("matches a SingleResponse whose CertID uses SHA-256", async () => {
    const fake = devResponder(asCa, {
      rewriteRequest: (der) =>
        editRequest(der, async (req) => {
          req.tbsRequest.requestList[0]!.reqCert = await pkijs.CertID.create(pk(signer), {
            hashAlgorithm: "SHA-256",
            issuerCertificate: pk(intermediate),
          });
        }),
    });
    expect((await check(fake.fetcher)).status).toBe("good");
  });
});

describe("responder authorization", () => {
  it("accepts a delegated responder issued by the CA with id-kp-OCSPSigning", async () => {
    const fake = devResponder(asDelegate(delegated), { revoked: new Map([[serialNumberHex(sibling.der), { revokedAt: NOW, reason: 4 }]]) });
    expect((await check(fake.fetcher)).status).toBe("good");
    expect(await checkOcsp({ cert: sibling.der, issuer: intermediate.der, fetcher: fake.fetcher, now: NOW })).toMatchObject({
      status: "revoked",
      revocation_reason: "superseded",
    });
  });

  it("rejects a delegated responder without id-kp-OCSPSigning", async () => {
    expectUnavailable(await check(devResponder(asDelegate(delegatedNoEku)).fetcher), "unauthorized_responder");
  });

  it("rejects an expired delegated responder, and one whose keyUsage lacks digitalSignature", async () => {
    expectUnavailable(await check(devResponder(asDelegate(delegatedExpired)).fetcher), "unauthorized_responder");
    expectUnavailable(await check(devResponder(asDelegate(delegatedNoDigitalSignature)).fetcher), "unauthorized_responder");
  });

  it("rejects a responder with id-kp-OCSPSigning issued by another CA", async () => {
    expectUnavailable(await check(devResponder(asDelegate(otherCaResponder)).fetcher), "unauthorized_responder");
  });

  it("rejects a response signed by an unrelated key that ships its own certificate", async () => {
    expectUnavailable(await check(devResponder(asDelegate(unrelated)).fetcher), "unauthorized_responder");
  });

  it("rejects a response that names the CA as responder but is signed with another key", async () => {
    const fake = devResponder({ certPem: intermediate.pem, keyPkcs8Pem: unrelated.keyPem });
    expectUnavailable(await check(fake.fetcher), "bad_signature");
  });

  it("rejects a response whose signed data was altered", async () => {
    const fake = devResponder(asCa, {
      rewriteResponse: (der) => {
        const { outer, basic } = basicOf(der);
        basic.tbsResponseData.tbsView = basic.tbsResponseData.tbsView.slice();
        const tbs = basic.tbsResponseData.tbsView;
        // Flip one bit inside the nonce (part of the signed data) without changing the structure.
        const nonceAt = tbs.length - 10;
        tbs[nonceAt] = tbs[nonceAt]! ^ 0x01;
        outer.responseBytes!.response = new asn1js.OctetString({ valueHex: basic.toSchema().toBER(false) });
        return new Uint8Array(outer.toSchema().toBER(false));
      },
    });
    expectUnavailable(await check(fake.fetcher), "bad_signature");
  });

  it("rejects a response signed with SHA-1", async () => {
    const fake = devResponder(asCa, { rewriteResponse: (der) => resignWith(der, "SHA-1") });
    expectUnavailable(await check(fake.fetcher), "unsupported_algorithm");
  });
});

async function resignWith(der: Uint8Array, hash: string): Promise<Uint8Array> {
  const { outer, basic } = basicOf(der);
  await basic.sign(intermediate.keys.privateKey, hash);
  outer.responseBytes!.response = new asn1js.OctetString({ valueHex: basic.toSchema().toBER(false) });
  return new Uint8Array(outer.toSchema().toBER(false));
}

describe("binding, nonce and freshness", () => {
  it("rejects a valid response about another serial (not bound to the certificate)", async () => {
    const fake = devResponder(asCa, {
      rewriteRequest: (der) =>
        editRequest(der, (req) => {
          req.tbsRequest.requestList[0]!.reqCert.serialNumber = pk(sibling).serialNumber;
        }),
    });
    expectUnavailable(await check(fake.fetcher), "not_bound");
  });

  it("rejects a response about the same serial under another issuer", async () => {
    const fake = devResponder(asCa, {
      rewriteResponse: (der) =>
        resign(der, (data) => {
          const id = data.responses[0]!.certID;
          id.issuerKeyHash = new asn1js.OctetString({ valueHex: crypto.getRandomValues(new Uint8Array(20)) });
        }),
    });
    expectUnavailable(await check(fake.fetcher), "not_bound");
  });

  it("rejects a response whose nextUpdate has passed", async () => {
    const fake = devResponder(asCa, { at: new Date(NOW.getTime() - 2 * HOUR) });
    expectUnavailable(await check(fake.fetcher), "stale");
  });

  it("rejects a response whose thisUpdate is in the future, tolerating a small skew", async () => {
    expectUnavailable(await check(devResponder(asCa, { at: new Date(NOW.getTime() + HOUR) }).fetcher), "not_yet_valid");
    expect((await check(devResponder(asCa, { at: new Date(NOW.getTime() + 60_000) }).fetcher)).status).toBe("good");
  });

  it("rejects a response with another nonce", async () => {
    const fake = devResponder(asCa, {
      rewriteRequest: (der) =>
        editRequest(der, (req) => {
          const nonce = new asn1js.OctetString({ valueHex: crypto.getRandomValues(new Uint8Array(32)) });
          req.tbsRequest.requestExtensions = [new pkijs.Extension({ extnID: OID_OCSP_NONCE, extnValue: nonce.toBER(false) })];
        }),
    });
    expectUnavailable(await check(fake.fetcher), "nonce_mismatch");
  });

  it("accepts a response without nonce (pre-produced, RFC 5019) unless the nonce is required", async () => {
    const withoutNonce = () => devResponder(asCa, { rewriteResponse: (der) => resign(der, (data) => void delete data.responseExtensions) });
    expect((await check(withoutNonce().fetcher)).status).toBe("good");
    expectUnavailable(await check(withoutNonce().fetcher, { requireNonce: true }), "nonce_mismatch");
  });

  it("accepts a response without nextUpdate only with its nonce echoed, and never caches it", async () => {
    const cache = new InMemoryOcspCache();
    const fake = devResponder(asCa, { rewriteResponse: (der) => resign(der, (data) => void delete data.responses[0]!.nextUpdate) });
    expect(await check(fake.fetcher, { cache })).toMatchObject({ status: "good", next_update: null });
    expect(cache.size).toBe(0);
    const bare = devResponder(asCa, {
      rewriteResponse: (der) =>
        resign(der, (data) => {
          delete data.responses[0]!.nextUpdate;
          delete data.responseExtensions;
        }),
    });
    expectUnavailable(await check(bare.fetcher), "stale");
  });

  it("rejects an unknown critical response extension", async () => {
    const fake = devResponder(asCa, {
      rewriteResponse: (der) =>
        resign(der, (data) => {
          data.responseExtensions = [
            ...(data.responseExtensions ?? []),
            new pkijs.Extension({ extnID: "2.25.1", critical: true, extnValue: new asn1js.Null().toBER(false) }),
          ];
        }),
    });
    expectUnavailable(await check(fake.fetcher), "malformed");
  });
});

describe("transport failures", () => {
  it("network error", async () => {
    const result = await check(async () => {
      throw new TypeError("connection refused");
    });
    expect(result).toMatchObject({ status: "unavailable", reason: "network_error", responder_url: OCSP_URL });
  });

  it("timeout, even when the fetcher ignores the abort signal", async () => {
    const started = Date.now();
    expectUnavailable(await check(() => new Promise<Response>(() => {}), { timeoutMs: 50 }), "timeout");
    expect(Date.now() - started).toBeLessThan(2_000);
    let aborted = false;
    const honouring: OcspFetcher = (req) =>
      new Promise((_, reject) =>
        req.signal.addEventListener("abort", () => ((aborted = true), reject(new DOMException("aborted", "AbortError")))),
      );
    expectUnavailable(await check(honouring, { timeoutMs: 50 }), "timeout");
    expect(aborted).toBe(true);
  });

  it("timeout while the body trickles", async () => {
    const stalled = async () => new Response(new ReadableStream({ start: (c) => c.enqueue(new Uint8Array([0x30, 0x82])) }));
    expectUnavailable(await check(stalled, { timeoutMs: 50 }), "timeout");
  });

  it("HTTP 500 and redirects", async () => {
    expectUnavailable(await check(async () => new Response("oops", { status: 500 })), "http_error");
    const redirect = await check(async () => new Response(null, { status: 302, headers: { location: "http://169.254.169.254/" } }));
    expectUnavailable(redirect, "http_error");
  });

  it("garbage body, empty body, error status from the responder", async () => {
    expectUnavailable(await check(async () => new Response(crypto.getRandomValues(new Uint8Array(300)))), "malformed");
    expectUnavailable(await check(async () => new Response(null)), "malformed");
    // The dev responder answers an unparsable request with malformedRequest.
    const tryLater = devResponder(asCa, { rewriteRequest: () => new Uint8Array([1, 2, 3]) });
    expectUnavailable(await check(tryLater.fetcher), "responder_error");
  });

  it("oversize bodies, declared or streamed", async () => {
    const big = new Uint8Array(64 * 1024 + 1);
    expectUnavailable(await check(async () => new Response(big)), "too_large");
    const streamed = async () =>
      new Response(
        new ReadableStream({
          start(c) {
            for (let i = 0; i < 70; i++) c.enqueue(new Uint8Array(1024));
            c.close();
          },
        }),
      );
    expectUnavailable(await check(streamed), "too_large");
    expectUnavailable(await check(devResponder(asCa).fetcher, { maxResponseBytes: 100 }), "too_large");
  });

  it("no AIA OCSP URL: unavailable without a request", async () => {
    let called = false;
    const result = await checkOcsp({
      cert: noAia.der,
      issuer: intermediate.der,
      now: NOW,
      fetcher: async () => ((called = true), new Response(null)),
    });
    expect(result).toMatchObject({ status: "unavailable", reason: "no_ocsp_url", responder_url: null });
    expect(called).toBe(false);
  });

  it("a wrong issuer or a broken certificate: unavailable without a request", async () => {
    let called = false;
    const fetcher: OcspFetcher = async () => ((called = true), new Response(null));
    expectUnavailable(await checkOcsp({ cert: signer.der, issuer: root.der, fetcher, now: NOW }), "issuer_mismatch");
    expectUnavailable(
      await checkOcsp({ cert: signer.der.slice(0, 100), issuer: intermediate.der, fetcher, now: NOW }),
      "invalid_certificate",
    );
    expect(called).toBe(false);
  });
});

describe("cache", () => {
  it("serves a verdict until its nextUpdate, then asks again", async () => {
    const cache = new InMemoryOcspCache();
    const fake = devResponder(asCa);
    expect((await check(fake.fetcher, { cache })).status).toBe("good");
    const later = new Date(NOW.getTime() + 30 * 60_000);
    expect(await check(fake.fetcher, { cache, now: later })).toMatchObject({ status: "good", this_update: NOW.toISOString() });
    expect(fake.requests).toHaveLength(1);
    // At nextUpdate the cached verdict is over; the responder (now answering at that time) is asked again.
    const pastNext = new Date(NOW.getTime() + HOUR);
    fake.at = pastNext;
    expect(await check(fake.fetcher, { cache, now: pastNext })).toMatchObject({ status: "good", this_update: pastNext.toISOString() });
    expect(fake.requests).toHaveLength(2);
  });

  it("caches revoked verdicts per certificate", async () => {
    const cache = new InMemoryOcspCache();
    const fake = devResponder(asCa, { revoked: new Map([[serialNumberHex(signer.der), { revokedAt: NOW }]]) });
    expect((await check(fake.fetcher, { cache })).status).toBe("revoked");
    expect((await checkOcsp({ cert: sibling.der, issuer: intermediate.der, fetcher: fake.fetcher, now: NOW, cache })).status).toBe("good");
    expect((await check(fake.fetcher, { cache })).status).toBe("revoked");
    expect(fake.requests).toHaveLength(2);
  });

  it("without an answer cache asks every time: the certificate pair is prepared once per isolate, never the answer", async () => {
    const revoked = new Map<string, DevRevocation>();
    const fake = devResponder(asCa, { revoked });
    expect((await check(fake.fetcher)).status).toBe("good");
    revoked.set(serialNumberHex(signer.der), { revokedAt: NOW });
    expect((await check(fake.fetcher)).status).toBe("revoked");
    expect(fake.requests).toHaveLength(2);
    // A refused pair stays refused when asked again (and a copy is returned: editing one changes no later answer).
    const first = await checkOcsp({ cert: signer.der, issuer: root.der, fetcher: fake.fetcher, now: NOW });
    expectUnavailable(first, "issuer_mismatch");
    if (first.status === "unavailable") first.reason = "timeout";
    expectUnavailable(await checkOcsp({ cert: signer.der, issuer: root.der, fetcher: fake.fetcher, now: NOW }), "issuer_mismatch");
    expect(fake.requests).toHaveLength(2);
  });

  it("never caches unavailable", async () => {
    const cache = new InMemoryOcspCache();
    let calls = 0;
    const failing: OcspFetcher = async () => (calls++, new Response("down", { status: 503 }));
    expectUnavailable(await check(failing, { cache }), "http_error");
    expectUnavailable(await check(failing, { cache }), "http_error");
    expect(calls).toBe(2);
    expect(cache.size).toBe(0);
  });

  it("survives a cache that throws", async () => {
    const broken = { get: async () => Promise.reject(new Error("kv down")), put: async () => Promise.reject(new Error("kv down")) };
    expect((await check(devResponder(asCa).fetcher, { cache: broken })).status).toBe("good");
  });

  it("in-memory entries expire at expiresAt and the size is bounded", async () => {
    let clock = NOW.getTime();
    const cache = new InMemoryOcspCache({ maxEntries: 2, clock: () => clock });
    const verdict = { status: "good", responder_url: OCSP_URL, produced_at: "", this_update: "", next_update: "" } as const;
    await cache.put("a", verdict, new Date(clock + 1000));
    await cache.put("b", verdict, new Date(clock + 1000));
    await cache.put("c", verdict, new Date(clock + 1000));
    expect(await cache.get("a")).toBeNull();
    expect(await cache.get("c")).toEqual(verdict);
    await cache.put("past", verdict, new Date(clock - 1));
    expect(await cache.get("past")).toBeNull();
    clock += 1000;
    expect(await cache.get("c")).toBeNull();
  });
});

describe("dev responder", () => {
  it("echoes the nonce, signs byKey, includes a delegated responder's certificate", async () => {
    const request = await buildOcspRequest(signer.der, intermediate.der);
    const { basic } = basicOf(await respondOcsp(request.der, asDelegate(delegated), new Map(), NOW));
    const nonce = basic.tbsResponseData.responseExtensions?.find((e) => e.extnID === OID_OCSP_NONCE);
    expect([...nonce!.extnValue.valueBlock.valueHexView]).toEqual([...request.nonceExtnValue]);
    expect(basic.tbsResponseData.responderID).toBeInstanceOf(asn1js.OctetString);
    expect(basic.certs?.map((c) => serialNumberHex(c))).toEqual([serialNumberHex(delegated.der)]);
    const { basic: direct } = basicOf(await respondOcsp(request.der, asCa, new Map(), NOW));
    expect(direct.certs).toBeUndefined();
  });

  it("answers malformedRequest to garbage, an empty request list and an oversized nonce", async () => {
    const statusOf = (der: Uint8Array) => pkijs.OCSPResponse.fromBER(der).responseStatus.valueBlock.valueDec;
    expect(statusOf(await respondOcsp(new Uint8Array(0), asCa, new Map(), NOW))).toBe(1);
    const request = await buildOcspRequest(signer.der, intermediate.der);
    const empty = await editRequest(request.der, (req) => void (req.tbsRequest.requestList = []));
    expect(statusOf(await respondOcsp(empty, asCa, new Map(), NOW))).toBe(1);
    const longNonce = await editRequest(request.der, (req) => {
      const nonce = new asn1js.OctetString({ valueHex: new Uint8Array(33) });
      req.tbsRequest.requestExtensions = [new pkijs.Extension({ extnID: OID_OCSP_NONCE, extnValue: nonce.toBER(false) })];
    });
    expect(statusOf(await respondOcsp(longNonce, asCa, new Map(), NOW))).toBe(1);
  });

  it("answers internalError when its own key is unusable", async () => {
    const request = await buildOcspRequest(signer.der, intermediate.der);
    const der = await respondOcsp(request.der, { certPem: intermediate.pem, keyPkcs8Pem: "nope" }, new Map(), NOW);
    expect(pkijs.OCSPResponse.fromBER(der).responseStatus.valueBlock.valueDec).toBe(2);
  });
});

function mutate(input: Uint8Array, rand: () => number): Uint8Array {
  let bytes = input.slice();
  const edits = 1 + Math.floor(rand() * 3);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(rand() * bytes.length);
    switch (Math.floor(rand() * 4)) {
      case 0: // flip a bit
        bytes[at] = bytes[at]! ^ (1 << Math.floor(rand() * 8));
        break;
      case 1: // random byte
        bytes[at] = Math.floor(rand() * 256);
        break;
      case 2: // truncate
        bytes = bytes.slice(0, at);
        break;
      default: {
        // insert a byte
        const out = new Uint8Array(bytes.length + 1);
        out.set(bytes.subarray(0, at));
        out[at] = Math.floor(rand() * 256);
        out.set(bytes.subarray(at), at + 1);
        bytes = out;
      }
    }
  }
  return bytes;
}

describe("fuzz", () => {
  it("random bytes never throw and never verify", async () => {
    const rand = prng(0x0c5b);
    const request = await buildOcspRequest(signer.der, intermediate.der);
    const context = { issuer: pk(intermediate), request, now: NOW, responderUrl: OCSP_URL };
    for (let i = 0; i < 200; i++) {
      const bytes = Uint8Array.from({ length: Math.floor(rand() * 512) }, () => Math.floor(rand() * 256));
      if (i % 2) bytes[0] = 0x30; // a SEQUENCE, to get past the first byte more often
      const result = await verifyOcspResponse(bytes, context);
      expect(result.status).toBe("unavailable");
    }
  });

  it("mutated valid responses never throw and never change the verdict", async () => {
    const rand = prng(0x5eed);
    const request = await buildOcspRequest(signer.der, intermediate.der);
    const context = { issuer: pk(intermediate), request, now: NOW, responderUrl: OCSP_URL };
    const revoked = new Map([[serialNumberHex(signer.der), { revokedAt: NOW, reason: 1 }]]);
    const originals = [
      { der: await respondOcsp(request.der, asCa, new Map(), NOW), status: "good" },
      { der: await respondOcsp(request.der, asCa, revoked, NOW), status: "revoked" },
      { der: await respondOcsp(request.der, asDelegate(delegated), revoked, NOW), status: "revoked" },
    ];
    for (const original of originals) expect((await verifyOcspResponse(original.der, context)).status).toBe(original.status);
    const seen = new Map<string, number>();
    for (let i = 0; i < 300; i++) {
      const original = originals[i % originals.length]!;
      const result = await verifyOcspResponse(mutate(original.der, rand), context);
      expect(["unavailable", original.status]).toContain(result.status);
      const key = result.status === "unavailable" ? result.reason : result.status;
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    // Most mutations break the structure or the signature.
    expect((seen.get("malformed") ?? 0) + (seen.get("bad_signature") ?? 0)).toBeGreaterThan(150);
  });

  it("the dev responder answers any bytes with a parsable OCSPResponse", async () => {
    const rand = prng(0xface);
    const request = await buildOcspRequest(signer.der, intermediate.der);
    for (let i = 0; i < 100; i++) {
      const input =
        i % 2 ? mutate(request.der, rand) : Uint8Array.from({ length: Math.floor(rand() * 200) }, () => Math.floor(rand() * 256));
      const der = await respondOcsp(input, asCa, new Map(), NOW);
      expect([0, 1]).toContain(pkijs.OCSPResponse.fromBER(der).responseStatus.valueBlock.valueDec);
    }
  });
});
