/**
 * Conformance suite for any `Signer` (src/media/types.ts). It checks the interface's invariants with the
 * reference c2pa-rs reader (@contentauth/c2pa-node), never with the signer's own engine:
 * - a `signed` embedded result validates from its bytes alone as Trusted against the given trust anchors, with
 *   the reported active manifest label, and with a validated, trusted timestamp when one is expected;
 * - a `signed` sidecar result returns the input bytes unchanged, and its manifest store validates with them;
 * - a changed byte of the signed asset (or of the sidecar's asset) is caught;
 * - the input bytes are never modified;
 * - nothing throws: unknown media types, garbage and empty input yield a result variant.
 */
import { Reader } from "@contentauth/c2pa-node";
import { describe, expect, it } from "vitest";
import type { ManifestPlan, Signer, SignResult } from "../../src/media/types";

export interface ConformanceSample {
  name: string;
  mediaType: string;
  bytes: Uint8Array;
}

export interface SignerConformanceOptions {
  /** Suite title. */
  name: string;
  createSigner: () => Promise<Signer>;
  /** PEM bundle the reference reader trusts (the signer's root CA). */
  trustAnchorsPem: () => string;
  /** Samples of media types the signer embeds into (each must be in `embeddedMediaTypes`). */
  embedded: () => ConformanceSample[];
  /** Samples for sidecar signing (any bytes), used when `signer.sidecar` is true. */
  sidecar: () => ConformanceSample[];
  /** Whether signed manifests must carry a validated, trusted RFC 3161 timestamp. */
  expectTimestamp: boolean;
}

/** What the reference reader reports for the active manifest. */
export interface ReferenceVerdict {
  state: string;
  activeLabel: string | undefined;
  success: string[];
  informational: string[];
  failure: string[];
  /** The manifest store as c2pa-node's JSON. */
  store: any;
}

/** Reference-reader settings: trust only `trustAnchorsPem`, no network. */
export function referenceSettings(trustAnchorsPem: string): string {
  return JSON.stringify({
    verify: { verify_trust: true, verify_timestamp_trust: true, remote_manifest_fetch: false, ocsp_fetch: false },
    trust: { trust_anchors: trustAnchorsPem },
  });
}

/** Reads embedded (`manifestStore` absent) or sidecar manifests with c2pa-node. */
export async function referenceVerdict(
  trustAnchorsPem: string,
  mediaType: string,
  bytes: Uint8Array,
  manifestStore?: Uint8Array,
): Promise<ReferenceVerdict> {
  const asset = { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), mimeType: mediaType };
  const settings = referenceSettings(trustAnchorsPem);
  const reader = manifestStore
    ? await Reader.fromManifestDataAndAsset(Buffer.from(manifestStore), asset, settings)
    : await Reader.fromAsset(asset, settings);
  if (!reader) throw new Error("reference reader found no manifest");
  const store = reader.json() as any;
  const codes = (kind: string): string[] => (store.validation_results?.activeManifest?.[kind] ?? []).map((c: { code: string }) => c.code);
  return {
    state: store.validation_state,
    activeLabel: store.active_manifest,
    success: codes("success"),
    informational: codes("informational"),
    failure: codes("failure"),
    store,
  };
}

/**
 * Flips one bit inside the original media data of a signed file (found by content, so outside the manifest), or
 * else outside the manifest store (found verbatim); throws when neither can be located.
 */
export function tamperOriginalData(signed: Uint8Array, original: Uint8Array, manifestStore?: Uint8Array): Uint8Array {
  for (const window of [24, 12]) {
    for (const fraction of [0.7, 0.5, 0.85, 0.3, 0.6, 0.4, 0.2, 0.9]) {
      const start = Math.floor((original.length - window) * fraction);
      const needle = original.subarray(start, start + window);
      const at = indexOf(signed, needle);
      if (at >= 0 && indexOf(signed.subarray(at + 1), needle) < 0) {
        const out = signed.slice();
        out[at + window / 2]! ^= 0x01;
        return out;
      }
    }
  }
  // The handler rewrote the data (PDF): flip a byte in the middle of the larger region outside the manifest.
  const m = manifestStore ? indexOf(signed, manifestStore.subarray(0, 64)) : -1;
  if (m >= 0 && manifestStore) {
    const end = m + manifestStore.length;
    const at = m > signed.length - end ? m >> 1 : end + ((signed.length - end) >> 1);
    const out = signed.slice();
    out[at]! ^= 0x01;
    return out;
  }
  throw new Error("could not locate the original data inside the signed file");
}

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

function openedPlan(sample: ConformanceSample): ManifestPlan {
  return { title: sample.name, media_type: sample.mediaType, intent: { kind: "opened" }, assertions: [] };
}

