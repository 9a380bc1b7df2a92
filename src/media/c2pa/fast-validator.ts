/*
 * Our own validator for the manifest stores this service writes into JPEGs (#19): a file whose store is exactly of
 * that form and verifies completely (claim signature, every assertion hash, the data hash over the file, the
 * RFC 3161 timestamp, both certificate chains to a trust anchor, the certificate profiles, validity at the
 * timestamp's time and now) is judged here, without the c2pa-wasm engine, and gets the engine's reading of it: a
 * Trusted store with the engine's success codes in the engine's order. Anything else (another form, any failure,
 * any doubt) is deferred to the engine, so this path is never more lenient than the engine and never reports a
 * failure of its own.
 *
 * Exactness rests on strictness: every structure is checked to be byte for byte the canonical form the engine
 * writes (JUMBF boxes rebuilt from their parts, CBOR re-encoded in its preferred serialization, the JPEG APP11
 * packets rebuilt from the store, the COSE protected header rebuilt from its certificates), so what we parse is
 * what any reader parses. Templates are narrow allowlists (keys, labels, extensions); what they do not name defers.
 * test/node/media/fast-validator.*.test.ts compare every verdict with the engine's (differential and mutations).
 */
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { base64, concatBytes, equalBytes, hex } from "../../platform/bytes";
import { type CborItem, decodeCbor, isCborTag } from "../../platform/cbor";
import { type CborValue, encodeCbor } from "../../platform/cbor-encode";
import { indexOfBytes } from "./byte-search";
import { protectedHeaderBytes, sigStructure, sigTst2Data } from "./cose";
import { childrenOf, compareEncodings, contentOf, encodingOf, generalizedTime, oidText, readTlv, type Tlv, utcTime } from "./der";
import { rawEcdsaSignature } from "./integrity";
import { type JumbfBox, type JumbfSuperbox, parseJumbf } from "./jumbf-box";
import { jpegManifestStoreInstances } from "./jumbf-carriers";
import { OID_AUTHORITY_INFO_ACCESS, OID_EXT_KEY_USAGE, OID_KEY_EC, OID_KEY_USAGE } from "./ocsp-der";
import { issuedBy } from "./ocsp-verify";
import { type SignerSummary, signerSummaryFromCose } from "./signer-summary";
import { subjectNameDer } from "./trust-anchors";
import { OID_CONTENT_TYPE, OID_MESSAGE_DIGEST, OID_SHA256, OID_SIGNED_DATA, OID_SIGNING_TIME, OID_TST_INFO, pemBlocks } from "./tsa-der";

/** The engine's json() of a store, as far as the verifier reads it (verifier.ts StoreJson). */
export interface FastStoreJson {
  active_manifest: string;
  validation_state: "Trusted";
  validation_results: { activeManifest: Record<"success" | "informational" | "failure", { code: string }[]> };
  manifests: Record<
    string,
    {
      claim_generator_info: { name: string; version: string }[];
      ingredients: Record<string, unknown>[];
      assertions: { label: string; data: unknown }[];
      signature_info: { time?: string };
    }
  >;
}

export type FastVerdict = { status: "verified"; store: FastStoreJson; signer: SignerSummary } | { status: "defer"; reason: string };

const defer = (reason: string): FastVerdict => ({ status: "defer", reason });

class Defer extends Error {}
/** Throws the deferral (caught once in fastVerifyJpeg): keeps each check one line. */
function need(condition: unknown, reason: string): asserts condition {
  if (!condition) throw new Defer(reason);
}

/** The OIDs this validator reads; those other readers share come from their DER modules. */
const OID = {
  ecPublicKey: OID_KEY_EC,
  p256: "1.2.840.10045.3.1.7",
  p384: "1.3.132.0.34",
  ecdsaSha256: "1.2.840.10045.4.3.2",
  ecdsaSha384: "1.2.840.10045.4.3.3",
  sha256: OID_SHA256,
  basicConstraints: "2.5.29.19",
  keyUsage: OID_KEY_USAGE,
  extKeyUsage: OID_EXT_KEY_USAGE,
  subjectKeyId: "2.5.29.14",
  authorityKeyId: "2.5.29.35",
  authorityInfoAccess: OID_AUTHORITY_INFO_ACCESS,
  emailProtection: "1.3.6.1.5.5.7.3.4",
  documentSigning: "1.3.6.1.5.5.7.3.36",
  timeStamping: "1.3.6.1.5.5.7.3.8",
  contentType: OID_CONTENT_TYPE,
  messageDigest: OID_MESSAGE_DIGEST,
  signingTime: OID_SIGNING_TIME,
  signingCertificateV2: "1.2.840.113549.1.9.16.2.47",
} as const;

/**
 * The largest store this path judges. Ours hold two short certificate chains, a timestamp token and at most five
 * small assertions (tens of KiB); the margin covers long customer-given texts.
 */
const MAX_STORE_BYTES = 256 * 1024;

const JUMBF_UUID_SUFFIX = [0x00, 0x11, 0x00, 0x10, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71];
const TEXT = new TextEncoder();

/**
 * Judges a JPEG's manifest store, or defers. `anchorsPem` is what the engine would be given (anchorsForStore).
 * Invariant: never throws; `verified` only for a store every check of this file passed.
 */
export async function fastVerifyJpeg(bytes: Uint8Array, anchorsPem: string, now = Date.now()): Promise<FastVerdict> {
  try {
    return await verify(bytes, anchorsPem, now);
  } catch (error) {
    if (error instanceof Defer) return defer(error.message);
    return defer(`fast validator: ${String((error as Error)?.message ?? error)}`);
  }
}

