/*
 * DER reading for Android key attestation: X.509 certificates (only the parts a manual chain walk needs, as the
 * exact bytes that were signed) and the KeyDescription extension (1.3.6.1.4.1.11129.2.1.17). Everything here
 * throws `AndroidKeyFormatError` on malformed input; the verifier turns that into `invalid`.
 */
import * as asn1js from "asn1js";
import { equalBytes } from "../../platform/bytes";

/** The Android key attestation extension (KeyDescription) OID. */
export const KEY_DESCRIPTION_OID = "1.3.6.1.4.1.11129.2.1.17";

/** Thrown for any structural problem in a certificate or the KeyDescription; its message is safe to report. */
export class AndroidKeyFormatError extends Error {}

/** The parts of one certificate the chain walk needs, as the exact encoded bytes (names compared byte for byte). */
export interface RawCertificate {
  der: Uint8Array;
  tbs: Uint8Array;
  signatureAlgorithmOid: string;
  signature: Uint8Array;
  /** Serial as Google's status list keys it: lowercase hex, no leading zeros. */
  serialHex: string;
  issuer: Uint8Array;
  subject: Uint8Array;
  notBefore: Date;
  notAfter: Date;
  spki: Uint8Array;
  /** Extension OID → extnValue contents (the bytes inside the OCTET STRING). */
  extensions: Map<string, Uint8Array>;
  /** Every RDN attribute value of the subject whose type is O (2.5.4.10), as text. */
  subjectOrganizations: string[];
}

function fail(what: string): never {
  throw new AndroidKeyFormatError(what);
}

function decode(bytes: Uint8Array, what: string): asn1js.AsnType {
  const parsed = asn1js.fromBER(bytes);
  // Trailing bytes would let two parties read different things from the same signed blob.
  if (parsed.offset === -1 || parsed.offset !== bytes.byteLength) fail(`${what}: not a single DER element`);
  return parsed.result;
}

function children(block: asn1js.AsnType, what: string): asn1js.AsnType[] {
  if (!(block instanceof asn1js.Sequence) && !(block instanceof asn1js.Set) && !(block instanceof asn1js.Constructed)) {
    fail(`${what}: expected a constructed element`);
  }
  return (block as asn1js.Sequence).valueBlock.value;
}

function bytesOf(block: asn1js.AsnType): Uint8Array {
  return new Uint8Array(block.valueBeforeDecodeView);
}

function octets(block: asn1js.AsnType | undefined, what: string): Uint8Array {
  if (!(block instanceof asn1js.OctetString)) fail(`${what}: expected an OCTET STRING`);
  if (block.idBlock.isConstructed) fail(`${what}: constructed OCTET STRING`);
  return new Uint8Array(block.valueBlock.valueHexView);
}

/** A non-negative INTEGER or ENUMERATED as a number (attestation values stay far below 2^53). */
export function smallInt(block: asn1js.AsnType | undefined, what: string): number {
  if (!(block instanceof asn1js.Integer) && !(block instanceof asn1js.Enumerated)) fail(`${what}: expected an INTEGER`);
  const v = block.valueBlock.valueHexView;
  if (v.length === 0 || (v[0]! & 0x80) !== 0) fail(`${what}: negative or empty INTEGER`);
  let n = 0;
  for (const b of v) n = n * 256 + b;
  if (!Number.isSafeInteger(n)) fail(`${what}: INTEGER too large`);
  return n;
}

function time(block: asn1js.AsnType | undefined, what: string): Date {
  if (block instanceof asn1js.UTCTime || block instanceof asn1js.GeneralizedTime) return block.toDate();
  fail(`${what}: expected a time`);
}

function oid(block: asn1js.AsnType | undefined, what: string): string {
  if (!(block instanceof asn1js.ObjectIdentifier)) fail(`${what}: expected an OBJECT IDENTIFIER`);
  return block.valueBlock.toString();
}

function organizations(name: asn1js.AsnType): string[] {
  const out: string[] = [];
  for (const rdn of children(name, "name")) {
    for (const atv of children(rdn, "name")) {
      const [type, value] = children(atv, "name");
      if (type instanceof asn1js.ObjectIdentifier && type.valueBlock.toString() === "2.5.4.10") {
        out.push((value as unknown as { valueBlock: { value: string } }).valueBlock.value);
      }
    }
  }
  return out;
}

