/**
 * Development PKI for C2PA signing: a root CA, an intermediate CA, a C2PA signer certificate and an RFC 3161
 * time-stamping certificate, minted in memory with WebCrypto (Node 22 and workerd alike).
 *
 * Self-contained on purpose (npm imports only, no relative imports): Node scripts import this file directly
 * with type stripping, and vitest.config.ts mints the workerd test bindings with it.
 *
 * Built with pkijs + asn1js rather than @peculiar/x509, whose tsyringe dependency needs a Reflect metadata
 * polyfill loaded before it (not available here without another package).
 */
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";

/** Signature algorithm of the signer certificate's key (the COSE `alg` of the manifests it signs). */
export type DevPkiAlgorithm = "ES256" | "ES384" | "Ed25519";

/**
 * A freshly minted development PKI. Invariant: `signerChainPem` and `tsaChainPem` each chain (leaf first, then
 * the intermediate) to `rootCertPem`, which is never inside a chain; the signer leaf passes c2pa-rs's end-entity
 * certificate profile (v3, keyUsage critical digitalSignature, EKU emailProtection + documentSigning, AKI/SKI,
 * not self-signed) and the TSA leaf carries the critical timeStamping EKU only. Keys are PKCS#8 PEM.
 */
export interface DevPki {
  algorithm: DevPkiAlgorithm;
  rootCertPem: string;
  /** Signer leaf first, then the intermediate; the root is NOT included (it is the trust anchor). */
  signerChainPem: string;
  signerKeyPkcs8Pem: string;
  /** TSA leaf first, then the intermediate. */
  tsaChainPem: string;
  /** Always an ECDSA P-256 key (the TSA signs with ES256 whatever the signer algorithm is). */
  tsaKeyPkcs8Pem: string;
  /**
   * Only with `ocspUrl`: the intermediate's delegated OCSP responder (EKU id-kp-OCSPSigning, ocsp-nocheck, P-256)
   * and the intermediate itself: `respondOcsp`'s { certPem, keyPkcs8Pem, caCertPem }.
   */
  ocsp?: { responderCertPem: string; responderKeyPkcs8Pem: string; caCertPem: string };
}

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
  ocspSigning: "1.3.6.1.5.5.7.3.9",
  authorityInfoAccess: "1.3.6.1.5.5.7.1.1",
  adOcsp: "1.3.6.1.5.5.7.48.1",
  ocspNoCheck: "1.3.6.1.5.5.7.48.1.5",
} as const;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface Party {
  name: string;
  keys: CryptoKeyPair;
  /** DER of SubjectPublicKeyInfo. */
  spki: Uint8Array;
  keyId: Uint8Array;
  certDer?: Uint8Array;
}

/**
 * Mints root → intermediate → signer and root → intermediate → TSA. Default algorithm ES256 (P-256). With
 * `ocspUrl`, the signer carries an Authority Information Access OCSP location and a delegated responder is minted.
 */
