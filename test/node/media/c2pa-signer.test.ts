/**
 * C2paSigner (c2pa-wasm engine, our COSE signer and dev TSA) checked by the reference reader c2pa-node with the
 * dev root as the only trust anchor: Trusted, timestamp validated and trusted, and tampering caught.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import * as pkijs from "pkijs";
import { beforeAll, describe, expect, it } from "vitest";
import { type DevPki, type DevPkiAlgorithm, mintDevPki } from "../../../src/dev/pki";
import { respondTimestamp } from "../../../src/dev/tsa-responder";
import { buildCoseSign1, protectedHeaderBytes, sigTst2Data } from "../../../src/media/c2pa/cose";
import { c2paEngineMemoryBytes, initC2paEngine } from "../../../src/media/c2pa/engine";
import { C2PA_EMBEDDED_MEDIA_TYPES, C2paSigner, CREATOR_ASSERTION_LABEL } from "../../../src/media/c2pa/signer";
import { buildTimeStampRequest, extractTimeStampToken, requestTimestamp, tsaConfigFrom } from "../../../src/media/c2pa/tsa";
import { installDevTsa } from "../../../src/media/c2pa/tsa-dev-port";
import type { ManifestPlan } from "../../../src/media/types";
import { type CborItem, type CborTag, decodeCbor as decodeCborResult } from "../../../src/platform/cbor";
import { encodeCbor } from "../../../src/platform/cbor-encode";
import {
  type ConformanceSample,
  expectTrusted,
  referenceVerdict,
  runSignerConformance,
  tamperOriginalData,
} from "../../support/signer-conformance";

const require = createRequire(import.meta.url);
const FIXTURES = join(import.meta.dirname, "..", "..", "fixtures", "media");

/** Fixture → media type of every embedded format the signer lists (each must round-trip). */
const EMBEDDED_FIXTURES: [string, string][] = [
  ["sample.jpg", "image/jpeg"],
  ["sample.png", "image/png"],
  ["sample.webp", "image/webp"],
  ["sample.tif", "image/tiff"],
  ["sample.dng", "image/x-adobe-dng"],
  ["sample.gif", "image/gif"],
  ["sample.avif", "image/avif"],
  ["sample.heic", "image/heic"],
  ["sample.heic", "image/heif"],
  ["sample-container.jxl", "image/jxl"],
  ["sample.svg", "image/svg+xml"],
  ["sample.mp4", "video/mp4"],
  ["sample.mov", "video/quicktime"],
  ["sample.avi", "video/x-msvideo"],
  ["sample.m4a", "audio/mp4"],
  ["sample.mp3", "audio/mpeg"],
  ["sample.wav", "audio/wav"],
  ["sample.flac", "audio/flac"],
  ["sample.pdf", "application/pdf"],
];

/** Sidecar cases: formats without embedding, plus embeddable ones (whose bytes must stay unchanged too). */
const SIDECAR_FIXTURES: [string, string][] = [
  ["sample.txt", "text/plain"],
  ["sample.pdf", "application/pdf"],
  ["sample.html", "text/html"],
  ["sample.xml", "application/xml"],
  ["sample.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"],
  ["sample.epub", "application/epub+zip"],
  ["sample.otf", "font/otf"],
  ["sample.npy", "application/x-npy"],
  ["sample.jpg", "image/jpeg"],
  ["sample.wav", "audio/wav"],
  ["sample.mp4", "video/mp4"],
];

/** Strict CBOR decoding (src/platform/cbor.ts, independent of the encoder in cose.ts); throws when malformed. */
function decodeCbor(bytes: Uint8Array): CborItem {
  const result = decodeCborResult(bytes);
  if (result.status !== "ok") throw new Error(`CBOR: ${result.message} at ${result.offset}`);
  return result.value;
}

function sample(name: string, mediaType: string): ConformanceSample {
  return { name, mediaType, bytes: new Uint8Array(readFileSync(join(FIXTURES, name))) };
}

function plan(name: string, mediaType: string, extra: Partial<ManifestPlan> = {}): ManifestPlan {
  return { title: name, media_type: mediaType, intent: { kind: "opened" }, assertions: [], ...extra };
}

const pkis = new Map<DevPkiAlgorithm, DevPki>();