/** Parses one DER certificate; invariant: every byte field is exactly what the issuer signed or named. */
export function parseCertificate(der: Uint8Array): RawCertificate {
  const outer = decode(der, "certificate");
  // BER leniency must not let other bytes pass for a signed certificate (asn1js reads a SET tag or a non-minimal
  // length here): accept only the one canonical DER encoding of what was parsed.
  if (!(outer instanceof asn1js.Sequence) || !equalBytes(new Uint8Array(outer.toBER(false)), der)) fail("certificate: not canonical DER");
  const cert = children(outer, "certificate");
  if (cert.length !== 3) fail("certificate: expected tbs, algorithm, signature");
  const [tbsBlock, algBlock, sigBlock] = cert as [asn1js.AsnType, asn1js.AsnType, asn1js.AsnType];
  const tbs = children(tbsBlock, "tbsCertificate");
  let i = 0;
  if (tbs[0] && tbs[0].idBlock.tagClass === 3 && tbs[0].idBlock.tagNumber === 0) i = 1; // explicit version
  const serial = tbs[i];
  const innerAlg = tbs[i + 1];
  const issuer = tbs[i + 2];
  const validity = tbs[i + 3];
  const subject = tbs[i + 4];
  const spki = tbs[i + 5];
  if (!(serial instanceof asn1js.Integer) || !issuer || !validity || !subject || !spki) fail("tbsCertificate: missing fields");
  const [notBefore, notAfter] = children(validity, "validity");
  const extensions = new Map<string, Uint8Array>();
  for (const field of tbs.slice(i + 6)) {
    if (field.idBlock.tagClass !== 3 || field.idBlock.tagNumber !== 3) continue;
    const [list] = children(field, "extensions");
    for (const ext of children(list!, "extensions")) {
      const parts = children(ext, "extension");
      const id = oid(parts[0], "extension id");
      if (extensions.has(id)) fail(`certificate: duplicate extension ${id}`);
      extensions.set(id, octets(parts[parts.length - 1], "extension value"));
    }
  }
  // The outer algorithm is outside the signature; it must repeat the signed one (RFC 5280 4.1.1.2).
  if (!innerAlg || !equalBytes(bytesOf(innerAlg), bytesOf(algBlock))) fail("certificate: signature algorithm differs from the signed one");
  if (!(sigBlock instanceof asn1js.BitString) || sigBlock.valueBlock.unusedBits !== 0) fail("certificate: bad signature BIT STRING");
  const serialHex = Array.from(serial.valueBlock.valueHexView, (b) => b.toString(16).padStart(2, "0"))
    .join("")
    .replace(/^0+(?=.)/, "");
  return {
    der,
    tbs: bytesOf(tbsBlock),
    signatureAlgorithmOid: oid(children(algBlock, "algorithm")[0], "signature algorithm"),
    signature: new Uint8Array(sigBlock.valueBlock.valueHexView),
    serialHex,
    issuer: bytesOf(issuer),
    subject: bytesOf(subject),
    notBefore: time(notBefore, "notBefore"),
    notAfter: time(notAfter, "notAfter"),
    spki: bytesOf(spki),
    extensions,
    subjectOrganizations: organizations(subject),
  };
}

/** Decoded PEM certificates in order; throws when the text holds anything but CERTIFICATE blocks. */
export function pemCertificates(text: string): Uint8Array[] {
  const out: Uint8Array[] = [];
  const rest = text.replace(/-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]*?)-----END CERTIFICATE-----/g, (_m, body: string) => {
    const bin = atob(body.replace(/\s+/g, ""));
    out.push(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
    return "";
  });
  if (rest.trim() !== "") fail("PEM: unexpected text outside CERTIFICATE blocks");
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// KeyDescription

const TAG_CREATION_DATE_TIME = 701;
const TAG_ROOT_OF_TRUST = 704;
const TAG_OS_VERSION = 705;
const TAG_OS_PATCH_LEVEL = 706;
const TAG_ATTESTATION_APPLICATION_ID = 709;

/** The device's boot state as the secure environment attests it. */
export interface RootOfTrust {
  verifiedBootKey: Uint8Array;
  deviceLocked: boolean;
  /** 0 verified, 1 self-signed, 2 unverified, 3 failed. */
  verifiedBootState: number;
}

/** The authorization-list entries this service uses; other tags are skipped (see `parseAuthorizationList`). */
export interface AuthorizationList {
  rootOfTrust?: RootOfTrust;
  osVersion?: number;
  osPatchLevel?: number;
  creationDateTime?: number;
  applicationId?: { packages: { name: string; version: number }[]; signatureDigests: Uint8Array[] };
}