async function verify(bytes: Uint8Array, anchorsPem: string, now: number): Promise<FastVerdict> {
  // The carrier: exactly one store, in APP11 packets rebuilt byte for byte, and no other APP11 segment.
  need(bytes.length > 4 && bytes[0] === 0xff && bytes[1] === 0xd8, "not a JPEG");
  const instances = jpegManifestStoreInstances(bytes);
  need(instances.length === 1, "not exactly one store instance");
  const instance = instances[0]!;
  need(instance.store.status === "ok", "store not reassembled");
  const store = instance.store.store;
  // Before anything copies or rebuilds it: a store larger than any we write is not ours (a crafted 16 MB store
  // made this path cost several times the engine's read before deferring to it).
  need(store.length <= MAX_STORE_BYTES, "store larger than the stores this service writes");
  const [excludedStart, excludedEnd] = checkApp11Packets(bytes, instance.segments, store);
  need(headerSegmentsPlain(bytes, instance.segments), "another APP11 segment, a provenance reference, or an odd marker walk");
  need(indexOfBytes(store, TEXT.encode("c2pa.time-stamp")) < 0, "a timestamp assertion label");

  // The store: one manifest with its assertion store, claim v2 and signature, in canonical JUMBF.
  const parsed = parseJumbf(store);
  need(parsed.status === "ok", "JUMBF");
  const root = parsed.root;
  need(root.description.label === "c2pa" && root.description.contentType === "c2pa", "store box");
  const manifests = superboxes(root);
  need(manifests.length === 1 && root.children.length === 1, "not one manifest");
  const manifest = manifests[0]!;
  const label = manifest.description.label ?? "";
  need(/^urn:c2pa:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(label), "manifest label");
  need(manifest.description.contentType === "c2ma", "manifest type");
  const parts = superboxes(manifest);
  need(parts.length === 3 && manifest.children.length === 3, "manifest parts");
  const [assertionStore, claimBox, signatureBox] = parts as [JumbfSuperbox, JumbfSuperbox, JumbfSuperbox];
  need(assertionStore.description.label === "c2pa.assertions" && assertionStore.description.contentType === "c2as", "assertion store");
  need(claimBox.description.label === "c2pa.claim.v2" && claimBox.description.contentType === "c2cl", "claim box");
  need(signatureBox.description.label === "c2pa.signature" && signatureBox.description.contentType === "c2cs", "signature box");
  // The shape first (cheap), then the whole store byte for byte in canonical form (a rebuild per nesting level).
  need(equalBytes(canonicalJumbf(root, store), store), "JUMBF not canonical");
  const claimBytes = onlyCbor(claimBox);
  const coseBytes = onlyCbor(signatureBox);

  // The claim.
  const claim = canonicalCbor(claimBytes);
  need(claim instanceof Map, "claim");
  need(
    keysWithin(claim, ["instanceID", "claim_generator_info", "signature", "created_assertions", "gathered_assertions", "dc:title", "alg"]),
    "claim keys",
  );
  need(typeof claim.get("instanceID") === "string", "instanceID");
  need(claim.get("alg") === "sha256", "claim alg");
  need(claim.get("signature") === `self#jumbf=/c2pa/${label}/c2pa.signature`, "signature reference");
  need(!claim.has("dc:title") || typeof claim.get("dc:title") === "string", "title");
  const info = claim.get("claim_generator_info");
  need(info instanceof Map && keysWithin(info, ["name", "version", "org.contentauth.c2pa_rs"]), "claim_generator_info");
  need([...info.values()].every((v) => typeof v === "string") && typeof info.get("name") === "string", "claim_generator_info values");
  const created = hashedUris(claim.get("created_assertions"));
  const gathered = claim.has("gathered_assertions") ? hashedUris(claim.get("gathered_assertions")) : [];
  // As the signer writes them: the actions and the hard binding created; the ingredient and ours gathered.
  const named = (list: { url: string }[]) => list.map((r) => r.url.replace("self#jumbf=c2pa.assertions/", ""));
  need(named(created).join() === "c2pa.actions.v2,c2pa.hash.data", "created assertions");
  need(
    named(gathered).every((l) => ["c2pa.ingredient.v3", "svc.creator", "svc.capture"].includes(l) || softBindingInstance(l) !== null),
    "gathered assertions",
  );
  // The soft bindings (media/soft-binding.ts: one per watermark or fingerprint), labelled as the signer numbers
  // repeated labels: the first bare, then `__1`, `__2`, … in claim order.
  need(
    named(gathered)
      .map(softBindingInstance)
      .filter((n) => n !== null)
      .every((n, i) => n === i),
    "soft-binding instances",
  );
  const refs = [...created, ...gathered];

  // Every assertion box is referenced once, in order of the claim; each hashes to what the claim says.
  const boxes = superboxes(assertionStore);
  need(boxes.length === refs.length && assertionStore.children.length === boxes.length, "assertions not all referenced");
  const byLabel = new Map<string, JumbfSuperbox>();
  for (const box of boxes) {
    const l = box.description.label ?? "";
    need(!byLabel.has(l) && box.description.contentType === "cbor", "assertion box");
    byLabel.set(l, box);
  }
  const assertions = new Map<string, CborItem>();
  const hashes = new Map<string, Uint8Array>();
  for (const ref of refs) {
    const m = /^self#jumbf=c2pa\.assertions\/([a-z0-9._-]+)$/.exec(ref.url);
    need(m && !assertions.has(m[1]!), "assertion reference");
    const box = byLabel.get(m[1]!);
    need(box, "referenced assertion missing");
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", store.subarray(box.offset + 8, box.offset + box.length)));
    need(equalBytes(digest, ref.hash), "assertion hash");
    assertions.set(m[1]!, canonicalCbor(onlyCbor(box)));
    hashes.set(m[1]!, ref.hash);
  }
  const labels = [...assertions.keys()];
  need(
    labels.every((l) => ASSERTION_LABELS.has(l) || softBindingInstance(l) !== null),
    "an assertion this validator does not read",
  );
  need(
    labels.filter((l) => l === "c2pa.actions.v2").length === 1 && labels.filter((l) => l === "c2pa.hash.data").length === 1,
    "actions / hash",
  );

  // The hard binding: one exclusion, exactly the store's APP11 packets, and the file's SHA-256 around it.
  const binding = assertions.get("c2pa.hash.data");
  need(binding instanceof Map && keysWithin(binding, ["exclusions", "name", "alg", "hash", "pad"]), "hash.data keys");
  need(binding.get("alg") === "sha256" && typeof binding.get("name") === "string", "hash.data alg");
  const pad = binding.get("pad");
  need(pad instanceof Uint8Array && pad.every((b) => b === 0), "hash.data pad");
  const exclusions = binding.get("exclusions");
  need(Array.isArray(exclusions) && exclusions.length === 1, "exclusions");
  const exclusion = exclusions[0];
  need(exclusion instanceof Map && keysWithin(exclusion, ["start", "length"]) && exclusion.size === 2, "exclusion");
  need(exclusion.get("start") === excludedStart && exclusion.get("length") === excludedEnd - excludedStart, "exclusion range");
  const expected = binding.get("hash");
  need(expected instanceof Uint8Array && expected.length === 32, "hash.data hash");
  const outside = new Uint8Array(bytes.length - (excludedEnd - excludedStart));
  outside.set(bytes.subarray(0, excludedStart));
  outside.set(bytes.subarray(excludedEnd), excludedStart);
  need(equalBytes(new Uint8Array(await crypto.subtle.digest("SHA-256", outside)), expected), "data hash");

  // Actions, ingredient and our own assertions.
  const ingredients = checkActions(assertions, hashes);
  const jsonAssertions: { label: string; data: unknown }[] = [];
  for (const [l, value] of assertions) {
    if (l === "c2pa.hash.data" || l === "c2pa.ingredient.v3") continue;
    if (l === "svc.creator" || l === "svc.capture") {
      need(value instanceof Map && [...value].every(([k, v]) => typeof k === "string" && typeof v === "string"), `${l} form`);
    }
    if (softBindingInstance(l) !== null) {
      checkSoftBinding(value);
      // json() names every instance by the bare label (the instance number beside it, which no reader of ours reads)
      jsonAssertions.push({ label: SOFT_BINDING_LABEL, data: toJson(value) });
      continue;
    }
    jsonAssertions.push({ label: l, data: toJson(value) });
  }

  // The claim signature: ES256 over the claim, with the canonical protected header of its two certificates.
  const cose = canonicalCbor(coseBytes);
  need(isCborTag(cose) && cose.tag === 18 && Array.isArray(cose.value) && cose.value.length === 4, "COSE_Sign1");
  const [protectedBytes, unprotected, payload, signature] = cose.value;
  need(protectedBytes instanceof Uint8Array && unprotected instanceof Map && payload === null, "COSE parts");
  need(signature instanceof Uint8Array && signature.length === 64, "ES256 signature size");
  const header = canonicalCbor(protectedBytes);
  need(header instanceof Map && header.size === 2 && header.get(1) === -7, "COSE alg");
  const x5chain = header.get(33);
  need(Array.isArray(x5chain) && x5chain.length === 2 && x5chain.every((c) => c instanceof Uint8Array), "x5chain");
  const chainDer = x5chain as Uint8Array[];
  need(equalBytes(protectedHeaderBytes("ES256", chainDer), protectedBytes), "protected header not canonical");
  need(keysWithin(unprotected, ["sigTst2", "pad", "pad2"]), "unprotected header");
  for (const k of ["pad", "pad2"]) {
    const p = unprotected.get(k);
    need(p === undefined || (p instanceof Uint8Array && p.every((b) => b === 0)), "COSE pad");
  }
  const leaf = await certificate(chainDer[0]!);
  const intermediate = await certificate(chainDer[1]!);
  const key = await publicKey(leaf);
  need(
    await crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, key, signature, sigStructure(protectedBytes, claimBytes)),
    "claim signature",
  );

  // The timestamp (sigTst2, one token over the signature), then both chains at its time and now.
  let genTime: number | null = null;
  const codes: string[] = [];
  const tst2 = unprotected.get("sigTst2");
  if (tst2 !== undefined) {
    need(tst2 instanceof Map && tst2.size === 1, "sigTst2");
    const tokens = tst2.get("tstTokens");
    need(Array.isArray(tokens) && tokens.length === 1, "one token");
    const token = tokens[0];
    need(token instanceof Map && token.size === 1 && token.get("val") instanceof Uint8Array, "token");
    genTime = await checkTimestamp(token.get("val") as Uint8Array, sigTst2Data(protectedBytes, signature), anchorsPem, now);
    codes.push("timeStamp.validated", "timeStamp.trusted");
  }
  const times = genTime === null ? [now] : [genTime, now];
  checkSignerProfile(leaf.cert);
  checkCaProfile(intermediate.cert);
  for (const t of times) for (const c of [leaf, intermediate]) need(within(c.cert, t), "certificate validity");
  await checkAnchored(leaf, intermediate, anchorsPem, times);
  codes.push("signingCredential.trusted", "claimSignature.insideValidity", "claimSignature.validated");
  for (let i = 0; i < refs.length; i++) codes.push("assertion.hashedURI.match");
  codes.push("assertion.dataHash.match");

  const time = genTime === null ? undefined : `${new Date(genTime).toISOString().slice(0, 19)}+00:00`;
  const signer = signerSummaryFromCose(coseBytes, time ?? null);
  need(signer, "signer summary");
  const generator: { name: string; version: string } = { name: info.get("name") as string, version: info.get("version") as string };
  if (!info.has("version")) delete (generator as { version?: string }).version;
  return {
    status: "verified",
    signer,
    store: {
      active_manifest: label,
      validation_state: "Trusted",
      validation_results: {
        activeManifest: {
          success: codes.map((code) => ({ code })),
          informational: [{ code: "signingCredential.ocsp.skipped" }],
          failure: [],
        },
      },
      manifests: {
        [label]: {
          claim_generator_info: [generator],
          ingredients,
          assertions: jsonAssertions,
          signature_info: time ? { time } : {},
        },
      },
    },
  };
}

