/**
 * Who signed a manifest, read from the manifest store's COSE_Sign1 directly instead of from the engine's crJSON
 * rendering. crJSON re-validates the timestamp and renders every assertion: about 3.4 of the 28 CPU ms of a 1 MP
 * verification (#19), for five strings. The summary must be exactly what crJSON says (c2pa-rs 0.91 crjson.rs
 * `build_signature` / `parse_certificate_from_der`), so this reader answers only for the plain forms it can render
 * identically and returns null for anything else; the caller then asks crJSON (signerSummaryFromCrJson).
 */
import { equalBytes } from "../../platform/bytes";
import { type CborItem, decodeCbor, isCborTag } from "../../platform/cbor";
import { childrenOf, contentOf, oidText, readTlv, type Tlv } from "./der";
import { OID_SIGNED_DATA } from "./tsa-der";

export interface SignerSummary {
  common_name: string | null;
  organization: string | null;
  issuer: string | null;
  serial_number: string | null;
  not_after: string | null;
  timestamp: string | null;
  timestamp_authority: string | null;
}

/** The crJSON shape of a manifest's signature, as far as the summary reads it. */
export interface CrJsonSignature {
  manifests?: {
    label: string;
    signature?: {
      certificateInfo?: {
        serialNumber?: string;
        issuer?: Record<string, string>;
        subject?: Record<string, string>;
        validity?: { notAfter?: string };
      };
      timeStampInfo?: { timestamp?: string; certificateInfo?: { subject?: Record<string, string> } };
    };
  }[];
}

/** The summary of the manifest `label` as crJSON renders it. */
export function signerSummaryFromCrJson(cr: CrJsonSignature, label: string): SignerSummary | null {
  const sig = cr.manifests?.find((m) => m.label === label)?.signature;
  if (!sig?.certificateInfo) return null;
  const subject = sig.certificateInfo.subject ?? {};
  const issuer = sig.certificateInfo.issuer ?? {};
  return {
    common_name: subject["CN"] ?? null,
    organization: subject["O"] ?? null,
    issuer: issuer["O"] ?? issuer["CN"] ?? null,
    serial_number: sig.certificateInfo.serialNumber ?? null,
    not_after: sig.certificateInfo.validity?.notAfter ?? null,
    timestamp: sig.timeStampInfo?.timestamp ?? null,
    timestamp_authority: sig.timeStampInfo?.certificateInfo?.subject?.["CN"] ?? null,
  };
}

/**
 * The same summary from the COSE_Sign1 bytes of the manifest, or null when this reader cannot be sure to render
 * it as crJSON would. `validatedTime` is the engine's `signature_info.time` of the same manifest (json()): present
 * only when the engine validated the timestamp, which is also when crJSON shows it (both are c2pa-rs's
 * `signing_time_from_sign1` of the one token C2PA allows, rendered RFC 3339). A token without it is left to
 * crJSON, which validates the token without trust.
 * Invariant: non-null only when every field equals signerSummaryFromCrJson's for the same manifest.
 */
export function signerSummaryFromCose(cose: Uint8Array, validatedTime: string | null): SignerSummary | null {
  try {
    return summaryOf(cose, validatedTime);
  } catch {
    return null;
  }
}

function summaryOf(cose: Uint8Array, validatedTime: string | null): SignerSummary | null {
  const decoded = decodeCbor(cose);
  if (decoded.status !== "ok") return null;
  const sign1 = isCborTag(decoded.value) ? (decoded.value.tag === 18 ? decoded.value.value : null) : decoded.value;
  if (!Array.isArray(sign1) || sign1.length !== 4) return null;
  const [protectedBytes, unprotected] = sign1;
  if (!(protectedBytes instanceof Uint8Array) || !(unprotected instanceof Map)) return null;
  const header = decodeCbor(protectedBytes);
  if (header.status !== "ok" || !(header.value instanceof Map)) return null;
  // The plain C2PA form only: x5chain under label 33 of the protected header, nowhere else.
  if (header.value.has("x5chain") || unprotected.has(33) || unprotected.has("x5chain")) return null;
  const x5chain = header.value.get(33);
  const leaf = x5chain instanceof Uint8Array ? x5chain : Array.isArray(x5chain) ? x5chain[0] : undefined;
  if (!(leaf instanceof Uint8Array)) return null;
  const cert = certificateFields(leaf);
  if (!cert) return null;

  let timestamp: string | null = null;
  let authority: string | null = null;
  const v2 = unprotected.get("sigTst2");
  const v1 = unprotected.get("sigTst");
  if (v2 !== undefined || v1 !== undefined) {
    if (v2 !== undefined && v1 !== undefined) return null; // c2pa-rs takes the first in map order
    if (validatedTime === null || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/.test(validatedTime)) return null;
    const token = firstToken(v2 ?? v1);
    if (!token) return null;
    const tsa = tsaSignerSubject(token);
    if (tsa === undefined) return null;
    timestamp = validatedTime;
    authority = tsa?.get("CN") ?? null;
  }
  return {
    common_name: cert.subject.get("CN") ?? null,
    organization: cert.subject.get("O") ?? null,
    issuer: cert.issuer.get("O") ?? cert.issuer.get("CN") ?? null,
    serial_number: cert.serial,
    not_after: cert.notAfter,
    timestamp,
    timestamp_authority: authority,
  };
}

