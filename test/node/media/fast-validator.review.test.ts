/**
 * Hostile review of the fast validator (src/media/c2pa/fast-validator.ts, #19): files for which the fast path of
 * verifyManifest must equal the engine path (deep-equal) and, on the reviewed code, does not. Each file is signed
 * by the service's own signer (C2paSigner) with a PKI minted here, so every signature in it verifies: what differs
 * is a reading, not a forgery.
 * Findings are the tests named R1…R7 (they fail on the reviewed code); the others record inputs checked and found
 * judged alike.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devTsa } from "../../../src/dev/tsa";
import {
  childrenOf,
  contentOf,
  derSetOrder,
  ecdsaSignatureDer,
  encodingOf,
  generalizedTime,
  octetString,
  oid,
  readTlv,
  sequence,
  setOf,
  smallInteger,
  type Tlv,
  tlv,
  unsignedInteger,
} from "../../../src/media/c2pa/der";
import { initC2paEngine } from "../../../src/media/c2pa/engine";
import { fastVerifyJpeg } from "../../../src/media/c2pa/fast-validator";
import { extractManifestStore } from "../../../src/media/c2pa/jumbf-carriers";
import { C2paSigner } from "../../../src/media/c2pa/signer";
import { anchorsForStore } from "../../../src/media/c2pa/trust-anchors";
import {
  OID_CONTENT_TYPE,
  OID_MESSAGE_DIGEST,
  OID_SHA256,
  OID_SIGNED_DATA,
  OID_SIGNING_TIME,
  OID_TST_INFO,
  pemBlocks,
} from "../../../src/media/c2pa/tsa-der";
import { installDevTsa } from "../../../src/media/c2pa/tsa-dev-port";
import { verifyManifest } from "../../../src/media/c2pa/verifier";
import type { ManifestPlan } from "../../../src/media/types";
import { type CborItem, decodeCbor, isCborTag } from "../../../src/platform/cbor";
import { type CborValue, encodeCbor } from "../../../src/platform/cbor-encode";

const require = createRequire(import.meta.url);
const FIXTURES = join(import.meta.dirname, "..", "..", "fixtures");
const image = (name: string) => new Uint8Array(readFileSync(join(FIXTURES, name)));
const PLAN: ManifestPlan = { title: "review.jpg", media_type: "image/jpeg", intent: { kind: "opened" }, assertions: [] };

const OID = {
  commonName: "2.5.4.3",
  organization: "2.5.4.10",
  basicConstraints: "2.5.29.19",
  keyUsage: "2.5.29.15",
  extKeyUsage: "2.5.29.37",
  subjectKeyId: "2.5.29.14",
  authorityKeyId: "2.5.29.35",
  emailProtection: "1.3.6.1.5.5.7.3.4",
  documentSigning: "1.3.6.1.5.5.7.3.36",
  timeStamping: "1.3.6.1.5.5.7.3.8",
} as const;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface Party {
  keys: CryptoKeyPair;
  spki: Uint8Array;
  keyId: Uint8Array;
}
type NameForm = { org: string; cn: string; printable?: boolean; bmp?: boolean; extraCn?: string };

async function party(): Promise<Party> {
  const keys = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const spki = new Uint8Array((await crypto.subtle.exportKey("spki", keys.publicKey)) as ArrayBuffer);
  const bits = pkijs.PublicKeyInfo.fromBER(spki).subjectPublicKey.valueBlock.valueHexView;
  return { keys, spki, keyId: new Uint8Array(await crypto.subtle.digest("SHA-1", bits)) };
}

function dn(n: NameForm): pkijs.RelativeDistinguishedNames {
  const str = (value: string) =>
    n.printable ? new asn1js.PrintableString({ value }) : n.bmp ? new asn1js.BmpString({ value }) : new asn1js.Utf8String({ value });
  const rdn = (type: string, value: string) =>
    new asn1js.Set({ value: [new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: type }), str(value)] })] });
  return pkijs.RelativeDistinguishedNames.fromBER(
    new asn1js.Sequence({
      value: [rdn(OID.organization, n.org), rdn(OID.commonName, n.cn), ...(n.extraCn ? [rdn(OID.commonName, n.extraCn)] : [])],
    }).toBER(false),
  );
}

const ext = (extnID: string, critical: boolean, value: asn1js.BaseBlock) =>
  new pkijs.Extension({ extnID, critical, extnValue: value.toBER(false) });
const bc = (pathLen?: number) =>
  ext(
    OID.basicConstraints,
    true,
    new asn1js.Sequence({
      value: [new asn1js.Boolean({ value: true }), ...(pathLen === undefined ? [] : [new asn1js.Integer({ value: pathLen })])],
    }),
  );
const ku = (byte: number, unused: number) =>
  ext(OID.keyUsage, true, new asn1js.BitString({ valueHex: new Uint8Array([byte]), unusedBits: unused }));
const eku = (oids: string[], critical: boolean) =>
  ext(OID.extKeyUsage, critical, new asn1js.Sequence({ value: oids.map((value) => new asn1js.ObjectIdentifier({ value })) }));
const ski = (id: Uint8Array) => ext(OID.subjectKeyId, false, new asn1js.OctetString({ valueHex: id }));
const aki = (id: Uint8Array) =>
  ext(
    OID.authorityKeyId,
    false,
    new asn1js.Sequence({ value: [new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber: 0 }, valueHex: id })] }),
  );

async function issue(a: {
  subject: Party;
  subjectName: NameForm;
  issuer: Party;
  issuerName: NameForm;
  notBefore: Date;
  notAfter: Date;
  extensions: pkijs.Extension[];
}): Promise<Uint8Array> {
  const cert = new pkijs.Certificate();
  cert.version = 2;
  const serial = crypto.getRandomValues(new Uint8Array(16));
  serial[0] = (serial[0]! & 0x3f) | 0x40;
  cert.serialNumber = new asn1js.Integer({ valueHex: serial });
  cert.issuer = dn(a.issuerName);
  cert.subject = dn(a.subjectName);
  const whole = (d: Date) => new Date(Math.floor(d.getTime() / 1000) * 1000);
  cert.notBefore = new pkijs.Time({ type: pkijs.TimeType.UTCTime, value: whole(a.notBefore) });
  cert.notAfter = new pkijs.Time({ type: pkijs.TimeType.UTCTime, value: whole(a.notAfter) });
  cert.subjectPublicKeyInfo = pkijs.PublicKeyInfo.fromBER(a.subject.spki);
  cert.extensions = a.extensions;
  await cert.sign(a.issuer.keys.privateKey, "SHA-256");
  return new Uint8Array(cert.toSchema(true).toBER(false));
}

function pem(label: string, der: Uint8Array): string {
  const b64 = Buffer.from(der).toString("base64");
  return `-----BEGIN ${label}-----\n${b64.match(/.{1,64}/g)!.join("\n")}\n-----END ${label}-----\n`;
}

interface ReviewPki {
  rootPem: string;
  signerChainPem: string;
  signerKeyPem: string;
  tsaChainPem: string;
  tsaKeyPem: string;
}

/**
 * root → intermediate → { signer, TSA }, all P-256, the profiles of src/dev/pki.ts. `intermediateIssuer` is the
 * issuer Name written into the intermediate (by default exactly the root's subject); the root's key signs it anyway.
 */