beforeAll(async () => {
  const wasmPath = require.resolve("@contentauth/c2pa-wasm/c2pa.wasm");
  // Node compiles wasm from bytes (workerd cannot; there the engine comes from a module import).
  const { compile } = WebAssembly as unknown as { compile(bytes: Uint8Array): Promise<WebAssembly.Module> };
  initC2paEngine(await compile(readFileSync(wasmPath)));
  installDevTsa(respondTimestamp); // TSA URL "internal" without the app, which installs it in a Worker
  for (const algorithm of ["ES256", "ES384", "Ed25519"] as const) pkis.set(algorithm, await mintDevPki({ algorithm }));
});

function pki(algorithm: DevPkiAlgorithm = "ES256"): DevPki {
  const p = pkis.get(algorithm);
  if (!p) throw new Error("PKI not minted yet");
  return p;
}

function signerFor(algorithm: DevPkiAlgorithm = "ES256", withTsa = true): C2paSigner {
  const p = pki(algorithm);
  return new C2paSigner({
    certChainPem: p.signerChainPem,
    privateKey: p.signerKeyPkcs8Pem,
    tsa: withTsa ? { kind: "internal", chainPem: p.tsaChainPem, keyPkcs8Pem: p.tsaKeyPkcs8Pem } : null,
  });
}

runSignerConformance({
  name: "C2paSigner (c2pa-wasm, ES256, internal TSA)",
  createSigner: async () => signerFor("ES256"),
  trustAnchorsPem: () => pki().rootCertPem,
  embedded: () => EMBEDDED_FIXTURES.map(([name, type]) => sample(name, type)),
  sidecar: () => SIDECAR_FIXTURES.map(([name, type]) => sample(name, type)),
  expectTimestamp: true,
});

