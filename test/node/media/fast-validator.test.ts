/**
 * The fast validator (src/media/c2pa/fast-validator.ts) against the engine: over the stores this service signs
 * (plans, assertions, timestamps, dev chains, images, anchors) verifyManifest with the fast path deep-equals
 * verifyManifest with the engine alone; over deterministic mutations of signed files the fast path either defers
 * or gives exactly the engine's verification. FAST_VALIDATOR_FUZZ=<n> runs n mutations per file instead of the
 * default (a bigger run by hand).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type DevPki, mintDevPki } from "../../../src/dev/pki";
import { devTsa } from "../../../src/dev/tsa";
import { DIGITAL_SOURCE_TYPES } from "../../../src/jobs/schemas";
import { initC2paEngine } from "../../../src/media/c2pa/engine";
import { fastVerifyJpeg } from "../../../src/media/c2pa/fast-validator";
import { parseJumbf } from "../../../src/media/c2pa/jumbf-box";
import { extractManifestStore, jpegManifestStoreInstances } from "../../../src/media/c2pa/jumbf-carriers";
import { C2paSigner } from "../../../src/media/c2pa/signer";
import { anchorsForStore } from "../../../src/media/c2pa/trust-anchors";
import { pemBlocks } from "../../../src/media/c2pa/tsa-der";
import { installDevTsa } from "../../../src/media/c2pa/tsa-dev-port";
import { verifyManifest } from "../../../src/media/c2pa/verifier";
import { SOFT_BINDING_LABEL, softBindingAssertions } from "../../../src/media/soft-binding";
import type { ManifestPlan } from "../../../src/media/types";
import { C2PA_TRUST_LIST_PEM } from "../../../src/verifications/trust/c2pa-trust-list";

const require = createRequire(import.meta.url);
const FIXTURES = join(import.meta.dirname, "..", "..", "fixtures");
const image = (name: string) => new Uint8Array(readFileSync(join(FIXTURES, name)));
const IMAGES = ["media/sample.jpg", "media/sample-1mp.jpg", "media/photo-bridge.jpg"];

const capture = {
  capture_admission_id: "cad_abcdefghijklmnop",
  provider_class: "apple_app_attest" as const,
  verifier_version: "capture-1",
  decided_at: "2026-01-01T00:00:00Z",
  media_sha256: "b".repeat(64),
};
const creator = { creator_ref: "cr_0123456789", commitment: "a".repeat(64) };
const PLANS: ManifestPlan[] = [
  { title: "opened.jpg", media_type: "image/jpeg", intent: { kind: "opened" }, assertions: [] },
  {
    title: "made.jpg",
    media_type: "image/jpeg",
    intent: { kind: "created", digital_source_type: "trainedAlgorithmicMedia" },
    assertions: [],
    creator,
  },
  {
    title: "camera.jpg",
    media_type: "image/jpeg",
    intent: { kind: "created", digital_source_type: "digitalCapture" },
    assertions: [],
    capture,
  },
  { title: "both.jpg", media_type: "image/jpeg", intent: { kind: "opened" }, assertions: [], creator, capture },
  {
    title: "composite.jpg",
    media_type: "image/jpeg",
    intent: { kind: "created", digital_source_type: "compositeWithTrainedAlgorithmicMedia" },
    assertions: [{ label: "c2pa.training-mining", data: { entries: { "c2pa.ai_training": { use: "notAllowed" } } } }],
  },
  {
    title: "odd creator.jpg",
    media_type: "image/jpeg",
    intent: { kind: "opened" },
    assertions: [],
    creator: { creator_ref: "x".repeat(80), commitment: "z" },
  },
  // as a watermark or express job signs (#19): a soft binding per watermark and fingerprint
  {
    title: "express.jpg",
    media_type: "image/jpeg",
    intent: { kind: "opened" },
    assertions: softBindingAssertions([
      { algorithm: "watermark.svc-wm-tiledss-1", bits: Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]) },
      { algorithm: "iscc-image", bits: new Uint8Array(8).fill(0x86) },
      { algorithm: "pdq", bits: new Uint8Array(32).fill(0xcf) },
    ]),
    creator,
  },
];

/** A plan whose extra assertions (if any) are all of a form the fast path reads: the soft bindings. */
const fastForm = (plan: ManifestPlan) => plan.assertions.every((a) => a.label === SOFT_BINDING_LABEL);

let pki: DevPki;
let otherPki: DevPki;
let oldPki: DevPki;
let es384: DevPki;
let ocspPki: DevPki;
const signers: Record<string, C2paSigner> = {};