export async function mintDevPki(options?: { algorithm?: DevPkiAlgorithm; now?: Date; ocspUrl?: string }): Promise<DevPki> {
  const algorithm = options?.algorithm ?? "ES256";
  const now = options?.now ?? new Date();
  // CA keys are ECDSA (pkijs signs certificates with ECDSA only); P-384 CAs for an ES384 signer keep the
  // strength consistent.
  const caCurve = algorithm === "ES384" ? "P-384" : "P-256";
  const caHash = algorithm === "ES384" ? "SHA-384" : "SHA-256";

  const root = await party("svc dev root CA", await generateEc(caCurve));
  const intermediate = await party("svc dev intermediate CA", await generateEc(caCurve));
  const signer = await party("svc dev C2PA signer", await generateSignerKeys(algorithm));
  const tsa = await party("svc dev TSA", await generateEc("P-256"));

  const notBefore = new Date(now.getTime() - HOUR); // tolerate clock skew between minting and validating hosts
  root.certDer = await issue({
    subject: root,
    issuer: root,
    issuerHash: caHash,
    notBefore,
    notAfter: new Date(now.getTime() + 3650 * DAY),
    extensions: [basicConstraints(true, undefined), caKeyUsage(), subjectKeyId(root.keyId)],
  });
  intermediate.certDer = await issue({
    subject: intermediate,
    issuer: root,
    issuerHash: caHash,
    notBefore,
    notAfter: new Date(now.getTime() + 1825 * DAY),
    extensions: [basicConstraints(true, 0), caKeyUsage(), subjectKeyId(intermediate.keyId), authorityKeyId(root.keyId)],
  });
  signer.certDer = await issue({
    subject: signer,
    issuer: intermediate,
    issuerHash: caHash,
    notBefore,
    notAfter: new Date(now.getTime() + 365 * DAY),
    extensions: [
      digitalSignatureKeyUsage(),
      extKeyUsage([OID.emailProtection, OID.documentSigning], false),
      subjectKeyId(signer.keyId),
      authorityKeyId(intermediate.keyId),
      ...(options?.ocspUrl ? [authorityInfoAccessOcsp(options.ocspUrl)] : []),
    ],
  });
  tsa.certDer = await issue({
    subject: tsa,
    issuer: intermediate,
    issuerHash: caHash,
    notBefore,
    notAfter: new Date(now.getTime() + 365 * DAY),
    extensions: [
      digitalSignatureKeyUsage(),
      extKeyUsage([OID.timeStamping], true),
      subjectKeyId(tsa.keyId),
      authorityKeyId(intermediate.keyId),
    ],
  });

  let ocsp: DevPki["ocsp"];
  if (options?.ocspUrl) {
    const responder = await party("svc dev OCSP responder", await generateEc("P-256"));
    responder.certDer = await issue({
      subject: responder,
      issuer: intermediate,
      issuerHash: caHash,
      notBefore,
      notAfter: new Date(now.getTime() + 365 * DAY),
      extensions: [
        digitalSignatureKeyUsage(),
        extKeyUsage([OID.ocspSigning], false),
        extension(OID.ocspNoCheck, false, new asn1js.Null()), // RFC 6960 §4.2.2.2.1: do not check the responder itself
        subjectKeyId(responder.keyId),
        authorityKeyId(intermediate.keyId),
      ],
    });
    ocsp = {
      responderCertPem: pem("CERTIFICATE", responder.certDer),
      responderKeyPkcs8Pem: pem("PRIVATE KEY", await exportPkcs8(responder.keys.privateKey)),
      caCertPem: pem("CERTIFICATE", intermediate.certDer),
    };
  }

  return {
    ...(ocsp ? { ocsp } : {}),
    algorithm,
    rootCertPem: pem("CERTIFICATE", root.certDer),
    signerChainPem: pem("CERTIFICATE", signer.certDer) + pem("CERTIFICATE", intermediate.certDer),
    signerKeyPkcs8Pem: pem("PRIVATE KEY", await exportPkcs8(signer.keys.privateKey)),
    tsaChainPem: pem("CERTIFICATE", tsa.certDer) + pem("CERTIFICATE", intermediate.certDer),
    tsaKeyPkcs8Pem: pem("PRIVATE KEY", await exportPkcs8(tsa.keys.privateKey)),
  };
}

async function generateEc(namedCurve: "P-256" | "P-384"): Promise<CryptoKeyPair> {
  return (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve }, true, ["sign", "verify"])) as CryptoKeyPair;
}

async function generateSignerKeys(algorithm: DevPkiAlgorithm): Promise<CryptoKeyPair> {
  if (algorithm === "Ed25519") {
    return (await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])) as CryptoKeyPair;
  }
  return generateEc(algorithm === "ES384" ? "P-384" : "P-256");
}

async function party(name: string, keys: CryptoKeyPair): Promise<Party> {
  const spki = new Uint8Array((await crypto.subtle.exportKey("spki", keys.publicKey)) as ArrayBuffer);
  // RFC 5280 method 1: SHA-1 of the subjectPublicKey BIT STRING contents.
  const info = pkijs.PublicKeyInfo.fromBER(spki);
  const keyBits = info.subjectPublicKey.valueBlock.valueHexView;
  const keyId = new Uint8Array(await crypto.subtle.digest("SHA-1", keyBits));
  return { name, keys, spki, keyId };
}

async function exportPkcs8(key: CryptoKey): Promise<Uint8Array> {
  return new Uint8Array((await crypto.subtle.exportKey("pkcs8", key)) as ArrayBuffer);
}

/**
 * O=svc dev, CN=<cn> as two single-valued RDNs. c2pa-rs requires an organization in the signer's subject (it
 * reports it as the issuer of the claim signature). Encoded by hand: pkijs puts all attributes into one
 * multi-valued RDN.
 */
function distinguishedName(cn: string): pkijs.RelativeDistinguishedNames {
  const rdn = (type: string, value: string) =>
    new asn1js.Set({
      value: [new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: type }), new asn1js.Utf8String({ value })] })],
    });
  const der = new asn1js.Sequence({ value: [rdn(OID.organization, "svc dev"), rdn(OID.commonName, cn)] }).toBER(false);
  return pkijs.RelativeDistinguishedNames.fromBER(der);
}