const SOFT_BINDING_LABEL = "c2pa.soft-binding";

/** A soft-binding assertion's instance number from its box label (0 for the bare label), or null for another label. */
function softBindingInstance(label: string): number | null {
  if (label === SOFT_BINDING_LABEL) return 0;
  const m = /^c2pa\.soft-binding__([1-9][0-9]{0,2})$/.exec(label);
  return m ? Number(m[1]) : null;
}

/**
 * Exactly the form the signer writes (media/soft-binding.ts): an algorithm name, one block for the whole asset (an
 * empty scope) whose value is base64 text, and an empty pad. The engine checks no more of it than its parse, so
 * anything else defers rather than risk rendering it otherwise.
 */
function checkSoftBinding(value: CborItem) {
  need(value instanceof Map && value.size === 3 && keysWithin(value, ["alg", "blocks", "pad"]), "soft-binding keys");
  const alg = value.get("alg");
  need(typeof alg === "string" && /^[A-Za-z0-9._-]{1,64}$/.test(alg), "soft-binding alg");
  const pad = value.get("pad");
  // an empty array as the signer writes it (json() renders it, or empty bytes, as [])
  need((Array.isArray(pad) || pad instanceof Uint8Array) && pad.length === 0, "soft-binding pad");
  const blocks = value.get("blocks");
  need(Array.isArray(blocks) && blocks.length === 1, "soft-binding blocks");
  const block = blocks[0];
  need(block instanceof Map && block.size === 2 && keysWithin(block, ["scope", "value"]), "soft-binding block");
  const scope = block.get("scope");
  need(scope instanceof Map && scope.size === 0, "soft-binding scope");
  const text = block.get("value");
  need(typeof text === "string" && /^[A-Za-z0-9+/]{1,172}={0,2}$/.test(text), "soft-binding value");
}