async function mintPki(
  options: {
    root?: NameForm;
    intermediateIssuer?: NameForm;
    signerName?: NameForm;
    direct?: boolean;
    rootExtra?: pkijs.Extension[];
    leafIssuer?: NameForm;
  } = {},
): Promise<ReviewPki> {
  const now = Date.now();
  const notBefore = new Date(now - HOUR);
  const rootName = options.root ?? { org: "svc review", cn: "svc review root CA" };
  const midName = { org: "svc review", cn: "svc review intermediate CA" };
  const [root, mid, signer, tsa] = await Promise.all([party(), party(), party(), party()]);
  const rootDer = await issue({
    subject: root,
    subjectName: rootName,
    issuer: root,
    issuerName: rootName,
    notBefore,
    notAfter: new Date(now + 3650 * DAY),
    extensions: [bc(), ku(0x06, 1), ski(root.keyId), ...(options.rootExtra ?? [])],
  });
  const midDer = await issue({
    subject: mid,
    subjectName: midName,
    issuer: root,
    issuerName: options.intermediateIssuer ?? rootName,
    notBefore,
    notAfter: new Date(now + 1825 * DAY),
    extensions: [bc(0), ku(0x06, 1), ski(mid.keyId), aki(root.keyId)],
  });
  // `direct`: the leaves are issued by the root itself, and the root is the chain's second certificate.
  const ca = options.direct ? root : mid;
  const caName = options.direct ? rootName : midName;
  const caDer = options.direct ? rootDer : midDer;
  const leaf = (name: NameForm, p: Party, usages: pkijs.Extension) =>
    issue({
      subject: p,
      subjectName: name,
      issuer: ca,
      issuerName: options.leafIssuer ?? caName,
      notBefore,
      notAfter: new Date(now + 365 * DAY),
      extensions: [ku(0x80, 7), usages, ski(p.keyId), aki(ca.keyId)],
    });
  const signerDer = await leaf(
    options.signerName ?? { org: "svc review", cn: "svc review signer" },
    signer,
    eku([OID.emailProtection, OID.documentSigning], false),
  );
  const tsaDer = await leaf({ org: "svc review", cn: "svc review TSA" }, tsa, eku([OID.timeStamping], true));
  const key = async (p: Party) =>
    pem("PRIVATE KEY", new Uint8Array((await crypto.subtle.exportKey("pkcs8", p.keys.privateKey)) as ArrayBuffer));
  return {
    rootPem: pem("CERTIFICATE", rootDer),
    signerChainPem: pem("CERTIFICATE", signerDer) + pem("CERTIFICATE", caDer),
    signerKeyPem: await key(signer),
    tsaChainPem: pem("CERTIFICATE", tsaDer) + pem("CERTIFICATE", caDer),
    tsaKeyPem: await key(tsa),
  };
}

