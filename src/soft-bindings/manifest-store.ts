import { type JumbfSuperbox, parseJumbf } from "../media/c2pa/jumbf-box";

/*
 * `returnActiveManifest=true` of GET /manifests/{manifestId}: a manifest store holding only the active manifest.
 * Pure: JUMBF boxes are copied byte for byte (the manifest superbox is self-contained: its claim, assertions and
 * signature), only the store superbox around them is rewritten.
 */

/** Content types of a manifest superbox: standard manifest, update manifest. */
const MANIFEST_TYPES = new Set(["c2ma", "c2um"]);

export type ActiveManifestStoreResult =
  | { status: "ok"; store: Uint8Array }
  | { status: "not_found"; message: string }
  | { status: "malformed"; message: string };

function u32(b: Uint8Array, at: number): number {
  return b[at]! * 0x100_0000 + ((b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!);
}

/**
 * The store `store` reduced to its manifest labelled `label` (the store's own description box, then that
 * manifest). A store that holds nothing else is returned as is.
 */
export function activeManifestStore(store: Uint8Array, label: string): ActiveManifestStoreResult {
  const parsed = parseJumbf(store);
  if (parsed.status !== "ok") return { status: "malformed", message: parsed.message };
  const root = parsed.root;
  if (root.description.label !== "c2pa") return { status: "malformed", message: "the JUMBF superbox is not a C2PA manifest store" };
  const manifests = root.children.filter(
    (c): c is JumbfSuperbox => c.kind === "superbox" && c.description.contentType !== null && MANIFEST_TYPES.has(c.description.contentType),
  );
  const active = manifests.find((m) => m.description.label === label);
  if (!active) return { status: "not_found", message: `the manifest store has no manifest labelled ${label}` };
  if (root.children.length === 1) return { status: "ok", store };

  // The store's description box follows its header (8 bytes, or 16 with an XLBox); parseJumbf has checked it.
  const header = u32(store, 0) === 1 ? 16 : 8;
  const descriptionLength = u32(store, header);
  if (descriptionLength < 8 || header + descriptionLength > store.length)
    return { status: "malformed", message: "the store's description box has no usable length" };
  const description = store.subarray(header, header + descriptionLength);
  const manifest = store.subarray(active.offset, active.offset + active.length);
  const total = 8 + description.length + manifest.length;
  const out = new Uint8Array(total);
  out.set([total >>> 24, (total >>> 16) & 255, (total >>> 8) & 255, total & 255, 0x6a, 0x75, 0x6d, 0x62], 0); // LBox, "jumb"
  out.set(description, 8);
  out.set(manifest, 8 + description.length);
  return { status: "ok", store: out };
}
