import { z } from "@hono/zod-openapi";

/**
 * Resource id prefixes. Every id is `prefix_` + 16 chars of `[a-z2-7]` (80 bits from a CSPRNG),
 * exactly the patterns of SPEC "Identifiers". `ten`, `key` and `req` are ours (tenant, API key, request).
 */
export const ID_PREFIX = {
  asset: "ast",
  object: "aob",
  upload: "upl",
  job: "job",
  receipt: "rct",
  verification: "vfy",
  verificationReport: "vrp",
  verificationShare: "vsh",
  webhookEndpoint: "whe",
  webhookDelivery: "whd",
  webhookEvent: "whevt",
  creatorIdentity: "crid",
  captureIdentity: "cid",
  captureEnrollment: "cie",
  captureChallenge: "cch",
  captureAdmission: "cad",
  billingIntent: "bin",
  walletTransaction: "wtx",
  capturePolicy: "cpv",
  identityVersion: "div",
  auditEvent: "aud",
  governanceExport: "gex",
  governanceDeletion: "gdl",
  legalHold: "lgh",
  feedback: "fdb",
  user: "usr",
  tenant: "ten",
  apiKey: "key",
  request: "req",
} as const;

export type IdKind = keyof typeof ID_PREFIX;

const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

/** Lowercase RFC 4648 base32 without padding; `[a-z2-7]` only. */
export function base32(bytes: Uint8Array): string {
  let out = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32[(buffer << (5 - bits)) & 31];
  return out;
}

/** Random `[a-z2-7]` string of `length` chars (5 bits each). */
export function randomBase32(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(Math.ceil((length * 5) / 8)));
  return base32(bytes).slice(0, length);
}

export function newId(kind: IdKind): string {
  return `${ID_PREFIX[kind]}_${randomBase32(16)}`;
}

export function idPattern(kind: IdKind): RegExp {
  return new RegExp(`^${ID_PREFIX[kind]}_[a-z2-7]{16}$`);
}

export function isId(kind: IdKind, value: string): boolean {
  return idPattern(kind).test(value);
}

/** A zod string schema for one id kind, documented with its pattern and an example. */
export function idSchema(kind: IdKind, description: string) {
  return z
    .string()
    .regex(idPattern(kind))
    .openapi({ description, example: `${ID_PREFIX[kind]}_abcdefghij234567`, pattern: idPattern(kind).source });
}