/** Assertions this validator reads (their forms are checked below); any other label defers. */
const ASSERTION_LABELS = new Set(["c2pa.actions.v2", "c2pa.hash.data", "c2pa.ingredient.v3", "svc.creator", "svc.capture"]);
/** The digital source types the service's plans declare (src/jobs/schemas.ts), each compared with the engine in the tests. */
const SOURCE_TYPES = new Set(
  [
    "trainedAlgorithmicMedia",
    "compositeWithTrainedAlgorithmicMedia",
    "algorithmicMedia",
    "compositeSynthetic",
    "digitalCreation",
    "digitalCapture",
  ].map((t) => `http://cv.iptc.org/newscodes/digitalsourcetype/${t}`),
);

/**
 * The signer's actions: one `c2pa.created` with a digital source type and no ingredient, or one `c2pa.opened` of the
 * single parentOf ingredient (declared without a manifest) it references. Returns the ingredients as json() has them.
 */
function checkActions(assertions: Map<string, CborItem>, hashes: Map<string, Uint8Array>): Record<string, unknown>[] {
  const actions = assertions.get("c2pa.actions.v2");
  need(actions instanceof Map && actions.size === 1 && Array.isArray(actions.get("actions")), "actions");
  const list = actions.get("actions") as CborItem[];
  need(list.length === 1 && list[0] instanceof Map, "one action");
  const action = list[0] as Map<CborItem, CborItem>;
  const ingredient = assertions.get("c2pa.ingredient.v3");
  if (action.get("action") === "c2pa.created") {
    need(action.size === 2 && typeof action.get("digitalSourceType") === "string", "created action");
    need(SOURCE_TYPES.has(action.get("digitalSourceType") as string), "digital source type");
    need(ingredient === undefined, "an ingredient of a created asset");
    return [];
  }
  need(action.get("action") === "c2pa.opened" && action.size === 2, "opened action");
  const params = action.get("parameters");
  need(params instanceof Map && params.size === 1, "opened parameters");
  const refs = hashedUris(params.get("ingredients"));
  need(refs.length === 1 && refs[0]!.url === "self#jumbf=c2pa.assertions/c2pa.ingredient.v3", "opened ingredient");
  const hash = hashes.get("c2pa.ingredient.v3");
  need(hash && equalBytes(hash, refs[0]!.hash), "opened ingredient hash");
  need(ingredient instanceof Map && keysWithin(ingredient, ["dc:title", "dc:format", "instanceID", "relationship"]), "ingredient keys");
  need(ingredient.get("relationship") === "parentOf", "ingredient relationship");
  need(
    [...ingredient.values()].every((v) => typeof v === "string"),
    "ingredient values",
  );
  // json() names them title, format, instance_id; only the absence of validation fields matters to the verifier.
  return [{ relationship: "parentOf", label: "c2pa.ingredient.v3" }];
}

function hashedUris(list: CborItem): { url: string; hash: Uint8Array }[] {
  need(Array.isArray(list) && list.length > 0, "hashed URI list");
  return list.map((item) => {
    need(item instanceof Map && keysWithin(item, ["url", "hash"]) && item.size === 2, "hashed URI");
    const url = item.get("url");
    const hash = item.get("hash");
    need(typeof url === "string" && hash instanceof Uint8Array && hash.length === 32, "hashed URI fields");
    return { url, hash };
  });
}

function keysWithin(map: Map<CborItem, CborItem>, allowed: readonly string[]): boolean {
  for (const k of map.keys()) if (typeof k !== "string" || !allowed.includes(k)) return false;
  return true;
}

/** CBOR as json() renders it (serde): maps → objects, byte strings → arrays of numbers. */
function toJson(item: CborItem): unknown {
  if (item instanceof Map) return Object.fromEntries([...item].map(([k, v]) => [String(k), toJson(v)]));
  if (Array.isArray(item)) return item.map(toJson);
  if (item instanceof Uint8Array) return Array.from(item);
  return item;
}

/** The item, only when `bytes` is its preferred (shortest-form, definite-length) encoding and nothing exotic. */
function canonicalCbor(bytes: Uint8Array): CborItem {
  const decoded = decodeCbor(bytes);
  need(decoded.status === "ok", "CBOR");
  need(equalBytes(encodeCbor(toValue(decoded.value)), bytes), "CBOR not canonical");
  return decoded.value;
}

function toValue(item: CborItem): CborValue {
  if (item === null || typeof item === "string" || item instanceof Uint8Array) return item;
  if (typeof item === "number") {
    need(Number.isSafeInteger(item), "CBOR number");
    return item;
  }
  if (Array.isArray(item)) return item.map(toValue);
  if (item instanceof Map) return { map: [...item].map(([k, v]) => [toValue(k), toValue(v)] as [CborValue, CborValue]) };
  need(isCborTag(item) && typeof item.tag === "number", "CBOR item");
  return { tag: item.tag, value: toValue(item.value) };
}

// ---------------------------------------------------------------------------------------------------------------
// JUMBF and the JPEG carrier

function superboxes(box: JumbfSuperbox): JumbfSuperbox[] {
  return box.children.filter((c): c is JumbfSuperbox => c.kind === "superbox");
}

/** The single `cbor` content box of an assertion, claim or signature superbox. */
function onlyCbor(box: JumbfSuperbox): Uint8Array {
  const c = box.children;
  need(c.length === 1 && c[0]!.kind === "content" && c[0]!.type === "cbor", `${box.description.label}: one CBOR box`);
  return c[0]!.payload;
}

/**
 * The store as c2pa-rs writes it: 32-bit lengths, descriptions with a label (toggles 3), assertions' with a label
 * and a private `c2sh` salt box of 16 bytes (toggles 0x13).
 */
function canonicalJumbf(box: JumbfBox, store: Uint8Array): Uint8Array {
  if (box.kind === "content") return boxBytes(box.type, box.payload);
  const d = box.description;
  need(d.contentType !== null && d.label !== null && (d.toggles === 3 || d.toggles === 0x13), "description");
  const uuid = new Uint8Array(16);
  uuid.set(TEXT.encode(d.contentType).subarray(0, 4));
  uuid.set(JUMBF_UUID_SUFFIX, 4);
  const parts = [uuid, Uint8Array.of(d.toggles), TEXT.encode(d.label), Uint8Array.of(0)];
  if (d.toggles === 0x13) {
    // The salt box, copied from where it must sit: right after the label, ending the description box.
    const at = box.offset + 8 + 8 + 17 + TEXT.encode(d.label).length + 1;
    need(at + 24 <= store.length, "salt box");
    parts.push(boxBytes("c2sh", store.subarray(at + 8, at + 24)));
  }
  const description = boxBytes("jumd", concatBytes(parts));
  return boxBytes("jumb", concatBytes([description, ...box.children.map((c) => canonicalJumbf(c, store))]));
}