/** The decoded KeyDescription; invariant: every field present and of its ASN.1 type (uniqueId kept, unused). */
export interface KeyDescription {
  attestationVersion: number;
  /** 0 software, 1 trusted environment, 2 StrongBox. */
  attestationSecurityLevel: number;
  keymasterVersion: number;
  keymasterSecurityLevel: number;
  attestationChallenge: Uint8Array;
  uniqueId: Uint8Array;
  softwareEnforced: AuthorizationList;
  hardwareEnforced: AuthorizationList;
}

function parseRootOfTrust(block: asn1js.AsnType): RootOfTrust {
  const [key, locked, state] = children(block, "rootOfTrust");
  // BER BOOLEAN: any non-zero octet is TRUE. One real device encodes TRUE as 0x01 (not DER); it is signed by the
  // device's attestation key like everything else, so reading it leniently changes no trust decision.
  if (!(locked instanceof asn1js.Boolean) || locked.valueBlock.valueHexView.length !== 1) fail("rootOfTrust: bad deviceLocked");
  return {
    verifiedBootKey: octets(key, "verifiedBootKey"),
    deviceLocked: locked.valueBlock.valueHexView[0] !== 0,
    verifiedBootState: smallInt(state, "verifiedBootState"),
  };
}

function parseApplicationId(der: Uint8Array): NonNullable<AuthorizationList["applicationId"]> {
  const [infos, digests] = children(decode(der, "attestationApplicationId"), "attestationApplicationId");
  if (!infos || !digests) fail("attestationApplicationId: missing fields");
  const packages = children(infos, "package infos").map((info) => {
    const [name, version] = children(info, "package info");
    return {
      name: new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(octets(name, "package name")),
      version: smallInt(version, "package version"),
    };
  });
  return { packages, signatureDigests: children(digests, "signature digests").map((d) => octets(d, "signature digest")) };
}

/**
 * Reads the entries this service uses. Unknown tags are skipped, not refused: KeyMint adds tags with new versions
 * (405, 508, 724, ...) and the list is signed by the attestation key, so an unknown tag cannot smuggle anything in;
 * failing closed would reject every new device until a release. A known tag appearing twice is refused.
 */
export function parseAuthorizationList(block: asn1js.AsnType | undefined, what: string): AuthorizationList {
  const list: AuthorizationList = {};
  const seen = new Set<number>();
  for (const entry of children(block as asn1js.AsnType, what)) {
    if (entry.idBlock.tagClass !== 3) fail(`${what}: entry without a context tag`);
    const tag = entry.idBlock.tagNumber;
    if (seen.has(tag)) fail(`${what}: tag ${tag} repeated`);
    seen.add(tag);
    const inner = () => {
      const c = children(entry, `${what} tag ${tag}`);
      if (c.length !== 1) fail(`${what} tag ${tag}: expected one value`);
      return c[0]!;
    };
    if (tag === TAG_ROOT_OF_TRUST) list.rootOfTrust = parseRootOfTrust(inner());
    else if (tag === TAG_OS_VERSION) list.osVersion = smallInt(inner(), "osVersion");
    else if (tag === TAG_OS_PATCH_LEVEL) list.osPatchLevel = smallInt(inner(), "osPatchLevel");
    else if (tag === TAG_CREATION_DATE_TIME) list.creationDateTime = smallInt(inner(), "creationDateTime");
    else if (tag === TAG_ATTESTATION_APPLICATION_ID) list.applicationId = parseApplicationId(octets(inner(), "attestationApplicationId"));
  }
  return list;
}

/** Parses the KeyDescription extension value; invariant: only a well-formed description comes back. */
export function parseKeyDescription(value: Uint8Array): KeyDescription {
  const fields = children(decode(value, "KeyDescription"), "KeyDescription");
  if (fields.length < 8) fail("KeyDescription: missing fields");
  return {
    attestationVersion: smallInt(fields[0], "attestationVersion"),
    attestationSecurityLevel: smallInt(fields[1], "attestationSecurityLevel"),
    keymasterVersion: smallInt(fields[2], "keymasterVersion"),
    keymasterSecurityLevel: smallInt(fields[3], "keymasterSecurityLevel"),
    attestationChallenge: octets(fields[4], "attestationChallenge"),
    uniqueId: octets(fields[5], "uniqueId"),
    softwareEnforced: parseAuthorizationList(fields[6], "softwareEnforced"),
    hardwareEnforced: parseAuthorizationList(fields[7], "hardwareEnforced"),
  };
}