describe("C2paSigner with the reference reader", () => {
  it("lists exactly the embedded media types proven here", () => {
    expect([...C2PA_EMBEDDED_MEDIA_TYPES].sort()).toEqual([...new Set(EMBEDDED_FIXTURES.map(([, t]) => t))].sort());
  });

  it.each([
    ["sample.jpg", "image/jpeg", "assertion.dataHash.mismatch"],
    ["sample-1mp.jpg", "image/jpeg", "assertion.dataHash.mismatch"],
    ["sample.png", "image/png", "assertion.dataHash.mismatch"],
    ["sample.mp4", "video/mp4", "assertion.bmffHash.mismatch"],
  ])("%s: Trusted with a validated timestamp; one flipped data byte → %s", async (name, mediaType, mismatch) => {
    const input = sample(name, mediaType);
    const result = await signerFor().signEmbedded({ bytes: input.bytes, plan: plan(name, mediaType) });
    if (result.status !== "signed") throw new Error(JSON.stringify(result));
    const verdict = await referenceVerdict(pki().rootCertPem, mediaType, result.bytes);
    expectTrusted(verdict, result, true);
    expect(verdict.store.manifests[result.active_manifest_label].title).toBe(name);

    const tampered = await referenceVerdict(pki().rootCertPem, mediaType, tamperOriginalData(result.bytes, input.bytes));
    expect(tampered.state).toBe("Invalid");
    expect(tampered.failure).toContain(mismatch);
  });

  it("opened: c2pa.actions.v2 with c2pa.opened bound to a parentOf ingredient; claim generator svc 0.1.0", async () => {
    const result = await signerFor().signEmbedded({ bytes: sample("sample.png", "image/png").bytes, plan: plan("a.png", "image/png") });
    if (result.status !== "signed") throw new Error(JSON.stringify(result));
    const verdict = await referenceVerdict(pki().rootCertPem, "image/png", result.bytes);
    expect(verdict.state).toBe("Trusted");
    const manifest = verdict.store.manifests[result.active_manifest_label];
    const actions = manifest.assertions.find((a: { label: string }) => a.label === "c2pa.actions.v2");
    expect(actions.data.actions[0].action).toBe("c2pa.opened");
    expect(manifest.ingredients).toHaveLength(1);
    expect(manifest.ingredients[0].relationship).toBe("parentOf");
    expect(manifest.claim_generator_info[0]).toMatchObject({ name: "svc", version: "0.1.0" });
    // Thumbnails are off (CPU and memory in workerd).
    expect(manifest.assertions.map((a: { label: string }) => a.label).filter((l: string) => l.includes("thumbnail"))).toEqual([]);
    expect(manifest.thumbnail ?? null).toBeNull();
    expect(manifest.ingredients[0].thumbnail ?? null).toBeNull();
  });

  it("re-signing a signed asset keeps the earlier manifest as the parent ingredient's provenance", async () => {
    const first = await signerFor().signEmbedded({ bytes: sample("sample.jpg", "image/jpeg").bytes, plan: plan("v1.jpg", "image/jpeg") });
    if (first.status !== "signed") throw new Error(JSON.stringify(first));
    const second = await signerFor().signEmbedded({ bytes: first.bytes, plan: plan("v2.jpg", "image/jpeg") });
    if (second.status !== "signed") throw new Error(JSON.stringify(second));
    const verdict = await referenceVerdict(pki().rootCertPem, "image/jpeg", second.bytes);
    expectTrusted(verdict, second, true);
    const parent = verdict.store.manifests[second.active_manifest_label].ingredients[0];
    expect(parent.relationship).toBe("parentOf");
    expect(parent.active_manifest).toBe(first.active_manifest_label);
    expect(Object.keys(verdict.store.manifests)).toHaveLength(2);
  });

  it("created: c2pa.created with the digital source type, no ingredient; extra assertions and the creator reference", async () => {
    const softBinding = {
      alg: "io.iscc.v0",
      blocks: [{ scope: {}, value: "KACYPXW445FTYNJ3" }],
    };
    const result = await signerFor().signEmbedded({
      bytes: sample("sample.jpg", "image/jpeg").bytes,
      plan: plan("gen.jpg", "image/jpeg", {
        intent: { kind: "created", digital_source_type: "trainedAlgorithmicMedia" },
        assertions: [{ label: "c2pa.soft-binding", data: softBinding }],
        creator: { creator_ref: "crref_0123456789abcdef", commitment: "sha256:00ff" },
      }),
    });
    if (result.status !== "signed") throw new Error(JSON.stringify(result));
    const verdict = await referenceVerdict(pki().rootCertPem, "image/jpeg", result.bytes);
    expectTrusted(verdict, result, true);
    const manifest = verdict.store.manifests[result.active_manifest_label];
    const byLabel = (label: string) => manifest.assertions.find((a: { label: string }) => a.label === label);
    const created = byLabel("c2pa.actions.v2").data.actions[0];
    expect(created.action).toBe("c2pa.created");
    expect(created.digitalSourceType).toBe("http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia");
    expect(manifest.ingredients ?? []).toHaveLength(0);
    expect(byLabel("c2pa.soft-binding").data).toMatchObject(softBinding);
    expect(byLabel(CREATOR_ASSERTION_LABEL).data).toEqual({ creator_ref: "crref_0123456789abcdef", commitment: "sha256:00ff" });
  });

  it.each(["ES384", "Ed25519"] as const)("%s signer certificates sign Trusted manifests", async (algorithm) => {
    const signer = signerFor(algorithm);
    expect(signer.algorithm).toBe(algorithm);
    for (const [name, mediaType] of [
      ["sample.jpg", "image/jpeg"],
      ["sample.png", "image/png"],
    ] as const) {
      const result = await signer.signEmbedded({ bytes: sample(name, mediaType).bytes, plan: plan(name, mediaType) });
      if (result.status !== "signed") throw new Error(JSON.stringify(result));
      expectTrusted(await referenceVerdict(pki(algorithm).rootCertPem, mediaType, result.bytes), result, true);
    }
  });

  it("a sidecar for a PDF binds the unchanged file (the PDF handler would rewrite it)", async () => {
    const input = sample("sample.pdf", "application/pdf");
    const result = await signerFor().signSidecar({ bytes: input.bytes, plan: plan("sample.pdf", "application/pdf") });
    if (result.status !== "signed") throw new Error(JSON.stringify(result));
    expect(result.bytes).toBe(input.bytes);
    const verdict = await referenceVerdict(pki().rootCertPem, "application/pdf", input.bytes, result.manifest_store);
    expectTrusted(verdict, result, true);
    expect(verdict.success).toContain("assertion.dataHash.match");
  });

  it("a sidecar never loads the asset into the engine: its memory does not grow with the asset size", async () => {
    const big = new Uint8Array(24 * 1024 * 1024).fill(0x41); // 24 MiB of text
    const signer = signerFor();
    await signer.signSidecar({ bytes: new Uint8Array(100), plan: plan("warm.txt", "text/plain") });
    const before = c2paEngineMemoryBytes();
    const result = await signer.signSidecar({ bytes: big, plan: plan("big.txt", "text/plain") });
    if (result.status !== "signed") throw new Error(JSON.stringify(result));
    expect(c2paEngineMemoryBytes() - before).toBeLessThan(2 * 1024 * 1024);
    expectTrusted(await referenceVerdict(pki().rootCertPem, "text/plain", big, result.manifest_store), result, true);
  });

  it("a sidecar for bytes that already carry a manifest keeps it as the parent's provenance", async () => {
    const first = await signerFor().signEmbedded({ bytes: sample("sample.jpg", "image/jpeg").bytes, plan: plan("v1.jpg", "image/jpeg") });
    if (first.status !== "signed") throw new Error(JSON.stringify(first));
    const sidecar = await signerFor().signSidecar({ bytes: first.bytes, plan: plan("v2.jpg", "image/jpeg") });
    if (sidecar.status !== "signed") throw new Error(JSON.stringify(sidecar));
    expect(sidecar.bytes).toBe(first.bytes);
    const verdict = await referenceVerdict(pki().rootCertPem, "image/jpeg", first.bytes, sidecar.manifest_store);
    expectTrusted(verdict, sidecar, true);
    const parent = verdict.store.manifests[sidecar.active_manifest_label].ingredients[0];
    expect(parent.relationship).toBe("parentOf");
    expect(parent.active_manifest).toBe(first.active_manifest_label);
  });

  it("refuses embedded signing above maxEmbeddedBytes (engine memory), without touching the engine", async () => {
    const p = pki();
    const signer = new C2paSigner({ certChainPem: p.signerChainPem, privateKey: p.signerKeyPkcs8Pem, maxEmbeddedBytes: 1000 });
    const result = await signer.signEmbedded({ bytes: sample("sample.jpg", "image/jpeg").bytes, plan: plan("a.jpg", "image/jpeg") });
    expect(result).toMatchObject({ status: "failed", message: expect.stringMatching(/limit of embedded signing/) });
  });

  it("without a TSA: Trusted, and no timestamp", async () => {
    const result = await signerFor("ES256", false).signEmbedded({
      bytes: sample("sample.jpg", "image/jpeg").bytes,
      plan: plan("sample.jpg", "image/jpeg"),
    });
    if (result.status !== "signed") throw new Error(JSON.stringify(result));
    const verdict = await referenceVerdict(pki().rootCertPem, "image/jpeg", result.bytes);
    expectTrusted(verdict, result, false);
    expect([...verdict.success, ...verdict.informational].some((c) => c.startsWith("timeStamp."))).toBe(false);
  });

  it("another root as trust anchor: Valid but not Trusted", async () => {
    const result = await signerFor().signEmbedded({
      bytes: sample("sample.jpg", "image/jpeg").bytes,
      plan: plan("sample.jpg", "image/jpeg"),
    });
    if (result.status !== "signed") throw new Error(JSON.stringify(result));
    const verdict = await referenceVerdict(pki("ES384").rootCertPem, "image/jpeg", result.bytes);
    expect(verdict.state).not.toBe("Trusted");
    expect(verdict.failure).toContain("signingCredential.untrusted");
  });

  it("a naked JPEG XL codestream cannot embed: unsupported_media_type (a sidecar still works)", async () => {
    const input = sample("sample.jxl", "image/jxl");
    const embedded = await signerFor().signEmbedded({ bytes: input.bytes, plan: plan("sample.jxl", "image/jxl") });
    expect(embedded.status).toBe("unsupported_media_type");
    const sidecar = await signerFor().signSidecar({ bytes: input.bytes, plan: plan("sample.jxl", "image/jxl") });
    if (sidecar.status !== "signed") throw new Error(JSON.stringify(sidecar));
    expectTrusted(await referenceVerdict(pki().rootCertPem, "image/jxl", input.bytes, sidecar.manifest_store), sidecar, true);
  });

  it("an unreachable TSA fails the signing instead of signing without a timestamp", async () => {
    const p = pki();
    const signer = new C2paSigner({
      certChainPem: p.signerChainPem,
      privateKey: p.signerKeyPkcs8Pem,
      tsa: { kind: "remote", url: "http://127.0.0.1:9/tsa", timeoutMs: 2000 },
    });
    const result = await signer.signEmbedded({ bytes: sample("sample.jpg", "image/jpeg").bytes, plan: plan("x.jpg", "image/jpeg") });
    expect(result.status).toBe("failed");
  });

  it("accepts a non-extractable CryptoKey and rejects a key/certificate algorithm mismatch", async () => {
    const p = pki();
    const der = Uint8Array.from(atob(p.signerKeyPkcs8Pem.replace(/-----[^-]+-----|\s/g, "")), (c) => c.charCodeAt(0));
    const key = await crypto.subtle.importKey("pkcs8", der, { name: "ECDSA", namedCurve: "P-256" }, false, ["sign"]);
    const signer = new C2paSigner({ certChainPem: p.signerChainPem, privateKey: key, algorithm: "ES256" });
    const result = await signer.signEmbedded({ bytes: sample("sample.png", "image/png").bytes, plan: plan("k.png", "image/png") });
    if (result.status !== "signed") throw new Error(JSON.stringify(result));
    expectTrusted(await referenceVerdict(p.rootCertPem, "image/png", result.bytes), result, false);
    expect(() => new C2paSigner({ certChainPem: p.signerChainPem, privateKey: key, algorithm: "Ed25519" })).toThrow(
      "C2paSigner: algorithm Ed25519 does not match the ES256 certificate",
    );
  });
});