function boxBytes(type: string, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(8 + payload.length);
  new DataView(out.buffer).setUint32(0, out.length);
  out.set(TEXT.encode(type), 4);
  out.set(payload, 8);
  return out;
}

/**
 * The APP11 packets of the store, contiguous, each `FFEB Lp "JP" En Z` with one En, Z = 1, 2, … and every packet
 * after the first repeating the store's box header, their payloads exactly the store. Returns the excluded range.
 */
function checkApp11Packets(b: Uint8Array, segments: [number, number][], store: Uint8Array): [number, number] {
  need(
    segments.length > 0 && store.length >= 8 && new DataView(store.buffer, store.byteOffset, 4).getUint32(0) === store.length,
    "segments",
  );
  const en = (b[segments[0]![0] + 6]! << 8) | b[segments[0]![0] + 7]!;
  const parts: Uint8Array[] = [];
  let previous = segments[0]![0];
  for (const [i, [s, e]] of segments.entries()) {
    need(s === previous && e - s >= 20, "segments not contiguous");
    previous = e;
    need(b[s] === 0xff && b[s + 1] === 0xeb && ((b[s + 2]! << 8) | b[s + 3]!) === e - s - 2, "APP11 header");
    need(b[s + 4] === 0x4a && b[s + 5] === 0x50 && ((b[s + 6]! << 8) | b[s + 7]!) === en, "APP11 CI/En");
    need(new DataView(b.buffer, b.byteOffset + s + 8, 4).getUint32(0) === i + 1, "APP11 sequence");
    if (i > 0) need(equalBytes(b.subarray(s + 12, s + 20), store.subarray(0, 8)), "APP11 repeated box header");
    parts.push(b.subarray(i === 0 ? s + 12 : s + 20, e));
  }
  need(equalBytes(concatBytes(parts), store), "APP11 payloads");
  return [segments[0]![0], previous];
}

/**
 * The JPEG's marker segments up to the first scan: the store's packets are all among them, no other segment is
 * APP11, and no APP1 (XMP) mentions `provenance` (a remote manifest reference, which the engine weighs itself).
 */
function headerSegmentsPlain(b: Uint8Array, store: [number, number][]): boolean {
  const ours = new Set(store.map(([s]) => s));
  let seen = 0;
  let pos = 2;
  while (pos + 4 <= b.length) {
    if (b[pos] !== 0xff) return false;
    const marker = b[pos + 1]!;
    if (marker === 0xda) return seen === ours.size;
    if (marker === 0xff || marker === 0x00 || marker === 0x01 || marker === 0xd8 || marker === 0xd9 || (marker >= 0xd0 && marker <= 0xd7))
      return false;
    const length = (b[pos + 2]! << 8) | b[pos + 3]!;
    if (length < 2 || pos + 2 + length > b.length) return false;
    if (marker === 0xeb) {
      if (!ours.has(pos)) return false;
      seen++;
    }
    if (marker === 0xe1 && indexOfBytes(b.subarray(pos, pos + 2 + length), PROVENANCE) >= 0) return false;
    pos += 2 + length;
  }
  return false;
}

const PROVENANCE = TEXT.encode("provenance");

// ---------------------------------------------------------------------------------------------------------------
// Certificates and the timestamp

/** SigningCertificateV2 { certs SEQUENCE OF ESSCertIDv2 { hashAlgorithm DEFAULT sha256, certHash, … } }: the first certHash. */
function essCertHash(b: Uint8Array): Uint8Array {
  const top = readTlv(b, 0);
  const outer = top?.tag === 0x30 && top.end === b.length ? childrenOf(b, top) : null;
  need(outer && outer.length === 1 && outer[0]!.tag === 0x30, "SigningCertificateV2 form");
  const ids = childrenOf(b, outer[0]!);
  need(ids && ids.length === 1 && ids[0]!.tag === 0x30, "one ESSCertIDv2");
  const id = childrenOf(b, ids[0]!);
  need(id && id.length >= 1 && id[0]!.tag === 0x04 && id.slice(1).every((f) => f.tag === 0x30), "ESSCertIDv2 with the default hash");
  return b.subarray(id[0]!.start, id[0]!.end);
}

/** A certificate whose bytes are exactly its DER re-encoding. */
function parseCertificate(der: Uint8Array): pkijs.Certificate {
  const parsed = asn1js.fromBER(der.slice().buffer as ArrayBuffer);
  need(parsed.offset === der.length, "certificate DER");
  const cert = new pkijs.Certificate({ schema: parsed.result });
  need(equalBytes(new Uint8Array(cert.toSchema(true).toBER(false)), der), "certificate not DER");
  return cert;
}

/** A parsed certificate with its exact bytes, their SHA-256 (hex) and the DER of its issuer Name and serial. */
interface CachedCert {
  cert: pkijs.Certificate;
  der: Uint8Array;
  id: string;
  issuerDer: Uint8Array | null;
  serialDer: Uint8Array | null;
  /** The subject Name's DER: the engine matches issuer to subject by these bytes, not by pkijs isEqual's reading. */
  subjectDer: Uint8Array | null;
}

/**
 * Certificates parsed per isolate: one signer signs many files with the same chain, and parsing with pkijs costs
 * more than the rest of a verification. A pure function of the exact bytes (keyed by their SHA-256); bounded.
 */
const parsedCertificates = new Map<string, CachedCert>();

async function cachedCertificate(der: Uint8Array, parse: (der: Uint8Array) => pkijs.Certificate): Promise<CachedCert> {
  const id = hex(await sha256(der));
  // Per parser: a certificate read leniently (an anchor) has not passed the strict reading of a chain's certificates.
  const key = `${parse === strictCertificate ? "strict" : "anchor"}:${id}`;
  const hit = parsedCertificates.get(key);
  if (hit) return hit;
  const cert = parse(der);
  const copy = der.slice();
  const entry: CachedCert = { cert, der: copy, id, ...issuerAndSerial(copy), subjectDer: subjectNameDer(copy) };
  if (parsedCertificates.size >= 256) parsedCertificates.delete(parsedCertificates.keys().next().value!);
  parsedCertificates.set(key, entry);
  return entry;
}

