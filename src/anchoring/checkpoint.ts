/**
 * Signed tree heads ("checkpoints") of the manifest transparency log, ECDSA P-256 / SHA-256 on WebCrypto.
 *
 * Format, version 1: a signed note (c2sp.org/signed-note) whose text is a tlog checkpoint (c2sp.org/tlog-checkpoint)
 * carrying one extension line that names this format. Byte for byte, with "\n" = U+000A:
 *
 *     <origin>\n                              e.g. "provenance.example/manifest-log"
 *     <tree size>\n                           ASCII decimal, no leading zeros ("0" for the empty tree)
 *     <root hash>\n                           standard padded base64 (RFC 4648 §4) of the 32-byte RFC 6962 root
 *     c2pa-manifest-log/checkpoint/v1\n       format and version of this body
 *     \n                                      blank line: end of the signed text
 *     — <origin> <signature>\n                em dash U+2014, space, key name (= origin), space, base64 signature
 *
 * - The signed text is everything up to and including the newline after the format line (not the blank line),
 *   encoded as UTF-8. Nothing else is allowed in the body: exactly those four lines, canonical encodings only, so
 *   one tree head has exactly one body text.
 * - origin: 1..255 printable ASCII characters other than space and "+" (it doubles as the signed-note key name).
 * - signature = base64(key id (4 bytes) || ECDSA signature), the ECDSA signature over SHA-256(text) DER-encoded
 *   (ASN.1 SEQUENCE of INTEGER r, INTEGER s). This is signature type 0x02 of the signed-note spec, as used by
 *   transparency-dev/witness and the Sigstore Rekor log, so generic note verifiers can check our checkpoints.
 * - key id = the first 4 bytes of SHA-256(DER SubjectPublicKeyInfo of the public key) (`checkpointKeyId`). The
 *   verifier key in the usual text form is `<origin>+<hex key id>+base64(0x02 || SPKI)` (`checkpointVerifierKey`).
 * - More signature lines may follow (witness cosignatures, a rotated key): a verifier ignores lines whose
 *   (name, key id) is not its key; the first line that matches its key decides.
 */

import { equalBytes, hex } from "../platform/bytes";
import { HASH_SIZE } from "./merkle";

/** The fourth line of every version 1 checkpoint body. */
export const CHECKPOINT_FORMAT = "c2pa-manifest-log/checkpoint/v1";

/** Signed-note signature type byte of ECDSA signatures (used in the verifier key text). */
const SIGNATURE_TYPE_ECDSA = 0x02;

/** Limits on what a verifier reads: whole note, and signature lines in it. */
const MAX_NOTE_LENGTH = 256 * 1024;
const MAX_SIGNATURE_LINES = 100;

const SIGNATURE_PREFIX = "\u2014 ";
const ECDSA_SIGN = { name: "ECDSA", hash: "SHA-256" } as const;
const P256 = { name: "ECDSA", namedCurve: "P-256" } as const;

export interface CheckpointBody {
  /** Log identity, also the signing key's name. */
  origin: string;
  /** Number of leaves in the tree. */
  treeSize: number;
  /** RFC 6962 root hash of the tree (32 bytes). */
  rootHash: Uint8Array;
}

export type CheckpointInvalidReason =
  | "malformed_note" // not a signed note: size, characters, blank line, signature line syntax
  | "malformed_body" // the signed text is not a canonical version 1 checkpoint body
  | "unsupported_format" // a checkpoint body of another format / version
  | "origin_mismatch" // a valid checkpoint, but not of the expected log
  | "bad_public_key" // the verifier key is not a usable ECDSA P-256 public key
  | "no_signature" // no signature line from this key (name and key id)
  | "bad_signature"; // the signature line from this key does not verify

export type CheckpointVerification =
  | { status: "valid"; origin: string; treeSize: number; rootHash: Uint8Array }
  | { status: "invalid"; reason: CheckpointInvalidReason };

export type NoteVerification =
  | { status: "valid"; text: string }
  | { status: "invalid"; reason: Extract<CheckpointInvalidReason, "malformed_note" | "bad_public_key" | "no_signature" | "bad_signature"> };

/** An ECDSA P-256 public key: a CryptoKey (extractable, so its SPKI can be hashed) or its DER SPKI bytes. */
export type CheckpointPublicKey = CryptoKey | Uint8Array;

