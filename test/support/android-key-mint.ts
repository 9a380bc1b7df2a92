/*
 * Mints Android-style key attestation chains for negative tests: a test CA standing in for Google's root (handed to
 * the verifier as `trust.googleRootsPem`), intermediates, and leaves carrying a KeyDescription built here. Runs on
 * WebCrypto + pkijs in Node and workerd; the verifier checks these through its ordinary path.
 */
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";

export const KEY_DESCRIPTION_OID = "1.3.6.1.4.1.11129.2.1.17";

/** A minted key pair and its SPKI DER. */
export interface Party {
  keys: CryptoKeyPair;
  spki: Uint8Array;
}

/** A fresh ECDSA P-256 party. */
export async function mintParty(): Promise<Party> {
  const keys = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  return { keys, spki: new Uint8Array((await crypto.subtle.exportKey("spki", keys.publicKey)) as ArrayBuffer) };
}

/** A Name of single-valued RDNs, e.g. [["2.5.4.10", "Google LLC"], ["2.5.4.3", "Droid CA3"]]. */
export function dn(pairs: [string, string][]): Uint8Array {
  const rdn = ([type, value]: [string, string]) =>
    new asn1js.Set({
      value: [new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: type }), new asn1js.Utf8String({ value })] })],
    });
  return new Uint8Array(new asn1js.Sequence({ value: pairs.map(rdn) }).toBER(false));
}

/** Attribute types for `dn`. */
export const O = "2.5.4.10";
export const CN = "2.5.4.3";

let serial = 0x1000;

/** A v3 certificate with the given names, dates and (non-critical) extensions, signed ECDSA/SHA-256 by `issuerKey`. */
export async function mintCert(args: {
  subject: Uint8Array;
  issuer: Uint8Array;
  subjectSpki: Uint8Array;
  issuerKey: CryptoKey;
  notBefore: Date;
  notAfter: Date;
  extensions?: { oid: string; value: Uint8Array }[];
}): Promise<Uint8Array> {
  const cert = new pkijs.Certificate();
  cert.version = 2;
  serial += 1;
  cert.serialNumber = new asn1js.Integer({ value: serial });
  cert.issuer = pkijs.RelativeDistinguishedNames.fromBER(args.issuer);
  cert.subject = pkijs.RelativeDistinguishedNames.fromBER(args.subject);
  cert.notBefore = new pkijs.Time({ type: pkijs.TimeType.GeneralizedTime, value: args.notBefore });
  cert.notAfter = new pkijs.Time({ type: pkijs.TimeType.GeneralizedTime, value: args.notAfter });
  cert.subjectPublicKeyInfo = pkijs.PublicKeyInfo.fromBER(args.subjectSpki);
  if (args.extensions?.length) {
    cert.extensions = args.extensions.map(
      (e) => new pkijs.Extension({ extnID: e.oid, critical: false, extnValue: e.value.buffer as ArrayBuffer }),
    );
  }
  await cert.sign(args.issuerKey, "SHA-256");
  return new Uint8Array(cert.toSchema(true).toBER(false));
}

/** `[tag] EXPLICIT value`, as authorization lists encode every entry. */
export function tagged(tag: number, value: asn1js.BaseBlock): asn1js.BaseBlock {
  return new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: tag }, value: [value] });
}

/** An INTEGER. */
export function int(n: number): asn1js.Integer {
  return new asn1js.Integer({ value: n });
}

/** hardware/softwareEnforced entry 704: RootOfTrust (zero boot key and hash). */
export function rootOfTrustEntry(state: number, locked: boolean): asn1js.BaseBlock {
  return tagged(
    704,
    new asn1js.Sequence({
      value: [
        new asn1js.OctetString({ valueHex: new Uint8Array(32) }),
        new asn1js.Boolean({ value: locked }),
        new asn1js.Enumerated({ value: state }),
        new asn1js.OctetString({ valueHex: new Uint8Array(32) }),
      ],
    }),
  );
}

/** Entry 709: attestationApplicationId (OCTET STRING holding the DER of packages and signer digests). */
export function applicationIdEntry(packages: [string, number][], digests: Uint8Array[]): asn1js.BaseBlock {
  const inner = new asn1js.Sequence({
    value: [
      new asn1js.Set({
        value: packages.map(
          ([name, version]) =>
            new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: new TextEncoder().encode(name) }), int(version)] }),
        ),
      }),
      new asn1js.Set({ value: digests.map((d) => new asn1js.OctetString({ valueHex: d })) }),
    ],
  });
  return tagged(709, new asn1js.OctetString({ valueHex: inner.toBER(false) }));
}

/** A KeyDescription (attestation/KeyMint version 300) with the given levels, challenge and authorization lists. */
export function keyDescription(args: {
  challenge: Uint8Array;
  attestationSecurityLevel?: number;
  keymasterSecurityLevel?: number;
  softwareEnforced?: asn1js.BaseBlock[];
  hardwareEnforced?: asn1js.BaseBlock[];
}): Uint8Array {
  return new Uint8Array(
    new asn1js.Sequence({
      value: [
        int(300),
        new asn1js.Enumerated({ value: args.attestationSecurityLevel ?? 1 }),
        int(300),
        new asn1js.Enumerated({ value: args.keymasterSecurityLevel ?? 1 }),
        new asn1js.OctetString({ valueHex: args.challenge }),
        new asn1js.OctetString({ valueHex: new Uint8Array(0) }),
        new asn1js.Sequence({ value: args.softwareEnforced ?? [] }),
        new asn1js.Sequence({ value: args.hardwareEnforced ?? [] }),
      ],
    }).toBER(false),
  );
}

/** PEM text of the certificates in order (the statement encoding the verifier takes). */
export function toPem(ders: Uint8Array[]): string {
  return ders
    .map((der) => {
      const b64 = btoa(String.fromCharCode(...der));
      return `-----BEGIN CERTIFICATE-----\n${b64.replace(/(.{64})/g, "$1\n")}\n-----END CERTIFICATE-----\n`;
    })
    .join("");
}
