/** The DER pieces the RFC 3161 client (tsa.ts) and the dev TSA responder (src/dev/tsa-responder.ts) share. */
import type * as asn1js from "asn1js";
import { concatBytes } from "../../platform/bytes";

export const OID_SHA256 = "2.16.840.1.101.3.4.2.1";
export const OID_SHA384 = "2.16.840.1.101.3.4.2.2";
export const OID_SHA512 = "2.16.840.1.101.3.4.2.3";
export const OID_SIGNED_DATA = "1.2.840.113549.1.7.2";
export const OID_TST_INFO = "1.2.840.113549.1.9.16.1.4";
export const OID_CONTENT_TYPE = "1.2.840.113549.1.9.3";
export const OID_MESSAGE_DIGEST = "1.2.840.113549.1.9.4";
export const OID_SIGNING_TIME = "1.2.840.113549.1.9.5";
export const OID_SIGNING_CERTIFICATE_V2 = "1.2.840.113549.1.9.16.2.47";

export function octetStringContent(block: asn1js.OctetString): Uint8Array {
  // A constructed (BER) OCTET STRING keeps its pieces in valueBlock.value; DER ones hold the bytes directly.
  if (block.idBlock.isConstructed) {
    return concatBytes(block.valueBlock.value.map((p) => (p as asn1js.OctetString).valueBlock.valueHexView));
  }
  return block.valueBlock.valueHexView;
}

/** Big-endian bytes as a positive, minimally encoded DER INTEGER body. */
export function positiveInteger(bytes: Uint8Array): Uint8Array {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const trimmed = bytes.subarray(start);
  if (trimmed[0]! & 0x80) {
    const out = new Uint8Array(trimmed.length + 1);
    out.set(trimmed, 1);
    return out;
  }
  return trimmed.slice();
}

/** DER bodies of the PEM blocks with `label`, in order. */
export function pemBlocks(pem: string, label: string): Uint8Array[] {
  const out: Uint8Array[] = [];
  const re = new RegExp(`-----BEGIN ${label}-----([\\s\\S]*?)-----END ${label}-----`, "g");
  for (const match of pem.matchAll(re)) {
    const binary = atob(match[1]!.replace(/\s+/g, ""));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    out.push(bytes);
  }
  return out;
}