async function signWith(p: ReviewPki, bytes: Uint8Array, timestamp = true): Promise<Uint8Array> {
  const signer = new C2paSigner({
    certChainPem: p.signerChainPem,
    privateKey: p.signerKeyPem,
    tsa: timestamp ? { kind: "internal", chainPem: p.tsaChainPem, keyPkcs8Pem: p.tsaKeyPem } : null,
  });
  const result = await signer.signEmbedded({ bytes, plan: PLAN });
  if (result.status !== "signed") throw new Error(JSON.stringify(result));
  return result.bytes;
}

/** Both paths of verifyManifest, and the fast validator's own verdict. */
async function both(bytes: Uint8Array, anchors: string) {
  const fast = await verifyManifest({ bytes, mediaType: "image/jpeg" }, anchors, () => undefined);
  const engine = await verifyManifest({ bytes, mediaType: "image/jpeg" }, anchors, () => undefined, { fastValidator: false });
  const own = await fastVerifyJpeg(bytes, anchorsForStore(anchors, extractManifestStore(bytes, "image/jpeg"))!);
  return { fast, engine, own };
}

const state = (v: Awaited<ReturnType<typeof verifyManifest>>) =>
  v.facts.state === "read" ? `${v.facts.validation_state} ${v.facts.failure_codes.join(",")}` : v.facts.state;

beforeAll(async () => {
  const { compile } = WebAssembly as unknown as { compile(bytes: Uint8Array): Promise<WebAssembly.Module> };
  initC2paEngine(await compile(readFileSync(require.resolve("@contentauth/c2pa-wasm/c2pa.wasm"))));
  installDevTsa(devTsa);
}, 60_000);
afterAll(() => installDevTsa(devTsa));