// ---------------------------------------------------------------------------------------------------------------
// Body

/** The canonical version 1 body text of a tree head. Throws TypeError on an invalid origin, size or root hash. */
export function formatCheckpointBody(body: CheckpointBody): string {
  if (!isOrigin(body.origin)) throw new TypeError("origin must be 1..255 printable ASCII characters, no space or '+'");
  if (!Number.isSafeInteger(body.treeSize) || body.treeSize < 0) throw new TypeError("treeSize must be a non-negative safe integer");
  if (!(body.rootHash instanceof Uint8Array) || body.rootHash.length !== HASH_SIZE)
    throw new TypeError(`rootHash must be ${HASH_SIZE} bytes`);
  return `${body.origin}\n${body.treeSize}\n${toBase64(body.rootHash)}\n${CHECKPOINT_FORMAT}\n`;
}

/** Parses a version 1 body; null unless `text` is exactly what `formatCheckpointBody` makes. Never throws. */
export function parseCheckpointBody(text: string): CheckpointBody | null {
  const parsed = readBody(text);
  return typeof parsed === "string" ? null : parsed;
}

function readBody(text: unknown): CheckpointBody | "malformed_body" | "unsupported_format" {
  if (typeof text !== "string" || !text.endsWith("\n")) return "malformed_body";
  const lines = text.slice(0, -1).split("\n");
  if (lines.length < 3) return "malformed_body";
  const [origin, size, root, format, ...rest] = lines as [string, string, string, string | undefined, ...string[]];
  if (!isOrigin(origin)) return "malformed_body";
  if (format !== CHECKPOINT_FORMAT) return format?.startsWith("c2pa-manifest-log/checkpoint/") ? "unsupported_format" : "malformed_body";
  if (rest.length > 0 || !/^(0|[1-9][0-9]{0,15})$/.test(size)) return "malformed_body";
  const treeSize = Number(size);
  const rootHash = fromBase64(root);
  if (!Number.isSafeInteger(treeSize) || !rootHash || rootHash.length !== HASH_SIZE) return "malformed_body";
  const body = { origin, treeSize, rootHash };
  return formatCheckpointBody(body) === text ? body : "malformed_body";
}

function isOrigin(value: unknown): value is string {
  return typeof value === "string" && /^[\x21-\x2a\x2c-\x7e]{1,255}$/.test(value);
}

// ---------------------------------------------------------------------------------------------------------------
// Keys

/** Key id of a public key: the first 4 bytes of SHA-256 of its DER SubjectPublicKeyInfo. */
export async function checkpointKeyId(publicKey: CheckpointPublicKey): Promise<Uint8Array> {
  const spki =
    publicKey instanceof Uint8Array ? publicKey : new Uint8Array((await crypto.subtle.exportKey("spki", publicKey)) as ArrayBuffer);
  return new Uint8Array(await crypto.subtle.digest("SHA-256", spki)).slice(0, 4);
}

/**
 * The verifier key text other note tooling takes (e.g. transparency-dev/formats `NewECDSAVerifier`):
 * `<name>+<hex key id>+base64(0x02 || SPKI)`.
 */
export async function checkpointVerifierKey(name: string, publicKey: CheckpointPublicKey): Promise<string> {
  if (!isKeyName(name)) throw new TypeError("key name must be non-empty, with no spaces or '+'");
  const spki =
    publicKey instanceof Uint8Array ? publicKey : new Uint8Array((await crypto.subtle.exportKey("spki", publicKey)) as ArrayBuffer);
  const keyId = await checkpointKeyId(spki);
  return `${name}+${hex(keyId)}+${toBase64(concat(Uint8Array.of(SIGNATURE_TYPE_ECDSA), spki))}`;
}