/** The issuer Name and serial INTEGER encodings of a certificate's TBSCertificate. */
function issuerAndSerial(der: Uint8Array): { issuerDer: Uint8Array | null; serialDer: Uint8Array | null } {
  const top = readTlv(der, 0);
  const tbs = top?.tag === 0x30 ? childrenOf(der, top)?.[0] : undefined;
  const fields = tbs?.tag === 0x30 ? childrenOf(der, tbs) : null;
  if (!fields) return { issuerDer: null, serialDer: null };
  const f = fields[0]?.tag === 0xa0 ? fields.slice(1) : fields;
  if (f[0]?.tag !== 0x02 || f[2]?.tag !== 0x30) return { issuerDer: null, serialDer: null };
  return { issuerDer: encodingOf(der, f[2]), serialDer: encodingOf(der, f[0]) };
}

/** A certificate of a chain we judge: v3, ECDSA-signed, no unique ids, no duplicate extension. */
function certificate(der: Uint8Array): Promise<CachedCert> {
  return cachedCertificate(der, strictCertificate);
}

function strictCertificate(der: Uint8Array): pkijs.Certificate {
  const cert = parseCertificate(der);
  need(cert.version === 2 && !cert.issuerUniqueID && !cert.subjectUniqueID, "certificate version");
  const alg = cert.signatureAlgorithm.algorithmId;
  need((alg === OID.ecdsaSha256 || alg === OID.ecdsaSha384) && cert.signature.algorithmId === alg, "certificate signature algorithm");
  need(cert.signatureAlgorithm.algorithmParams === undefined, "certificate signature parameters");
  const oids = (cert.extensions ?? []).map((e) => e.extnID);
  need(new Set(oids).size === oids.length, "duplicate extension");
  return cert;
}

function extensions(cert: pkijs.Certificate): Map<string, pkijs.Extension> {
  return new Map((cert.extensions ?? []).map((e) => [e.extnID, e]));
}

function ecCurve(cert: pkijs.Certificate): string | null {
  const a = cert.subjectPublicKeyInfo.algorithm;
  return a.algorithmId === OID.ecPublicKey && a.algorithmParams instanceof asn1js.ObjectIdentifier
    ? a.algorithmParams.valueBlock.toString()
    : null;
}

/** keyUsage, critical: its first byte (bit 0 = 0x80 digitalSignature, 0x04 keyCertSign, 0x02 cRLSign). */
function keyUsageByte(ext: Map<string, pkijs.Extension>): number {
  const ku = ext.get(OID.keyUsage);
  need(ku?.critical && ku.parsedValue instanceof asn1js.BitString, "keyUsage");
  const bits = ku.parsedValue.valueBlock.valueHexView;
  need(bits.length === 1, "keyUsage size");
  return bits[0]!;
}

function ekus(ext: Map<string, pkijs.Extension>): string[] {
  const eku = ext.get(OID.extKeyUsage);
  need(eku?.parsedValue instanceof pkijs.ExtKeyUsage, "extKeyUsage");
  return eku.parsedValue.keyPurposes;
}

function onlyExtensions(ext: Map<string, pkijs.Extension>, allowed: string[]): void {
  for (const oid of ext.keys()) need(allowed.includes(oid), `extension ${oid}`);
  need(ext.has(OID.subjectKeyId), "subjectKeyIdentifier");
}

/** The C2PA claim signer's profile, narrowed to the form we issue (P-256, digitalSignature only, our EKUs). */
function checkSignerProfile(cert: pkijs.Certificate): void {
  const ext = extensions(cert);
  // An OCSP location (authorityInfoAccess) is read by the service's own OCSP check, not here; the engine fetches nothing.
  onlyExtensions(ext, [OID.keyUsage, OID.extKeyUsage, OID.subjectKeyId, OID.authorityKeyId, OID.authorityInfoAccess]);
  need(!ext.get(OID.authorityInfoAccess)?.critical, "critical authorityInfoAccess");
  need(ext.has(OID.authorityKeyId) && !cert.issuer.isEqual(cert.subject), "signer issued by a CA");
  need(ecCurve(cert) === OID.p256, "signer key P-256");
  need(keyUsageByte(ext) === 0x80, "signer keyUsage");
  const purposes = ekus(ext);
  need(purposes.length > 0 && purposes.every((p) => p === OID.emailProtection || p === OID.documentSigning), "signer EKU");
  need(new Set(purposes).size === purposes.length, "signer EKU duplicates");
}

function checkTsaProfile(cert: pkijs.Certificate): void {
  const ext = extensions(cert);
  onlyExtensions(ext, [OID.keyUsage, OID.extKeyUsage, OID.subjectKeyId, OID.authorityKeyId]);
  need(ext.has(OID.authorityKeyId) && !cert.issuer.isEqual(cert.subject), "TSA issued by a CA");
  need(ecCurve(cert) === OID.p256, "TSA key P-256");
  need(keyUsageByte(ext) === 0x80, "TSA keyUsage");
  need(ext.get(OID.extKeyUsage)!.critical && ekus(ext).join() === OID.timeStamping, "TSA EKU");
}

/** A CA: basicConstraints critical with cA, keyCertSign, EC key. */
function checkCaProfile(cert: pkijs.Certificate): void {
  const ext = extensions(cert);
  onlyExtensions(ext, [OID.basicConstraints, OID.keyUsage, OID.subjectKeyId, OID.authorityKeyId]);
  const bc = ext.get(OID.basicConstraints);
  need(bc?.critical && bc.parsedValue instanceof pkijs.BasicConstraints && bc.parsedValue.cA === true, "CA basicConstraints");
  need((keyUsageByte(ext) & 0x04) !== 0, "CA keyCertSign");
  const curve = ecCurve(cert);
  need(curve === OID.p256 || curve === OID.p384, "CA key");
}

function within(cert: pkijs.Certificate, t: number): boolean {
  return cert.notBefore.value.getTime() <= t && t <= cert.notAfter.value.getTime();
}

/** Parsed trust bundles, per isolate (a deployment has one or two). */
const anchorBundles = new Map<string, Promise<CachedCert[]>>();