describe("fast validator review: certificate names", () => {
  it("R1: an intermediate whose issuer Name equals the anchor's subject only case-insensitively (pkijs isEqual) is not trusted by the engine", async () => {
    const p = await mintPki({ intermediateIssuer: { org: "SVC REVIEW", cn: "SVC REVIEW ROOT CA" } });
    const signed = await signWith(p, image("media/sample.jpg"));
    const { fast, engine, own } = await both(signed, p.rootPem);
    console.log("R1", own.status, "fast:", state(fast), "engine:", state(engine));
    expect(fast).toStrictEqual(engine);
  }, 60_000);

  it("R1b: the same Name as PrintableString in the intermediate's issuer, UTF8String in the anchor's subject", async () => {
    const p = await mintPki({ intermediateIssuer: { org: "svc review", cn: "svc review root CA", printable: true } });
    const signed = await signWith(p, image("media/sample.jpg"));
    const { fast, engine, own } = await both(signed, p.rootPem);
    console.log("R1b", own.status, "fast:", state(fast), "engine:", state(engine));
    expect(fast).toStrictEqual(engine);
  }, 60_000);

  it("R1c: the leaves' issuer Name equals the intermediate's subject only case-insensitively", async () => {
    const p = await mintPki({ leafIssuer: { org: "SVC REVIEW", cn: "SVC REVIEW INTERMEDIATE CA" } });
    const signed = await signWith(p, image("media/sample.jpg"));
    const { fast, engine, own } = await both(signed, p.rootPem);
    console.log("R1c", own.status, "fast:", state(fast), "engine:", state(engine));
    expect(fast).toStrictEqual(engine);
  }, 60_000);

  it("control: the exact Name is judged alike (and by the fast path)", async () => {
    const p = await mintPki();
    const signed = await signWith(p, image("media/sample.jpg"));
    const { fast, engine, own } = await both(signed, p.rootPem);
    console.log("control", own.status, "fast:", state(fast), "engine:", state(engine));
    expect(own.status).toBe("verified");
    expect(fast).toStrictEqual(engine);
  }, 60_000);
});

const OID_ECDSA_SHA256 = "1.2.840.10045.4.3.2";
const OID_SIGNING_CERTIFICATE_V2 = "1.2.840.113549.1.9.16.2.47";

/**
 * An RFC 3161 responder for the signer's "internal" TSA (installDevTsa), shaped as src/dev/tsa-responder.ts writes a
 * token except where `shape` says: which signed attributes, in which order (`sorted`: DER SET OF order), genTime.
 */
function reviewTsa(shape: {
  attributes: ("contentType" | "messageDigest" | "signingTime" | "ess")[];
  sorted: boolean;
  genTime?: (now: Date) => Date;
  certsUnsorted?: boolean;
  signingTime?: Date;
}) {
  return async (requestDer: Uint8Array, tsa: { chainPem: string; keyPkcs8Pem: string }, now: Date): Promise<Uint8Array> => {
    const req = pkijs.TimeStampReq.fromBER(requestDer);
    const ders = pemBlocks(tsa.chainPem, "CERTIFICATE");
    const leaf = pkijs.Certificate.fromBER(ders[0]!);
    const key = await crypto.subtle.importKey(
      "pkcs8",
      pemBlocks(tsa.keyPkcs8Pem, "PRIVATE KEY")[0]!,
      { name: "ECDSA", namedCurve: "P-256" },
      false,
      ["sign"],
    );
    const t = shape.genTime ? shape.genTime(now) : now;
    const genTime = new Date(Math.floor(t.getTime() / 1000) * 1000);
    const tstInfo = sequence(
      smallInteger(1),
      oid("2.25.1"),
      new Uint8Array(req.messageImprint.toSchema().toBER(false)),
      unsignedInteger(Uint8Array.of(0x42, 1, 2, 3, 4, 5, 6, 7)),
      generalizedTime(genTime),
      ...(req.nonce ? [new Uint8Array(req.nonce.toBER(false))] : []),
    );
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", tstInfo));
    const leafHash = new Uint8Array(await crypto.subtle.digest("SHA-256", ders[0]!));
    const attribute = (type: string, value: Uint8Array) => sequence(oid(type), setOf(value));
    const all = {
      contentType: attribute(OID_CONTENT_TYPE, oid(OID_TST_INFO)),
      messageDigest: attribute(OID_MESSAGE_DIGEST, octetString(digest)),
      signingTime: attribute(OID_SIGNING_TIME, generalizedTime(shape.signingTime ?? genTime)),
      ess: attribute(OID_SIGNING_CERTIFICATE_V2, sequence(sequence(sequence(octetString(leafHash))))),
    };
    const chosen = shape.attributes.map((a) => all[a]);
    const attributes = shape.sorted ? derSetOrder(chosen) : chosen;
    // Signed exactly as written (tagged SET), whether or not that is DER SET OF order.
    const raw = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, key, tlv(0x31, ...attributes)));
    const signerInfo = sequence(
      smallInteger(1),
      sequence(new Uint8Array(leaf.issuer.toSchema().toBER(false)), new Uint8Array(leaf.serialNumber.toBER(false))),
      sequence(oid(OID_SHA256)),
      tlv(0xa0, ...attributes),
      sequence(oid(OID_ECDSA_SHA256)),
      octetString(ecdsaSignatureDer(raw)),
    );
    const signedData = sequence(
      smallInteger(3),
      setOf(sequence(oid(OID_SHA256))),
      sequence(oid(OID_TST_INFO), tlv(0xa0, octetString(tstInfo))),
      tlv(0xa0, ...(shape.certsUnsorted ? [...derSetOrder(ders)].reverse() : derSetOrder(ders))),
      setOf(signerInfo),
    );
    return sequence(sequence(smallInteger(0)), sequence(oid(OID_SIGNED_DATA), tlv(0xa0, signedData)));
  };
}