/** `{ tstTokens: [{ val: bstr }, …] }` → the first token (what crJSON renders). */
function firstToken(container: CborItem): Uint8Array | null {
  const tokens = container instanceof Map ? container.get("tstTokens") : undefined;
  const first = Array.isArray(tokens) ? tokens[0] : undefined;
  const val = first instanceof Map ? first.get("val") : undefined;
  return val instanceof Uint8Array ? val : null;
}

/** crJSON's DN components (extract_dn_components): these attribute types, the last value of each winning. */
const DN_KEYS: Record<string, string> = {
  "2.5.4.6": "C",
  "2.5.4.8": "ST",
  "2.5.4.7": "L",
  "2.5.4.10": "O",
  "2.5.4.11": "OU",
  "2.5.4.3": "CN",
};

/**
 * String types whose bytes x509-parser's `as_str` returns as UTF-8 (UTF8String, PrintableString, IA5String).
 * Another type makes crJSON's rendering fail or differ, so the reader gives up (null).
 */
const TEXT_TAGS = new Set([0x0c, 0x13, 0x16]);
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** A Name's components as crJSON renders them; null when any attribute is not plain text. */
function nameComponents(b: Uint8Array, name: Tlv): Map<string, string> | null {
  if (name.tag !== 0x30) return null;
  const out = new Map<string, string>();
  for (const rdn of childrenOf(b, name) ?? [null]) {
    if (rdn?.tag !== 0x31) return null;
    for (const atv of childrenOf(b, rdn) ?? [null]) {
      const parts = atv?.tag === 0x30 ? childrenOf(b, atv) : null;
      if (parts?.length !== 2 || parts[0]!.tag !== 0x06 || !TEXT_TAGS.has(parts[1]!.tag)) return null;
      const type = oidText(contentOf(b, parts[0]!));
      if (type === null) return null;
      let text: string;
      try {
        text = utf8.decode(contentOf(b, parts[1]!));
      } catch {
        return null;
      }
      const key = DN_KEYS[type];
      if (key) out.set(key, text);
    }
  }
  return out;
}

interface CertificateFields {
  serial: string;
  issuer: Map<string, string>;
  subject: Map<string, string>;
  notAfter: string;
}

/** TBSCertificate { [0] version?, serial, signature, issuer, validity, subject, … } of a strict DER certificate. */
function certificateFields(der: Uint8Array): CertificateFields | null {
  const top = readTlv(der, 0);
  if (top?.tag !== 0x30 || top.end !== der.length) return null;
  const tbs = childrenOf(der, top)?.[0];
  const fields = tbs?.tag === 0x30 ? childrenOf(der, tbs) : null;
  if (!fields) return null;
  const f = fields[0]?.tag === 0xa0 ? fields.slice(1) : fields;
  // serial, signature, issuer, validity, subject, subjectPublicKeyInfo, …
  if (f.length < 6 || f[0]!.tag !== 0x02 || f[1]!.tag !== 0x30 || f[3]!.tag !== 0x30) return null;
  const issuer = nameComponents(der, f[2]!);
  const subject = nameComponents(der, f[4]!);
  const validity = childrenOf(der, f[3]!);
  const notAfter = validity?.length === 2 ? rfc3339(der, validity[1]!) : null;
  if (!issuer || !subject || !notAfter) return null;
  return { serial: serialHex(contentOf(der, f[0]!)), issuer, subject, notAfter };
}