function anchorsOf(pem: string): Promise<CachedCert[]> {
  let anchors = anchorBundles.get(pem);
  if (!anchors) {
    // A bundle with anything but certificates, or one we cannot read whole, is the engine's to judge.
    const blocks = pemBlocks(pem, "CERTIFICATE");
    need(blocks.length === (pem.match(/-----BEGIN /g) ?? []).length, "trust bundle with other blocks");
    // atob also reads base64 without its '=' padding or with stray trailing bits; the engine's settings parser does not.
    const bodies = [...pem.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)];
    need(
      bodies.length === blocks.length && bodies.every((m, i) => m[1]!.replace(/\s+/g, "") === base64(blocks[i]!)),
      "trust bundle base64 not canonical",
    );
    anchors = Promise.all(blocks.map((der) => cachedCertificate(der, parseCertificate)));
    if (anchorBundles.size >= 8) anchorBundles.delete(anchorBundles.keys().next().value!);
    anchorBundles.set(pem, anchors);
    anchors.catch(() => anchorBundles.delete(pem));
  }
  return anchors;
}

/**
 * `leaf` issued by `ca`, `ca` issued by an anchor of the bundle (matched by name, verified by key), that anchor a
 * self-signed CA valid at `times`. Signature results are kept per isolate: a pure function of the exact bytes.
 */
async function checkAnchored(leaf: CachedCert, ca: CachedCert, anchorsPem: string, times: number[]): Promise<void> {
  need(await issuedByCached(leaf, ca), "leaf not issued by its CA");
  for (const anchor of await anchorsOf(anchorsPem)) {
    const a = anchor.cert;
    if (!sameName(anchor.subjectDer, ca.issuerDer)) continue;
    if (!sameName(anchor.subjectDer, anchor.issuerDer) || !times.every((t) => within(a, t))) continue;
    const bc = extensions(a).get(OID.basicConstraints);
    if (!(bc?.parsedValue instanceof pkijs.BasicConstraints && bc.parsedValue.cA === true)) continue;
    if (await issuedByCached(ca, anchor)) return;
  }
  need(false, "no trust anchor issued the chain");
}

const issued = new Map<string, Promise<boolean>>();

/** Name equality as the engine reads it: the exact DER bytes (pkijs isEqual ignores case, spaces and string types). */
function sameName(a: Uint8Array | null, b: Uint8Array | null): boolean {
  return a !== null && b !== null && equalBytes(a, b);
}

function issuedByCached(cert: CachedCert, issuer: CachedCert): Promise<boolean> {
  if (!sameName(cert.issuerDer, issuer.subjectDer)) return Promise.resolve(false);
  const id = `${cert.id}:${issuer.id}`;
  let result = issued.get(id);
  if (!result) {
    result = issuedBy(cert.cert, issuer.cert).then((r) => r === "valid");
    if (issued.size >= 256) issued.delete(issued.keys().next().value!);
    issued.set(id, result);
  }
  return result;
}

const sha256 = async (b: Uint8Array) => new Uint8Array(await crypto.subtle.digest("SHA-256", b));

const keys = new Map<string, Promise<CryptoKey>>();

/** The P-256 public key of a certificate, imported once per isolate. */
function publicKey(c: CachedCert): Promise<CryptoKey> {
  let key = keys.get(c.id);
  if (!key) {
    const spki = new Uint8Array(c.cert.subjectPublicKeyInfo.toSchema().toBER(false));
    key = crypto.subtle.importKey("spki", spki, { name: "ECDSA", namedCurve: "P-256" }, false, ["verify"]);
    if (keys.size >= 256) keys.delete(keys.keys().next().value!);
    keys.set(c.id, key);
    key.catch(() => keys.delete(c.id));
  }
  return key;
}

/**
 * An RFC 3161 token over `data` (RFC 5652 SignedData, read as strict DER): one signer with the TSA profile,
 * chained to an anchor, signed attributes contentType + messageDigest (+ signingTime equal to genTime, signingCertificateV2 naming
 * the TSA certificate), no unsigned attributes or CRLs, a TSTInfo v1 with a SHA-256 imprint of `data` and a
 * whole-second genTime not in the future. Returns genTime (ms).
 */