describe("fast validator review: the timestamp token", () => {
  let p: ReviewPki;
  beforeAll(async () => {
    p = await mintPki();
  });
  afterAll(() => installDevTsa(devTsa));

  const cases: [string, Parameters<typeof reviewTsa>[0]][] = [
    ["control: the dev responder's form", { attributes: ["contentType", "signingTime", "messageDigest", "ess"], sorted: true }],
    ["no SigningCertificateV2", { attributes: ["contentType", "signingTime", "messageDigest"], sorted: true }],
    ["contentType and messageDigest only", { attributes: ["contentType", "messageDigest"], sorted: true }],
    [
      "R2: signed attributes not in DER SET OF order (signed as written)",
      { attributes: ["messageDigest", "ess", "contentType", "signingTime"], sorted: false },
    ],
    [
      "certificates not in DER SET OF order",
      { attributes: ["contentType", "signingTime", "messageDigest", "ess"], sorted: true, certsUnsorted: true },
    ],
    [
      "R7a: a signingTime attribute a year before genTime (before the TSA certificate)",
      { attributes: ["contentType", "signingTime", "messageDigest", "ess"], sorted: true, signingTime: new Date(Date.UTC(2025, 10, 1)) },
    ],
    [
      "R7b: a signingTime attribute 10 minutes before genTime (inside every validity; the engine reports it as the time)",
      { attributes: ["contentType", "signingTime", "messageDigest", "ess"], sorted: true, signingTime: new Date(Date.now() - 10 * 60_000) },
    ],
    [
      "R7c: a signingTime attribute a day after genTime",
      { attributes: ["contentType", "signingTime", "messageDigest", "ess"], sorted: true, signingTime: new Date(Date.now() + DAY) },
    ],
    [
      "genTime 30 minutes ago",
      {
        attributes: ["contentType", "signingTime", "messageDigest", "ess"],
        sorted: true,
        genTime: (n) => new Date(n.getTime() - 30 * 60_000),
      },
    ],
  ];
  for (const [name, shape] of cases) {
    it(`token: ${name}`, async () => {
      installDevTsa(reviewTsa(shape));
      const signed = await signWith(p, image("media/sample.jpg"));
      installDevTsa(devTsa);
      const { fast, engine, own } = await both(signed, p.rootPem);
      console.log("TSA", name, own.status, "reason" in own ? own.reason : "", "fast:", state(fast), "engine:", state(engine));
      // The deferrals for R2 and R7 keep the fast path for a token in order whose signingTime is its genTime.
      if (name.startsWith("control")) expect(own.status).toBe("verified");
      expect(fast).toStrictEqual(engine);
    }, 60_000);
  }
});