function signerOf(p: DevPki, timestamp: boolean): C2paSigner {
  return new C2paSigner({
    certChainPem: p.signerChainPem,
    privateKey: p.signerKeyPkcs8Pem,
    tsa: timestamp ? { kind: "internal", chainPem: p.tsaChainPem, keyPkcs8Pem: p.tsaKeyPkcs8Pem } : null,
  });
}

beforeAll(async () => {
  // Node compiles wasm from bytes (workerd cannot; there the engine comes from a module import).
  const { compile } = WebAssembly as unknown as { compile(bytes: Uint8Array): Promise<WebAssembly.Module> };
  initC2paEngine(await compile(readFileSync(require.resolve("@contentauth/c2pa-wasm/c2pa.wasm"))));
  installDevTsa(devTsa);
  [pki, otherPki, oldPki, es384, ocspPki] = await Promise.all([
    mintDevPki(),
    mintDevPki(),
    mintDevPki({ now: new Date(Date.now() - 400 * 24 * 3_600_000) }),
    mintDevPki({ algorithm: "ES384" }),
    mintDevPki({ ocspUrl: "http://svc.test/dev/ocsp" }),
  ]);
  signers.timed = signerOf(pki, true);
  signers.untimed = signerOf(pki, false);
  signers.expired = signerOf(oldPki, true);
  signers.es384 = signerOf(es384, true);
  signers.other = signerOf(otherPki, true);
  signers.ocsp = signerOf(ocspPki, true);
}, 60_000);

const bundle = () => `${pki.rootCertPem.trim()}\n${C2PA_TRUST_LIST_PEM.trim()}\n`;

async function sign(signer: C2paSigner, bytes: Uint8Array, plan: ManifestPlan): Promise<Uint8Array> {
  const result = await signer.signEmbedded({ bytes, plan });
  if (result.status !== "signed") throw new Error(JSON.stringify(result));
  return result.bytes;
}

/** Both paths of verifyManifest on the same file; the fast validator's own verdict too. */
async function both(bytes: Uint8Array, anchors: string | null, mediaType = "image/jpeg") {
  const fast = await verifyManifest({ bytes, mediaType }, anchors, () => undefined);
  const engine = await verifyManifest({ bytes, mediaType }, anchors, () => undefined, { fastValidator: false });
  const located = extractManifestStore(bytes, mediaType);
  const own = anchors
    ? await fastVerifyJpeg(bytes, anchorsForStore(anchors, located)!)
    : { status: "defer" as const, reason: "no anchors" };
  return { fast, engine, own };
}