/** The CryptoKey and SPKI of a verifier key, or null when it is not an ECDSA P-256 public key. Never throws. */
async function resolvePublicKey(publicKey: unknown): Promise<{ key: CryptoKey; spki: Uint8Array } | null> {
  try {
    if (publicKey instanceof Uint8Array) {
      const key = await crypto.subtle.importKey("spki", publicKey, P256, true, ["verify"]);
      return { key, spki: publicKey };
    }
    if (!(publicKey instanceof CryptoKey) || publicKey.type !== "public") return null;
    const algorithm = publicKey.algorithm as { name?: string; namedCurve?: string };
    if (algorithm.name !== "ECDSA" || algorithm.namedCurve !== "P-256") return null;
    return { key: publicKey, spki: new Uint8Array((await crypto.subtle.exportKey("spki", publicKey)) as ArrayBuffer) };
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Signed notes (generic layer: any text, any key name)

/**
 * Signs note text (non-empty, ending in "\n", no control characters other than "\n") as key `name` with id
 * `keyId` (from `checkpointKeyId` of the matching public key): returns text, blank line, signature line.
 * Throws TypeError on invalid arguments; WebCrypto errors (wrong key type) propagate.
 */
export async function signNote(text: string, privateKey: CryptoKey, name: string, keyId: Uint8Array): Promise<string> {
  if (typeof text !== "string" || text.length === 0 || !text.endsWith("\n") || !isNoteText(text))
    throw new TypeError("note text must be non-empty, end in a newline and hold no other control characters");
  if (!isKeyName(name)) throw new TypeError("key name must be non-empty, with no spaces or '+'");
  if (!(keyId instanceof Uint8Array) || keyId.length !== 4) throw new TypeError("keyId must be 4 bytes");
  const algorithm = privateKey.algorithm as { name?: string; namedCurve?: string };
  if (privateKey.type !== "private" || algorithm.name !== "ECDSA" || algorithm.namedCurve !== "P-256")
    throw new TypeError("privateKey must be an ECDSA P-256 private key");
  const raw = new Uint8Array(await crypto.subtle.sign(ECDSA_SIGN, privateKey, new TextEncoder().encode(text)));
  return `${text}\n${SIGNATURE_PREFIX}${name} ${toBase64(concat(keyId, ecdsaRawToDer(raw)))}\n`;
}

/**
 * Verifies a signed note against one key (`name` and public key): valid with the signed text when the first
 * signature line of that key verifies. Lines of other keys are ignored. Never throws.
 */
export async function verifyNote(note: string, key: { name: string; publicKey: CheckpointPublicKey }): Promise<NoteVerification> {
  try {
    const parsed = parseNote(note);
    if (!parsed) return { status: "invalid", reason: "malformed_note" };
    return await checkSignature(parsed, key.name, key.publicKey);
  } catch {
    return { status: "invalid", reason: "malformed_note" };
  }
}

interface ParsedNote {
  text: string;
  signatures: Array<{ name: string; keyId: Uint8Array; signature: Uint8Array }>;
}

function parseNote(note: unknown): ParsedNote | null {
  if (typeof note !== "string" || note.length > MAX_NOTE_LENGTH || !note.endsWith("\n") || !isNoteText(note)) return null;
  const split = note.lastIndexOf("\n\n");
  if (split < 0) return null;
  const text = note.slice(0, split + 1);
  const lines = note.slice(split + 2, -1).split("\n");
  if (lines.length > MAX_SIGNATURE_LINES) return null;
  const signatures: ParsedNote["signatures"] = [];
  for (const line of lines) {
    if (!line.startsWith(SIGNATURE_PREFIX)) return null;
    const rest = line.slice(SIGNATURE_PREFIX.length);
    const space = rest.indexOf(" ");
    if (space < 0) return null;
    const name = rest.slice(0, space);
    const bytes = fromBase64(rest.slice(space + 1));
    if (!isKeyName(name) || !bytes || bytes.length < 5) return null;
    signatures.push({ name, keyId: bytes.slice(0, 4), signature: bytes.slice(4) });
  }
  return { text, signatures };
}

async function checkSignature(note: ParsedNote, name: string, publicKey: unknown): Promise<NoteVerification> {
  const resolved = await resolvePublicKey(publicKey);
  if (!resolved) return { status: "invalid", reason: "bad_public_key" };
  const keyId = await checkpointKeyId(resolved.spki);
  const line = note.signatures.find((s) => s.name === name && equalBytes(s.keyId, keyId));
  if (!line) return { status: "invalid", reason: "no_signature" };
  const raw = ecdsaDerToRaw(line.signature);
  if (!raw) return { status: "invalid", reason: "bad_signature" };
  const ok = await crypto.subtle.verify(ECDSA_SIGN, resolved.key, raw, new TextEncoder().encode(note.text));
  return ok ? { status: "valid", text: note.text } : { status: "invalid", reason: "bad_signature" };
}

/** No control characters other than newline, and no lone UTF-16 surrogates (the text must be valid UTF-8). */
function isNoteText(text: string): boolean {
  return !/[\x00-\x09\x0b-\x1f]/.test(text) && !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

/** Signed-note key names: non-empty, no Unicode spaces, no "+". */
function isKeyName(name: unknown): name is string {
  return typeof name === "string" && name.length > 0 && !/[\s\u0085+]/.test(name) && isNoteText(name);
}

// ---------------------------------------------------------------------------------------------------------------
// Checkpoints

/**
 * Signs a tree head: the version 1 body, signed as key `origin` with `keyId` (`checkpointKeyId` of the matching
 * public key). Returns the whole checkpoint note. Throws TypeError on an invalid body or key.
 */
export async function signCheckpoint(body: CheckpointBody, privateKey: CryptoKey, keyId: Uint8Array): Promise<string> {
  return signNote(formatCheckpointBody(body), privateKey, body.origin, keyId);
}

/**
 * Verifies a checkpoint note: a canonical version 1 body, signed by `publicKey` under the key name = its origin
 * (and, with `options.origin`, of that log). Never throws.
 */
export async function verifyCheckpoint(
  note: string,
  publicKey: CheckpointPublicKey,
  options: { origin?: string } = {},
): Promise<CheckpointVerification> {
  try {
    const parsed = parseNote(note);
    if (!parsed) return { status: "invalid", reason: "malformed_note" };
    const body = readBody(parsed.text);
    if (typeof body === "string") return { status: "invalid", reason: body };
    if (options.origin !== undefined && body.origin !== options.origin) return { status: "invalid", reason: "origin_mismatch" };
    const signature = await checkSignature(parsed, body.origin, publicKey);
    if (signature.status !== "valid") return signature;
    return { status: "valid", origin: body.origin, treeSize: body.treeSize, rootHash: body.rootHash };
  } catch {
    return { status: "invalid", reason: "malformed_note" };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// ECDSA signature encodings: WebCrypto uses r || s (32 bytes each for P-256); the note format uses DER.

/** DER SEQUENCE { INTEGER r, INTEGER s } of a 64-byte r || s signature. */
function ecdsaRawToDer(raw: Uint8Array): Uint8Array {
  const integer = (value: Uint8Array) => {
    let start = 0;
    while (start < value.length - 1 && value[start] === 0) start++;
    const digits = value.subarray(start);
    const content = digits[0]! & 0x80 ? concat(Uint8Array.of(0), digits) : digits;
    return concat(Uint8Array.of(0x02, content.length), content);
  };
  const body = concat(integer(raw.subarray(0, 32)), integer(raw.subarray(32, 64)));
  return concat(Uint8Array.of(0x30, body.length), body);
}

/** 64-byte r || s of a strictly DER-encoded P-256 signature; null for anything else. */
function ecdsaDerToRaw(der: Uint8Array): Uint8Array | null {
  if (der.length < 8 || der[0] !== 0x30 || der[1] !== der.length - 2) return null;
  const raw = new Uint8Array(64);
  let at = 2;
  for (const offset of [0, 32]) {
    if (der[at] !== 0x02) return null;
    const length = der[at + 1]!;
    const content = der.subarray(at + 2, at + 2 + length);
    if (length === 0 || length > 33 || content.length !== length) return null;
    if (content[0]! & 0x80) return null; // negative
    if (length > 1 && content[0] === 0 && !(content[1]! & 0x80)) return null; // not minimal
    const digits = content[0] === 0 && length > 1 ? content.subarray(1) : content;
    if (digits.length > 32) return null;
    raw.set(digits, offset + 32 - digits.length);
    at += 2 + length;
  }
  return at === der.length ? raw : null;
}

// ---------------------------------------------------------------------------------------------------------------
// Bytes

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** Strict standard base64 with padding; null unless `text` is the canonical encoding of some bytes. */
function fromBase64(text: string): Uint8Array | null {
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) return null;
  try {
    const binary = atob(text);
    const out = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return toBase64(out) === text ? out : null;
  } catch {
    return null;
  }
}