/** The DER element `t` of `b` rebuilt with the descendant at `path` (child indexes) replaced by `leaf(its encoding)`. */
function rebuild(b: Uint8Array, t: Tlv, path: number[], leaf: (enc: Uint8Array) => Uint8Array): Uint8Array {
  if (path.length === 0) return leaf(encodingOf(b, t));
  const kids = childrenOf(b, t)!;
  return tlv(t.tag, ...kids.map((k, i) => (i === path[0] ? rebuild(b, k, path.slice(1), leaf) : encodingOf(b, k))));
}

function cborValue(item: CborItem): CborValue {
  if (item instanceof Map) return { map: [...item].map(([k, v]) => [cborValue(k), cborValue(v)] as [CborValue, CborValue]) };
  if (Array.isArray(item)) return item.map(cborValue);
  if (isCborTag(item)) return { tag: item.tag as number, value: cborValue(item.value) };
  return item as CborValue;
}

/**
 * The signed file with its timestamp token replaced by `retoken(token)`, in place: the COSE unprotected header
 * (covered by no signature and excluded from the data hash) keeps its size by shrinking its zero `pad`.
 */
function withToken(file: Uint8Array, retoken: (token: Uint8Array) => Uint8Array): Uint8Array {
  const at = Buffer.from(file).indexOf(Buffer.from([0xd2, 0x84])); // tag 18, array(4): COSE_Sign1
  const lengthOfBox = new DataView(file.buffer, file.byteOffset + at - 8, 4).getUint32(0); // its `cbor` content box
  const cose = file.subarray(at, at - 8 + lengthOfBox);
  const decoded = decodeCbor(cose);
  if (decoded.status !== "ok" || !isCborTag(decoded.value)) throw new Error("COSE");
  const [prot, unprot, payload, sig] = decoded.value.value as [CborItem, Map<CborItem, CborItem>, CborItem, CborItem];
  const tokens = (unprot.get("sigTst2") as Map<CborItem, CborItem>).get("tstTokens") as Map<CborItem, CborItem>[];
  tokens[0]!.set("val", retoken(tokens[0]!.get("val") as Uint8Array));
  let padLength = (unprot.get("pad") as Uint8Array).length;
  for (let i = 0; i < 4; i++) {
    const out = encodeCbor({ tag: 18, value: [cborValue(prot), cborValue(unprot), cborValue(payload), cborValue(sig)] });
    if (out.length === cose.length) {
      const copy = file.slice();
      copy.set(out, at);
      return copy;
    }
    padLength -= out.length - cose.length;
    unprot.set("pad", new Uint8Array(padLength));
  }
  throw new Error("pad");
}

/** The token with its ECDSA signature's `r` INTEGER given one redundant leading zero byte (BER, not DER). */
function paddedSignatureR(token: Uint8Array): Uint8Array {
  return rebuild(token, readTlv(token, 0)!, [1, 0, 4, 0, 5], (octets) => {
    const seq = contentOf(octets, readTlv(octets, 0)!);
    const inner = rebuild(seq, readTlv(seq, 0)!, [0], (int) => tlv(0x02, Uint8Array.of(0), contentOf(int, readTlv(int, 0)!)));
    return octetString(inner);
  });
}

describe("fast validator review: a timestamp token re-encoded by anyone (the unprotected header is signed by no one)", () => {
  it("check: the token signature's r with a redundant leading zero (BER INTEGER) is judged as the engine judges it", async () => {
    const p = await mintPki();
    const signed = await signWith(p, image("media/sample.jpg"));
    const mutated = withToken(signed, paddedSignatureR);
    expect(mutated.length).toBe(signed.length);
    const original = await both(signed, p.rootPem);
    expect(original.own.status).toBe("verified");
    const { fast, engine, own } = await both(mutated, p.rootPem);
    console.log("check BER r", own.status, "reason" in own ? own.reason : "", "fast:", state(fast), "engine:", state(engine));
    expect(fast).toStrictEqual(engine);
  }, 60_000);
});