async function checkTimestamp(token: Uint8Array, data: Uint8Array, anchorsPem: string, now: number): Promise<number> {
  const b = token;
  const kids = (t: Tlv | undefined, tag: number, what: string): Tlv[] => {
    need(t?.tag === tag, what);
    const c = childrenOf(b, t);
    need(c, what);
    return c;
  };
  const top = readTlv(b, 0);
  need(top && top.end === b.length, "token DER");
  const contentInfo = kids(top, 0x30, "ContentInfo");
  need(
    contentInfo.length === 2 && contentInfo[0]!.tag === 0x06 && oidText(contentOf(b, contentInfo[0]!)) === OID_SIGNED_DATA,
    "token type",
  );
  const explicit = kids(contentInfo[1], 0xa0, "content");
  need(explicit.length === 1, "content");
  const sd = kids(explicit[0], 0x30, "SignedData");
  // version, digestAlgorithms, encapContentInfo, [0] certificates, signerInfos: no CRLs.
  need(sd.length === 5 && sd[0]!.tag === 0x02 && sd[3]!.tag === 0xa0, "SignedData fields");
  need(equalBytes(contentOf(b, sd[0]!), Uint8Array.of(3)), "SignedData version");
  const digests = kids(sd[1], 0x31, "digestAlgorithms");
  need(digests.length === 1 && isSha256AlgorithmId(b, digests[0]!), "digestAlgorithms");
  const encap = kids(sd[2], 0x30, "encapContentInfo");
  need(encap.length === 2 && encap[0]!.tag === 0x06 && oidText(contentOf(b, encap[0]!)) === OID_TST_INFO, "eContentType");
  const eContent = kids(encap[1], 0xa0, "eContent");
  need(eContent.length === 1 && eContent[0]!.tag === 0x04, "eContent octets");
  const tstStart = eContent[0]!.start;
  const tstBytes = contentOf(b, eContent[0]!);
  const certs = kids(sd[3], 0xa0, "certificates");
  need(certs.length === 2 && certs.every((c) => c.tag === 0x30), "token certificates");
  const signerInfos = kids(sd[4], 0x31, "signerInfos");
  need(signerInfos.length === 1, "one signer");
  // SignerInfo { version 1, IssuerAndSerialNumber, digestAlgorithm, [0] signedAttrs, signatureAlgorithm, signature }
  const si = kids(signerInfos[0], 0x30, "SignerInfo");
  need(si.length === 6 && si[0]!.tag === 0x02 && equalBytes(contentOf(b, si[0]!), Uint8Array.of(1)), "SignerInfo fields");
  const sid = kids(si[1], 0x30, "sid");
  need(sid.length === 2 && sid[0]!.tag === 0x30 && sid[1]!.tag === 0x02, "IssuerAndSerialNumber");
  need(isSha256AlgorithmId(b, si[2]!), "signer digest algorithm");
  need(si[3]!.tag === 0xa0, "signed attributes");
  const sigAlg = kids(si[4], 0x30, "signatureAlgorithm");
  need(
    sigAlg.length === 1 && sigAlg[0]!.tag === 0x06 && oidText(contentOf(b, sigAlg[0]!)) === OID.ecdsaSha256,
    "token signature algorithm",
  );
  need(si[5]!.tag === 0x04, "token signature");

  // TSTInfo { version 1, policy, messageImprint, serialNumber, genTime, accuracy?, ordering?, nonce?, [0] tsa? }
  const tstTop = readTlv(b, tstStart, eContent[0]!.end);
  need(tstTop?.tag === 0x30 && tstTop.end === eContent[0]!.end, "TSTInfo");
  const tst = kids(tstTop, 0x30, "TSTInfo");
  need(tst.length >= 5 && tst[0]!.tag === 0x02 && equalBytes(contentOf(b, tst[0]!), Uint8Array.of(1)), "TSTInfo version");
  need(tst[1]!.tag === 0x06 && tst[3]!.tag === 0x02 && tst[4]!.tag === 0x18, "TSTInfo fields");
  let order = -1;
  for (const f of tst.slice(5)) {
    const i = [0x30, 0x01, 0x02, 0xa0].indexOf(f.tag);
    need(i > order, "TSTInfo optional fields");
    order = i;
  }
  const imprint = kids(tst[2], 0x30, "messageImprint");
  need(imprint.length === 2 && isSha256AlgorithmId(b, imprint[0]!) && imprint[1]!.tag === 0x04, "imprint algorithm");
  need(equalBytes(contentOf(b, imprint[1]!), await sha256(data)), "imprint");
  const genText = new TextDecoder().decode(contentOf(b, tst[4]!));
  const g = /^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)Z$/.exec(genText);
  need(g, "genTime");
  const [, year, month, day, hour, minute, sec] = g.map(Number) as number[];
  const genTime = Date.UTC(year!, month! - 1, day!, hour!, minute!, sec!);
  need(
    new Date(genTime).toISOString() ===
      `${genText.slice(0, 4)}-${genText.slice(4, 6)}-${genText.slice(6, 8)}T${genText.slice(8, 10)}:${genText.slice(10, 12)}:${genText.slice(12, 14)}.000Z`,
    "genTime value",
  );
  need(genTime <= now, "timestamp in the future");

  // The TSA certificate is the one the sid names; the other is its CA.
  const [first, second] = await Promise.all(certs.map((c) => certificate(encodingOf(b, c))));
  const names = (c: CachedCert) =>
    c.issuerDer && equalBytes(c.issuerDer, encodingOf(b, sid[0]!)) && equalBytes(c.serialDer!, encodingOf(b, sid[1]!));
  const tsa = names(first!) ? first! : second!;
  const ca = tsa === first ? second! : first!;
  need(names(tsa) && !names(ca), "TSA certificate");
  checkTsaProfile(tsa.cert);
  checkCaProfile(ca.cert);
  for (const t of [genTime, now]) for (const c of [tsa, ca]) need(within(c.cert, t), "TSA certificate validity");
  await checkAnchored(tsa, ca, anchorsPem, [genTime, now]);

  const attrs = kids(si[3], 0xa0, "signed attributes");
  // Signed as written, but the engine refuses (timeStamp.untrusted) attributes not in DER SET OF order.
  const encodings = attrs.map((a) => encodingOf(b, a));
  need(
    encodings.every((e, i) => i === 0 || compareEncodings(encodings[i - 1]!, e) <= 0),
    "signed attributes not in DER SET OF order",
  );
  const seen = new Set<string>();
  for (const attr of attrs) {
    const parts = kids(attr, 0x30, "attribute");
    need(parts.length === 2 && parts[0]!.tag === 0x06, "attribute");
    const type = oidText(contentOf(b, parts[0]!)) ?? "";
    const values = kids(parts[1], 0x31, "attribute values");
    need(!seen.has(type) && values.length === 1, "signed attribute");
    seen.add(type);
    const v = values[0]!;
    if (type === OID.contentType) need(v.tag === 0x06 && oidText(contentOf(b, v)) === OID_TST_INFO, "contentType attribute");
    else if (type === OID.messageDigest) need(v.tag === 0x04 && equalBytes(contentOf(b, v), await sha256(tstBytes)), "messageDigest");
    else if (type === OID.signingCertificateV2) need(equalBytes(essCertHash(encodingOf(b, v)), await sha256(tsa.der)), "ESS cert hash");
    else {
      // The engine takes a signingTime as the timestamp's time; ours (dev TSA: UTCTime) says genTime, to the byte.
      need(type === OID.signingTime, `signed attribute ${type}`);
      const at = new Date(genTime);
      const utc = genTime >= Date.UTC(1950, 0, 1) && genTime < Date.UTC(2050, 0, 1) ? utcTime(at) : null;
      need(equalBytes(encodingOf(b, v), generalizedTime(at)) || (utc && equalBytes(encodingOf(b, v), utc)), "signingTime not genTime");
    }
  }
  need(seen.has(OID.contentType) && seen.has(OID.messageDigest), "required signed attributes");
  // What is signed: the attributes' own encoding, retagged as the SET OF (RFC 5652 §5.4).
  const signedAttrs = encodingOf(b, si[3]!).slice();
  signedAttrs[0] = 0x31;
  const raw = rawEcdsaSignature(contentOf(b, si[5]!), 32);
  need(raw, "token signature form");
  const key = await publicKey(tsa);
  need(await crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, key, raw, signedAttrs), "token signature");
  return genTime;
}

/** AlgorithmIdentifier { sha256 } with absent or NULL parameters. */
function isSha256AlgorithmId(b: Uint8Array, t: Tlv): boolean {
  const parts = t.tag === 0x30 ? childrenOf(b, t) : null;
  if (!parts || parts.length < 1 || parts.length > 2 || parts[0]!.tag !== 0x06) return false;
  if (parts.length === 2 && !(parts[1]!.tag === 0x05 && parts[1]!.start === parts[1]!.end)) return false;
  return oidText(contentOf(b, parts[0]!)) === OID.sha256;
}