describe("fast validator: differential against the engine", () => {
  it("judges every store this service signs exactly as the engine does (and judges the common ones itself)", async () => {
    let verified = 0;
    let compared = 0;
    for (const name of IMAGES) {
      for (const plan of PLANS) {
        for (const kind of ["timed", "untimed"]) {
          const signed = await sign(signers[kind]!, image(name), plan);
          for (const anchors of [bundle(), pki.rootCertPem, otherPki.rootCertPem, null]) {
            const { fast, engine, own } = await both(signed, anchors);
            expect(fast, `${name} ${plan.title} ${kind}`).toStrictEqual(engine);
            compared++;
            if (own.status === "verified") verified++;
            // The dev chain under its own root: the form the fast path exists for (an extra assertion of the plan, such
            // as c2pa.training-mining, is a form it does not read: the engine judges it).
            if (anchors !== null && anchors !== otherPki.rootCertPem && fastForm(plan))
              expect(own.status, `${name} ${plan.title} ${kind}: ${"reason" in own ? own.reason : ""}`).toBe("verified");
            else expect(own.status).toBe("defer");
          }
        }
      }
    }
    expect(compared).toBe(IMAGES.length * PLANS.length * 2 * 4);
    expect(verified).toBe(IMAGES.length * PLANS.filter(fastForm).length * 2 * 2);
  }, 300_000);

  it("judges each digital source type the service declares as the engine does; defers one it does not declare", async () => {
    for (const type of [...DIGITAL_SOURCE_TYPES, "digitalCapture", "minorHumanEdits"]) {
      const plan: ManifestPlan = {
        title: `${type}.jpg`,
        media_type: "image/jpeg",
        intent: { kind: "created", digital_source_type: type },
        assertions: [],
      };
      const signed = await sign(signers.timed!, image("media/sample.jpg"), plan);
      const { fast, engine, own } = await both(signed, bundle());
      expect(fast, type).toStrictEqual(engine);
      expect(own.status, type).toBe(type === "minorHumanEdits" ? "defer" : "verified");
    }
  }, 120_000);

  it("judges a signer certificate naming an OCSP responder as the engine does (the engine fetches nothing)", async () => {
    for (const plan of PLANS.slice(0, 4)) {
      const signed = await sign(signers.ocsp!, image("media/sample-1mp.jpg"), plan);
      for (const anchors of [`${ocspPki.rootCertPem.trim()}\n${C2PA_TRUST_LIST_PEM.trim()}\n`, pki.rootCertPem]) {
        const { fast, engine, own } = await both(signed, anchors);
        expect(fast, plan.title).toStrictEqual(engine);
        expect(own.status, plan.title).toBe(anchors === pki.rootCertPem ? "defer" : "verified");
      }
    }
  }, 120_000);

  it("defers expired, ES384 and other-root chains, other media types, and stores with a parent manifest; the engine decides alike", async () => {
    const plan = PLANS[0]!;
    const bytes = image("media/sample-1mp.jpg");
    for (const [kind, anchors] of [
      ["expired", `${oldPki.rootCertPem}${pki.rootCertPem}`],
      ["es384", `${es384.rootCertPem}${pki.rootCertPem}`],
      ["other", pki.rootCertPem],
    ] as const) {
      const signed = await sign(signers[kind]!, bytes, plan);
      const { fast, engine, own } = await both(signed, anchors);
      expect(own.status, kind).toBe("defer");
      expect(fast, kind).toStrictEqual(engine);
    }
    // A signed JPEG named as another type; a file whose parent carried a manifest; public C2PA files.
    const signed = await sign(signers.timed!, bytes, plan);
    const named = await both(signed, bundle(), "image/png");
    expect(named.fast).toStrictEqual(named.engine);
    const resigned = await sign(signers.timed!, signed, plan);
    const chain = await both(resigned, bundle());
    expect(chain.own.status).toBe("defer");
    expect(chain.fast).toStrictEqual(chain.engine);
    for (const name of ["c2pa/adobe-20220124-CA.jpg", "c2pa/cloud.jpg", "c2pa/no_alg.jpg"]) {
      const r = await both(image(name), bundle());
      expect(r.own.status, name).toBe("defer");
      expect(r.fast, name).toStrictEqual(r.engine);
    }
  }, 120_000);
});

/** Deterministic PRNG (mulberry32). */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Byte ranges of a signed file worth mutating: the claim, each assertion, the signature, certificates, token, image data. */
function regions(bytes: Uint8Array, p: DevPki): Record<string, [number, number]> {
  const [instance] = jpegManifestStoreInstances(bytes);
  const segments = instance!.segments;
  const [first] = segments;
  const storeStart = first![0] + 12; // the store's first bytes follow the first packet's prefix
  const located = extractManifestStore(bytes, "image/jpeg");
  if (located.status !== "ok") throw new Error("not located");
  const parsed = parseJumbf(located.store);
  if (parsed.status !== "ok") throw new Error("not parsed");
  const out: Record<string, [number, number]> = {};
  // Store offsets map to file offsets directly only inside the first packet; the test stores fit one (< 64 KB).
  if (segments.length !== 1) throw new Error("test stores fit one APP11 packet");
  const manifest = parsed.root.children.find((c) => c.kind === "superbox")!;
  if (manifest.kind !== "superbox") throw new Error("manifest");
  for (const part of manifest.children) {
    if (part.kind !== "superbox") continue;
    out[part.description.label!] = [storeStart + part.offset, storeStart + part.offset + part.length];
    if (part.description.label === "c2pa.assertions")
      for (const a of part.children)
        if (a.kind === "superbox") out[a.description.label!] = [storeStart + a.offset, storeStart + a.offset + a.length];
  }
  const find = (needle: Uint8Array, name: string) => {
    const at = Buffer.from(bytes).indexOf(Buffer.from(needle));
    if (at >= 0) out[name] = [at, at + needle.length];
  };
  find(pemBlocks(p.signerChainPem, "CERTIFICATE")[0]!, "signer certificate");
  find(pemBlocks(p.signerChainPem, "CERTIFICATE")[1]!, "intermediate certificate");
  find(pemBlocks(p.tsaChainPem, "CERTIFICATE")[0]!, "TSA certificate");
  const token = Buffer.from(bytes).indexOf(Buffer.from("tstTokens"));
  if (token >= 0) out["timestamp token"] = [token, token + 1500];
  out["APP11 header"] = [first![0], first![0] + 28];
  out.before = [2, first![0]];
  out["image data"] = [segments[segments.length - 1]![1], bytes.length];
  return out;
}