describe("fast validator review: chains and signer names the engine reads its own way", () => {
  const cases: [string, Parameters<typeof mintPki>[0]][] = [
    ["leaves issued by the anchor itself, the anchor second in x5chain", { direct: true }],
    ["an anchor carrying a duplicate extension (keyUsage twice)", { rootExtra: [ku(0x06, 1)] }],
    ["an anchor carrying an unknown critical extension", { rootExtra: [ext("1.3.6.1.4.1.99999.1", true, new asn1js.Null())] }],
    ["the anchor, with a duplicate extension, second in x5chain", { direct: true, rootExtra: [ku(0x06, 1)] }],
    ["signer CN with non-ASCII text", { signerName: { org: "svc révision", cn: "Zoë signer ✓" } }],
    ["signer Name in BMPString", { signerName: { org: "svc review", cn: "svc review signer", bmp: true } }],
    ["signer Name in PrintableString", { signerName: { org: "svc review", cn: "svc review signer", printable: true } }],
    ["signer Name with two CN attributes", { signerName: { org: "svc review", cn: "first", extraCn: "second" } }],
    ["signer Name with an empty CN", { signerName: { org: "svc review", cn: "" } }],
  ];
  for (const [name, options] of cases) {
    it(`chain: ${name}`, async () => {
      const p = await mintPki(options);
      const signed = await signWith(p, image("media/sample.jpg"));
      const { fast, engine, own } = await both(signed, p.rootPem);
      console.log("CHAIN", name, own.status, "reason" in own ? own.reason : "", "fast:", state(fast), "engine:", state(engine));
      expect(fast).toStrictEqual(engine);
    }, 60_000);
  }
});

/** `jpeg` with `segment` inserted just before its final EOI (after the entropy-coded data of the last scan). */
function beforeEoi(jpeg: Uint8Array, segment: Uint8Array): Uint8Array {
  if (jpeg[jpeg.length - 2] !== 0xff || jpeg[jpeg.length - 1] !== 0xd9) throw new Error("no EOI at the end");
  return Uint8Array.from([...jpeg.subarray(0, jpeg.length - 2), ...segment, 0xff, 0xd9]);
}

/** The first APP11 packet of `signed` (a whole store in the test images), renumbered to instance `en`. */
function otherStore(signed: Uint8Array, en: number): Uint8Array {
  const at = Buffer.from(signed).indexOf(Buffer.from([0xff, 0xeb]));
  const length = (signed[at + 2]! << 8) | signed[at + 3]!;
  const packet = signed.slice(at, at + 2 + length);
  packet[6] = en >> 8;
  packet[7] = en & 0xff;
  return packet;
}

function app11(en: number, z: number, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + 8 + body.length);
  const v = new DataView(out.buffer);
  v.setUint16(0, 0xffeb);
  v.setUint16(2, out.length - 2);
  out.set([0x4a, 0x50], 4);
  v.setUint16(6, en);
  v.setUint32(8, z);
  out.set(body, 12);
  return out;
}

describe("fast validator review: APP11 after the first scan (present in the image before it was signed)", () => {
  it("check: an APP11 continuation packet of the store's instance after the scan is judged as the engine judges it", async () => {
    const p = await mintPki();
    const source = image("media/sample.jpg");
    const plain = await signWith(p, source);
    const [s] = (await import("../../../src/media/c2pa/jumbf-carriers")).jpegManifestStoreInstances(plain)[0]!.segments[0]!;
    const en = (plain[s + 6]! << 8) | plain[s + 7]!;
    const junk = new Uint8Array(40).fill(0x41);
    junk.set([0, 0, 0, 40, 0x6a, 0x75, 0x6d, 0x62]); // a box header, as continuation packets repeat it
    for (const [name, segment] of [
      ["continuation (same En, Z=2)", app11(en, 2, junk)],
      ["continuation (same En, Z=1)", app11(en, 1, junk)],
      ["a whole store of another signed file (another En)", otherStore(plain, en === 1 ? 2 : 1)],
    ] as const) {
      const signed = await signWith(p, beforeEoi(source, segment));
      const kept = Buffer.from(signed).indexOf(Buffer.from(segment)) >= 0;
      const { fast, engine, own } = await both(signed, p.rootPem);
      console.log(
        "check APP11 after scan",
        name,
        "kept:",
        kept,
        own.status,
        "reason" in own ? own.reason : "",
        "fast:",
        state(fast),
        "engine:",
        state(engine),
      );
      expect(fast).toStrictEqual(engine);
    }
  }, 60_000);
});

