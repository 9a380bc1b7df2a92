import { indexOfBytes } from "./byte-search";
import { readTlv as tlv } from "./der";
import type { ExtractManifestStoreResult, ManifestStoreCarrier } from "./jumbf-box";
import { pemBlocks } from "./tsa-der";

/*
 * The engine parses every trust anchor of its settings on every read (52 with the bundled C2PA trust list), and
 * that costs more than the trust check itself. An anchor can only take part in a check when its subject is the
 * issuer of a certificate of a chain the engine checks (c2pa-rs matches `issuer == anchor.subject`, then verifies
 * the signature with the anchor's key), and every chain it checks (each manifest's x5chain, each timestamp
 * token's certificates) is DER inside the manifest store. So an anchor whose subject Name (its exact DER bytes)
 * occurs nowhere in the store cannot change the verdict, and is left out of that read's settings.
 */

/** A trust bundle split once per isolate: each anchor's PEM block and the DER of its subject Name. */
interface ParsedAnchors {
  anchors: { pem: string; subject: Uint8Array | null }[];
}

/** Bounded: one entry per distinct trust bundle (a deployment has one or two). */
const parsedBundles = new Map<string, ParsedAnchors>();
const BUNDLES_MAX = 8;

/**
 * Carriers our extraction reads exactly as the engine does (one store, contiguous once reassembled). For a store
 * found by scanning (BMFF, RIFF, …) the engine may read another one, so those reads keep every anchor.
 */
const EXACT_CARRIERS = new Set<ManifestStoreCarrier>(["sidecar", "jpeg-app11", "png-cabx"]);

/**
 * The trust anchors (PEM) the engine needs to judge the manifest store `located`, out of `trustAnchorsPem`.
 * Invariant: the engine's verdict with the result equals its verdict with the whole bundle: every anchor whose
 * subject Name occurs in the store is kept (and any anchor that does not parse), the whole bundle is returned
 * when the store is not located exactly (see EXACT_CARRIERS), and at least one anchor is always kept (with no
 * anchor at all the engine skips its chain checks and reports other codes).
 */
export function anchorsForStore(trustAnchorsPem: string | null, located: ExtractManifestStoreResult | null): string | null {
  if (!trustAnchorsPem || located?.status !== "ok" || !EXACT_CARRIERS.has(located.carrier)) return trustAnchorsPem;
  const parsed = parseBundle(trustAnchorsPem);
  if (!parsed) return trustAnchorsPem;
  const kept = parsed.anchors.filter((a) => a.subject === null || indexOfBytes(located.store, a.subject) >= 0);
  if (kept.length === parsed.anchors.length) return trustAnchorsPem;
  return `${(kept.length > 0 ? kept : parsed.anchors.slice(0, 1)).map((a) => a.pem).join("\n")}\n`;
}

/** Null when the bundle holds anything but certificate blocks and text (then it is passed on whole, as written). */
function parseBundle(pem: string): ParsedAnchors | null {
  const cached = parsedBundles.get(pem);
  if (cached) return cached;
  try {
    return parseNewBundle(pem);
  } catch {
    return null; // not base64 inside: the engine judges such a bundle itself
  }
}

function parseNewBundle(pem: string): ParsedAnchors | null {
  const blocks = [...pem.matchAll(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g)].map((m) => m[0]);
  // Text between blocks (the trust list's "Subject ..." lines) is ignored by PEM readers; another kind of block is not.
  if (blocks.length === 0 || pem.replace(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g, "").includes("-----"))
    return null;
  const anchors = blocks.map((block) => {
    const der = pemBlocks(block, "CERTIFICATE")[0];
    return { pem: block, subject: der ? subjectNameDer(der) : null };
  });
  if (parsedBundles.size >= BUNDLES_MAX) parsedBundles.delete(parsedBundles.keys().next().value!);
  const entry = { anchors };
  parsedBundles.set(pem, entry);
  return entry;
}

/**
 * The exact DER of a certificate's subject Name (TBSCertificate: [0] version?, serial, signature, issuer,
 * validity, subject), or null when the bytes are not shaped so.
 */
export function subjectNameDer(der: Uint8Array): Uint8Array | null {
  const cert = tlv(der, 0, der.length);
  if (cert?.tag !== 0x30) return null;
  const tbs = tlv(der, cert.start, cert.end);
  if (tbs?.tag !== 0x30) return null;
  let at = tbs.start;
  let field = tlv(der, at, tbs.end);
  if (field?.tag === 0xa0) {
    at = field.end;
    field = tlv(der, at, tbs.end);
  }
  // serial, signature algorithm, issuer, validity: then the subject.
  for (const tag of [0x02, 0x30, 0x30, 0x30]) {
    if (field?.tag !== tag) return null;
    at = field.end;
    field = tlv(der, at, tbs.end);
  }
  return field?.tag === 0x30 ? der.subarray(at, field.end) : null;
}