/** Asserts the reader's verdict for a correctly signed manifest. */
export function expectTrusted(verdict: ReferenceVerdict, result: SignResult & { status: "signed" }, timestamp: boolean) {
  expect(verdict.failure).toEqual([]);
  expect(verdict.state).toBe("Trusted");
  expect(verdict.activeLabel).toBe(result.active_manifest_label);
  expect(verdict.success).toEqual(expect.arrayContaining(["claimSignature.validated", "signingCredential.trusted"]));
  if (timestamp) expect(verdict.success).toEqual(expect.arrayContaining(["timeStamp.validated", "timeStamp.trusted"]));
}

/** Registers the suite (call at module level of a test file). */
export function runSignerConformance(options: SignerConformanceOptions): void {
  describe(`Signer conformance: ${options.name}`, () => {
    it("declares its capabilities", async () => {
      const signer = await options.createSigner();
      expect(Array.isArray(signer.embeddedMediaTypes)).toBe(true);
      expect(typeof signer.sidecar).toBe("boolean");
      for (const sample of options.embedded()) expect(signer.embeddedMediaTypes).toContain(sample.mediaType);
    });

    it("embedded results validate with the reference reader, and tampering is caught", async () => {
      const signer = await options.createSigner();
      for (const sample of options.embedded()) {
        const input = sample.bytes.slice();
        const result = await signer.signEmbedded({ bytes: input, plan: openedPlan(sample) });
        expect(result.status, `${sample.name}: ${JSON.stringify(result)}`).toBe("signed");
        if (result.status !== "signed") continue;
        expect(input, `${sample.name}: input modified`).toEqual(sample.bytes);
        expect(result.active_manifest_label).toMatch(/^urn:c2pa:/);
        expect(result.manifest_store.length).toBeGreaterThan(0);
        expectTrusted(await referenceVerdict(options.trustAnchorsPem(), sample.mediaType, result.bytes), result, options.expectTimestamp);

        // (Not just any byte: the COSE unprotected header, e.g. its padding, is legitimately unsigned.)
        const tampered = tamperOriginalData(result.bytes, sample.bytes, result.manifest_store);
        const caught = await referenceVerdict(options.trustAnchorsPem(), sample.mediaType, tampered).then(
          (v) => v.state === "Invalid" && v.failure.length > 0,
          () => true, // unreadable counts as caught
        );
        expect(caught, `${sample.name}: tampering not caught`).toBe(true);
      }
    });

    it("sidecar results keep the bytes and validate with them, and tampering is caught", async () => {
      const signer = await options.createSigner();
      if (!signer.sidecar) return;
      for (const sample of options.sidecar()) {
        const input = sample.bytes.slice();
        const result = await signer.signSidecar({ bytes: input, plan: openedPlan(sample) });
        expect(result.status, `${sample.name}: ${JSON.stringify(result)}`).toBe("signed");
        if (result.status !== "signed") continue;
        expect(result.bytes, `${sample.name}: sidecar changed the asset`).toEqual(sample.bytes);
        expect(input).toEqual(sample.bytes);
        const verdict = await referenceVerdict(options.trustAnchorsPem(), sample.mediaType, result.bytes, result.manifest_store);
        expectTrusted(verdict, result, options.expectTimestamp);

        const tampered = result.bytes.slice();
        tampered[tampered.length >> 1]! ^= 0x01;
        const after = await referenceVerdict(options.trustAnchorsPem(), sample.mediaType, tampered, result.manifest_store);
        expect(after.state).toBe("Invalid");
        expect(
          after.failure.some((c) => /^assertion\.(data|bmff|box)Hash\.mismatch$/.test(c)),
          after.failure.join(),
        ).toBe(true);
      }
    });

    it("never throws: unknown types, garbage and empty input yield a result variant", async () => {
      const signer = await options.createSigner();
      const plan = (mediaType: string): ManifestPlan => ({
        title: "x",
        media_type: mediaType,
        intent: { kind: "opened" },
        assertions: [],
      });
      const garbage = crypto.getRandomValues(new Uint8Array(4096));

      const unknown = await signer.signEmbedded({ bytes: garbage, plan: plan("application/x-not-a-format") });
      expect(unknown.status).toBe("unsupported_media_type");

      for (const mediaType of signer.embeddedMediaTypes) {
        for (const bytes of [garbage, new Uint8Array(0)]) {
          const result = await signer.signEmbedded({ bytes, plan: plan(mediaType) });
          expect(["failed", "unsupported_media_type"], `${mediaType}: ${JSON.stringify(result).slice(0, 200)}`).toContain(result.status);
          if (result.status !== "signed") expect(typeof result.message).toBe("string");
        }
      }
    });
  });
}