describe("fast validator review: per-isolate certificate cache shared by the strict (chain) and lenient (anchor) parses", () => {
  it("R5: a chain certificate the strict parse refuses is accepted once the same bytes were cached as an anchor", async () => {
    // The anchor (keyUsage twice) signs the leaves directly and is the chain's second certificate: the engine cannot
    // use it as a chain certificate (untrusted); the fast validator's strict parse refuses it too ("duplicate extension").
    const p = await mintPki({ direct: true, rootExtra: [ku(0x06, 1)] });
    const signed = await signWith(p, image("media/sample.jpg"));
    const cold = await fastVerifyJpeg(signed, p.rootPem);
    expect(cold).toMatchObject({ status: "defer", reason: "duplicate extension" });
    // Any other timestamped file read under the same trust bundle loads (and caches) its anchors, leniently.
    const other = await signWith(await mintPki(), image("media/sample.jpg"));
    expect((await fastVerifyJpeg(other, p.rootPem)).status).toBe("defer");
    // The same file, the same anchors: the verdict must not depend on what this isolate verified before.
    const { fast, engine, own } = await both(signed, p.rootPem);
    console.log("R5", own.status, "reason" in own ? own.reason : "", "fast:", state(fast), "engine:", state(engine));
    expect(own.status).toBe("defer");
    expect(fast).toStrictEqual(engine);
  }, 60_000);
});

describe("fast validator review: the claim signature re-encoded by anyone (untimed: no token covers it)", () => {
  it("high-S twin of the ES256 claim signature (s → n − s) is judged as the engine judges it", async () => {
    const p = await mintPki();
    const signed = await signWith(p, image("media/sample.jpg"), false);
    const at = Buffer.from(signed).indexOf(Buffer.from([0xd2, 0x84]));
    // The signature is the COSE_Sign1's last item: bstr(64) = 0x58 0x40 then r || s.
    const end = at - 8 + new DataView(signed.buffer, signed.byteOffset + at - 8, 4).getUint32(0);
    const sigAt = end - 64;
    expect([signed[sigAt - 2], signed[sigAt - 1]]).toEqual([0x58, 0x40]);
    const n = BigInt("0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551");
    const s = BigInt(`0x${Buffer.from(signed.subarray(sigAt + 32, sigAt + 64)).toString("hex")}`);
    const twin = signed.slice();
    twin.set(Buffer.from((n - s).toString(16).padStart(64, "0"), "hex"), sigAt + 32);
    const { fast, engine, own } = await both(twin, p.rootPem);
    console.log("HIGH-S", own.status, "reason" in own ? own.reason : "", "fast:", state(fast), "engine:", state(engine));
    expect(fast).toStrictEqual(engine);
  }, 60_000);
});

describe("fast validator review: the trust bundle's text", () => {
  it("R6: an anchor PEM block without its base64 '=' padding is read as the engine reads it", async () => {
    let p = await mintPki();
    while (!p.rootPem.includes("=")) p = await mintPki();
    const unpadded = p.rootPem.replace(/=+\n/, "\n");
    const signed = await signWith(p, image("media/sample.jpg"));
    const { fast, engine, own } = await both(signed, unpadded);
    console.log("R6", own.status, "reason" in own ? own.reason : "", "fast:", state(fast), "engine:", state(engine));
    expect(fast).toStrictEqual(engine);
  }, 60_000);
});