describe("COSE_Sign1 builder", () => {
  const cert = crypto.getRandomValues(new Uint8Array(400));
  const fakeSignature = async () => new Uint8Array(64).fill(7);

  it("fills every reserve size exactly, including the sizes one pad bstr cannot hit", async () => {
    const payload = new TextEncoder().encode("claim bytes");
    const sizes = [];
    // From the unpadded size (481 bytes here) + 5, across the 1/2-byte bstr head boundary (the one gap)...
    for (let size = 486; size < 800; size++) sizes.push(size);
    for (let size = 65_500; size < 65_600; size++) sizes.push(size); // and the 3/5-byte one
    for (const reserveSize of sizes) {
      const cose = await buildCoseSign1({ algorithm: "ES256", certChainDer: [cert], payload, sign: fakeSignature, reserveSize });
      expect(cose.length).toBe(reserveSize);
      const decoded = decodeCbor(cose) as CborTag;
      expect(decoded.tag).toBe(18);
      const [protectedHeader, unprotected, detached, signature] = decoded.value as [
        Uint8Array,
        Map<string, unknown> | Record<string, unknown>,
        null,
        Uint8Array,
      ];
      expect(new Uint8Array(protectedHeader)).toEqual(protectedHeaderBytes("ES256", [cert]));
      expect(detached).toBeNull();
      expect(new Uint8Array(signature)).toEqual(new Uint8Array(64).fill(7));
      const keys = unprotected instanceof Map ? [...unprotected.keys()] : Object.keys(unprotected);
      expect(keys.every((k) => k === "pad" || k === "pad2")).toBe(true);
    }
  });

  it("refuses a reserve size smaller than the content", async () => {
    const build = buildCoseSign1({
      algorithm: "ES256",
      certChainDer: [cert],
      payload: new Uint8Array(1),
      sign: fakeSignature,
      reserveSize: 100,
    });
    await expect(build).rejects.toThrow(/does not fit/);
  });

  it("encodes the protected header {1: alg, 33: x5chain} and the sigTst2 countersignature data as c2pa-rs does", () => {
    const header = decodeCbor(protectedHeaderBytes("ES384", [cert, cert])) as Map<number, unknown> | Record<number, unknown>;
    const get = (k: number) => (header instanceof Map ? header.get(k) : header[k]);
    expect(get(1)).toBe(-35);
    expect((get(33) as Uint8Array[]).map((c) => new Uint8Array(c))).toEqual([cert, cert]);
    const signature = new Uint8Array([1, 2, 3]);
    const data = decodeCbor(sigTst2Data(new Uint8Array([0xa0]), signature)) as unknown[];
    expect(data[0]).toBe("CounterSignature");
    expect(new Uint8Array(data[3] as Uint8Array)).toEqual(encodeCbor(signature)); // bstr(cbor(bstr(signature)))
  });
});