function mutate(bytes: Uint8Array, r: () => number, region: [number, number], kind: number): Uint8Array {
  const at = region[0] + Math.floor(r() * (region[1] - region[0]));
  const out = bytes.slice();
  switch (kind) {
    case 0: // one bit
      out[at]! ^= 1 << Math.floor(r() * 8);
      return out;
    case 1: // one byte
      out[at] = Math.floor(r() * 256);
      return out;
    case 2: {
      // a box length (the low byte of the LBox a region starts with), or any byte, nudged by one
      const p = r() < 0.5 ? Math.min(region[0] + 3, out.length - 1) : at;
      out[p] = (out[p]! + (r() < 0.5 ? 1 : 255)) & 0xff;
      return out;
    }
    case 3: // truncation
      return bytes.slice(0, at);
    case 4: // a byte inserted
      return Uint8Array.from([...bytes.subarray(0, at), Math.floor(r() * 256), ...bytes.subarray(at)]);
    default: // a byte removed
      return Uint8Array.from([...bytes.subarray(0, at), ...bytes.subarray(at + 1)]);
  }
}

describe("fast validator: mutation fuzz", () => {
  it("defers or agrees exactly with the engine on every mutation of signed files", async () => {
    const perFile = Number(process.env.FAST_VALIDATOR_FUZZ ?? 70);
    const files: [Uint8Array, DevPki][] = [
      [await sign(signers.timed!, image("media/sample-1mp.jpg"), PLANS[0]!), pki],
      [await sign(signers.timed!, image("media/sample.jpg"), PLANS[3]!), pki],
      [await sign(signers.untimed!, image("media/photo-bridge.jpg"), PLANS[1]!), pki],
      [await sign(signers.timed!, image("media/photo-bridge.jpg"), PLANS[4]!), pki],
      [await sign(signers.ocsp!, image("media/sample-1mp.jpg"), PLANS[2]!), ocspPki],
      [await sign(signers.timed!, image("media/sample-1mp.jpg"), PLANS.find((p) => p.title === "express.jpg")!), pki],
    ];
    const anchors = `${ocspPki.rootCertPem.trim()}\n${bundle()}`;
    let deferred = 0;
    let agreed = 0;
    const agreedIn: string[] = [];
    const r = rng(19);
    for (const [file, p] of files) {
      const named = Object.entries(regions(file, p));
      for (let i = 0; i < perFile; i++) {
        const [, region] = named[i % named.length]!;
        const mutated = mutate(file, r, region, Math.floor(r() * 6));
        const located = extractManifestStore(mutated, "image/jpeg");
        const own = located.status === "ok" ? await fastVerifyJpeg(mutated, anchorsForStore(anchors, located)!) : null;
        if (own?.status !== "verified") {
          deferred++;
          continue;
        }
        const { fast, engine } = await both(mutated, anchors);
        expect(fast, `mutation ${i} in ${named[i % named.length]![0]}`).toStrictEqual(engine);
        agreed++;
        agreedIn.push(named[i % named.length]![0]);
      }
      // Whole-file mutations: a duplicate store, the store moved after the image, and anchors that cannot vouch.
      const [instance] = jpegManifestStoreInstances(file);
      const [s, e] = instance!.segments[0]!;
      const twice = Uint8Array.from([...file.subarray(0, e), ...file.subarray(s, e), ...file.subarray(e)]);
      const moved = Uint8Array.from([...file.subarray(0, s), ...file.subarray(e, file.length - 2), ...file.subarray(s, e), 0xff, 0xd9]);
      for (const [bytes, a] of [
        [twice, anchors],
        [moved, anchors],
        [file, otherPki.rootCertPem],
        [file, `${otherPki.rootCertPem}${es384.rootCertPem}`],
      ] as const) {
        const { fast, engine, own } = await both(bytes, a);
        expect(own.status).toBe("defer");
        expect(fast).toStrictEqual(engine);
        deferred++;
      }
    }
    console.log(`fast validator fuzz: ${deferred} deferred, ${agreed} verified and equal to the engine (${agreedIn.join(", ")})`);
    expect(deferred + agreed).toBeGreaterThanOrEqual(files.length * perFile);
  }, 600_000);
});