/** `format!("{:x}", BigUint)` of the serial's content bytes (x509-parser reads them unsigned). */
function serialHex(bytes: Uint8Array): string {
  let text = "";
  for (const b of bytes) text += b.toString(16).padStart(2, "0");
  return text.replace(/^0+/, "") || "0";
}

/** UTCTime / GeneralizedTime in their DER forms (…Z, whole seconds) as chrono's `to_rfc3339` writes UTC. */
function rfc3339(b: Uint8Array, t: Tlv): string | null {
  const text = String.fromCharCode(...contentOf(b, t));
  const m = t.tag === 0x17 ? /^(\d\d)(\d{10})Z$/.exec(text) : t.tag === 0x18 ? /^(\d{4})(\d{10})Z$/.exec(text) : null;
  if (!m) return null;
  const year = t.tag === 0x17 ? (Number(m[1]) < 50 ? 2000 : 1900) + Number(m[1]) : Number(m[1]);
  const [mo, d, h, mi, s] = m[2]!.match(/\d\d/g)!.map(Number) as [number, number, number, number, number];
  const date = new Date(Date.UTC(year, mo - 1, d, h, mi, s));
  // Out-of-range fields (month 13, second 60) roll over in Date but not in x509-parser: not ours to render.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d || date.getUTCHours() !== h) return null;
  if (date.getUTCMinutes() !== mi || date.getUTCSeconds() !== s || year < 1000) return null;
  return `${date.toISOString().slice(0, 19)}+00:00`;
}

/**
 * The subject components of the token's first signer's certificate (c2pa-rs `tsa_signer_cert_der_from_token`:
 * the certificate whose issuer and serial are the first SignerInfo's IssuerAndSerialNumber); null when the token
 * names none (crJSON then shows no authority); undefined when this reader cannot tell.
 */
function tsaSignerSubject(token: Uint8Array): Map<string, string> | null | undefined {
  const top = readTlv(token, 0);
  const contentInfo = top?.tag === 0x30 && top.end === token.length ? childrenOf(token, top) : null;
  if (contentInfo?.length !== 2 || contentInfo[0]!.tag !== 0x06 || contentInfo[1]!.tag !== 0xa0) return undefined;
  if (oidText(contentOf(token, contentInfo[0]!)) !== OID_SIGNED_DATA) return undefined;
  const inner = childrenOf(token, contentInfo[1]!);
  const sd = inner?.length === 1 && inner[0]!.tag === 0x30 ? childrenOf(token, inner[0]!) : null;
  if (!sd || sd.length < 4) return undefined;
  const certsField = sd.find((t, i) => i >= 3 && t.tag === 0xa0);
  const signerInfos = sd[sd.length - 1]!;
  if (signerInfos.tag !== 0x31) return undefined;
  if (!certsField) return null;
  const certs = childrenOf(token, certsField);
  if (!certs || certs.some((c) => c.tag !== 0x30)) return undefined; // other CertificateChoices: c2pa-rs errors
  const first = childrenOf(token, signerInfos)?.[0];
  if (!first) return null;
  const si = first.tag === 0x30 ? childrenOf(token, first) : null;
  const sid = si?.[1];
  if (sid?.tag !== 0x30) return undefined; // SubjectKeyIdentifier ([0]) or malformed: left to crJSON
  const ias = childrenOf(token, sid);
  if (ias?.length !== 2 || ias[0]!.tag !== 0x30 || ias[1]!.tag !== 0x02) return undefined;
  const issuer = token.subarray(ias[0]!.at, ias[0]!.end);
  const serial = token.subarray(ias[1]!.at, ias[1]!.end);
  for (const c of certs) {
    const tbs = childrenOf(token, c)?.[0];
    const f0 = tbs?.tag === 0x30 ? childrenOf(token, tbs) : null;
    const f = f0?.[0]?.tag === 0xa0 ? f0.slice(1) : f0;
    if (!f || f.length < 6) return undefined;
    const sameSerial = equalBytes(token.subarray(f[0]!.at, f[0]!.end), serial);
    const sameIssuer = equalBytes(token.subarray(f[2]!.at, f[2]!.end), issuer);
    if (sameSerial && sameIssuer) return certificateFields(token.slice(c.at, c.end))?.subject ?? undefined;
  }
  return undefined; // no byte-equal match; c2pa-rs compares parsed values, which may still match
}