describe("RFC 3161 client and dev responder", () => {
  const creds = () => ({ chainPem: pki().tsaChainPem, keyPkcs8Pem: pki().tsaKeyPkcs8Pem });
  const data = new TextEncoder().encode("countersignature data");

  it("a request answered by the dev TSA yields a token over the SHA-256 imprint with the request's nonce", async () => {
    const request = await buildTimeStampRequest(data);
    const now = new Date("2030-01-02T03:04:05.678Z");
    const token = extractTimeStampToken(await respondTimestamp(request.der, creds(), now), request);
    const content = pkijs.ContentInfo.fromBER(token);
    const signed = new pkijs.SignedData({ schema: content.content });
    expect(signed.certificates).toHaveLength(2);
    const tstDer = signed.encapContentInfo.eContent!.valueBlock.valueHexView;
    const tst = pkijs.TSTInfo.fromBER(tstDer);
    expect(tst.genTime.toISOString()).toBe("2030-01-02T03:04:05.000Z");
    expect(new Uint8Array(tst.messageImprint.hashedMessage.valueBlock.valueHexView)).toEqual(request.imprint);
    // pkijs checks a TSTInfo token against the time-stamped data itself (imprint), then the CMS signature.
    const verified = await signed.verify({ signer: 0, data: data.slice().buffer, checkChain: false, extendedMode: true });
    expect(verified.signatureVerified).toBe(true);
  });

  it("rejects a token whose nonce or imprint differs from the request", async () => {
    const asked = await buildTimeStampRequest(data);
    const other = await buildTimeStampRequest(data); // same imprint, other nonce
    const response = await respondTimestamp(other.der, creds(), new Date());
    expect(() => extractTimeStampToken(response, asked)).toThrow(/nonce/);
    const otherData = await buildTimeStampRequest(new Uint8Array([1]));
    expect(() => extractTimeStampToken(response, { ...otherData, nonce: other.nonce })).toThrow(/imprint/);
  });

  it("the responder answers garbage with a rejection, never an exception", async () => {
    const response = await respondTimestamp(new Uint8Array([1, 2, 3]), creds(), new Date());
    const parsed = pkijs.TimeStampResp.fromBER(response);
    expect(parsed.status.status).toBe(2);
    expect(parsed.timeStampToken).toBeUndefined();
    const request = await buildTimeStampRequest(data);
    expect(() => extractTimeStampToken(response, request)).toThrow(/not granted/);
  });

  it("the remote client POSTs application/timestamp-query and checks the reply", async () => {
    let seen: { method?: string; type?: string | null } = {};
    const fakeTsa: typeof fetch = async (_url, init) => {
      seen = { method: init?.method, type: new Headers(init?.headers).get("content-type") };
      const body = new Uint8Array(await new Response(init?.body).arrayBuffer());
      return new Response(await respondTimestamp(body, creds(), new Date()), {
        headers: { "content-type": "application/timestamp-reply" },
      });
    };
    const token = await requestTimestamp(data, { kind: "remote", url: "https://tsa.test/", fetch: fakeTsa });
    expect(token.length).toBeGreaterThan(500);
    expect(seen).toEqual({ method: "POST", type: "application/timestamp-query" });

    const html: typeof fetch = async () => new Response("<html>", { headers: { "content-type": "text/html" } });
    await expect(requestTimestamp(data, { kind: "remote", url: "https://tsa.test/", fetch: html })).rejects.toThrow(/content type/);
    const down: typeof fetch = async () => new Response("no", { status: 503 });
    await expect(requestTimestamp(data, { kind: "remote", url: "https://tsa.test/", fetch: down })).rejects.toThrow(/HTTP 503/);
  });

  it("reads the TSA settings of the bindings", () => {
    expect(tsaConfigFrom({})).toBeNull();
    expect(tsaConfigFrom({ url: "https://tsa.example/" })).toEqual({ kind: "remote", url: "https://tsa.example/" });
    expect(tsaConfigFrom({ url: "internal", ...creds() })).toMatchObject({ kind: "internal" });
    expect(() => tsaConfigFrom({ url: "internal" })).toThrow('TSA URL "internal" needs the TSA certificate chain and key');
  });
});