async function issue(args: {
  subject: Party;
  issuer: Party;
  issuerHash: "SHA-256" | "SHA-384";
  notBefore: Date;
  notAfter: Date;
  extensions: pkijs.Extension[];
}): Promise<Uint8Array> {
  const cert = new pkijs.Certificate();
  cert.version = 2; // X.509 v3
  cert.serialNumber = new asn1js.Integer({ valueHex: randomSerial() });
  cert.issuer = distinguishedName(args.issuer.name);
  cert.subject = distinguishedName(args.subject.name);
  cert.notBefore = new pkijs.Time({ type: pkijs.TimeType.UTCTime, value: wholeSeconds(args.notBefore) });
  cert.notAfter = new pkijs.Time({ type: pkijs.TimeType.UTCTime, value: wholeSeconds(args.notAfter) });
  cert.subjectPublicKeyInfo = pkijs.PublicKeyInfo.fromBER(args.subject.spki);
  cert.extensions = args.extensions;
  await cert.sign(args.issuer.keys.privateKey, args.issuerHash);
  return new Uint8Array(cert.toSchema(true).toBER(false));
}

function extension(extnID: string, critical: boolean, value: asn1js.BaseBlock): pkijs.Extension {
  return new pkijs.Extension({ extnID, critical, extnValue: value.toBER(false) });
}

function basicConstraints(ca: boolean, pathLen: number | undefined): pkijs.Extension {
  const items: asn1js.BaseBlock[] = [];
  if (ca) items.push(new asn1js.Boolean({ value: true })); // DER omits the DEFAULT FALSE
  if (pathLen !== undefined) items.push(new asn1js.Integer({ value: pathLen }));
  return extension(OID.basicConstraints, true, new asn1js.Sequence({ value: items }));
}

/** keyCertSign (bit 5) + cRLSign (bit 6): 0b0000_0110 with one unused bit. */
function caKeyUsage(): pkijs.Extension {
  return extension(OID.keyUsage, true, bitString(new Uint8Array([0x06]), 1));
}

/** digitalSignature (bit 0): 0b1000_0000 with seven unused bits. */
function digitalSignatureKeyUsage(): pkijs.Extension {
  return extension(OID.keyUsage, true, bitString(new Uint8Array([0x80]), 7));
}

function bitString(bytes: Uint8Array, unusedBits: number): asn1js.BitString {
  return new asn1js.BitString({ valueHex: bytes, unusedBits });
}

function extKeyUsage(oids: string[], critical: boolean): pkijs.Extension {
  return extension(OID.extKeyUsage, critical, new asn1js.Sequence({ value: oids.map((value) => new asn1js.ObjectIdentifier({ value })) }));
}

function subjectKeyId(keyId: Uint8Array): pkijs.Extension {
  return extension(OID.subjectKeyId, false, new asn1js.OctetString({ valueHex: keyId }));
}

function authorityKeyId(keyId: Uint8Array): pkijs.Extension {
  // AuthorityKeyIdentifier ::= SEQUENCE { keyIdentifier [0] IMPLICIT OCTET STRING }
  return extension(
    OID.authorityKeyId,
    false,
    new asn1js.Sequence({ value: [new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber: 0 }, valueHex: keyId })] }),
  );
}

/** 16 random bytes, positive and minimally encoded (first byte in 0x40..0x7f). */
function randomSerial(): Uint8Array {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0]! & 0x3f) | 0x40;
  return bytes;
}

function wholeSeconds(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}

function pem(label: string, der: Uint8Array): string {
  const b64 = toBase64(der);
  const lines: string[] = [];
  for (let i = 0; i < b64.length; i += 64) lines.push(b64.slice(i, i + 64));
  return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----\n`;
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** AuthorityInfoAccessSyntax with one AccessDescription { id-ad-ocsp, uniformResourceIdentifier [6] IA5String }. */
function authorityInfoAccessOcsp(url: string): pkijs.Extension {
  const location = new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber: 6 }, valueHex: new TextEncoder().encode(url) });
  const description = new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: OID.adOcsp }), location] });
  return extension(OID.authorityInfoAccess, false, new asn1js.Sequence({ value: [description] }));
}

/** A fresh ECDSA P-256 key (PKCS#8 PEM) for the dev transparency log's checkpoints (SVC_ANCHOR_KEY_PEM). */
export async function mintAnchorKeyPem(): Promise<string> {
  return pem("PRIVATE KEY", await exportPkcs8((await generateEc("P-256")).privateKey));
}
