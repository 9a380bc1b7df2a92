import { exports, env as rawEnv } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { SVC_IMAGE_WATERMARK } from "../../../src/catalog/algorithms";
import { imageServices } from "../../../src/media";
import { verifySettingsJson, WasmReader } from "../../../src/media/c2pa/engine";
import { ensureC2paEngine } from "../../../src/media/c2pa/engine-workerd";
import { type JumbfSuperbox, parseJumbf } from "../../../src/media/c2pa/jumbf-box";
import { extractManifestStore } from "../../../src/media/c2pa/jumbf-carriers";
import type { RgbaImage } from "../../../src/media/types";
import { verifyPixels } from "../../../src/verifications/verify-pixels";
import { prng } from "../../support/prng";
import { texture } from "../../support/textures";
import { api, BASE, callUrl, createTenant, fixture, json, sha256HexOf, testEnv, uploadAsset, waitForJob } from "../support/helpers";

/*
 * The C2PA Soft Binding Resolution API over HTTP, against assets published for real through the API: a
 * watermarked and fingerprinted JPEG, its stripped copies, a sidecar publication, a re-signed file.
 */

const SBR = "/v1/soft-binding-resolution";
const db = (rawEnv as unknown as { DB: D1Database }).DB;
const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const unb64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const fromHex = (text: string) => Uint8Array.from(text.match(/../g)!, (h) => parseInt(h, 16));
const q = (params: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();

async function sign(key: string, body: Record<string, unknown>) {
  const res = await api("/v1/sign", { method: "POST", key, body, headers: { "idempotency-key": crypto.randomUUID() } });
  expect(res.status, await res.clone().text()).toBe(202);
  const job = await waitForJob(key, (await json(res)).job_id, 60_000);
  expect(job.state, JSON.stringify(job)).toBe("completed");
  return job;
}

async function download(key: string, assetId: string) {
  const d = await json(await api(`/v1/assets/${assetId}/download`, { method: "POST", key }));
  const bytes = new Uint8Array(await (await callUrl(d.url, { method: "GET", headers: d.headers })).arrayBuffer());
  expect(await sha256HexOf(bytes)).toBe(d.sha256);
  return { download: d, bytes };
}

/** Publishes `source` with `recipe` and returns what a test needs to know about the publication. */
async function publish(key: string, source: Uint8Array, mediaType: string, body: Record<string, unknown>) {
  const { assetId } = await uploadAsset(key, source, mediaType, "photo");
  const job = await sign(key, { asset_id: assetId, ...body });
  const receipt = await json(await api(`/v1/receipts/${job.result.receipt_id}`, { key }));
  const { download: d, bytes } = await download(key, assetId);
  return { assetId, job, receipt, manifestId: receipt.evidence.manifest?.active_manifest_label as string, bytes, download: d };
}

function byContent(bytes: Uint8Array, params: Record<string, string | number> = {}, headers: Record<string, string> = {}) {
  return exports.default.fetch(
    new Request(`${BASE}${SBR}/matches/byContent?${q(params)}`, {
      method: "POST",
      body: bytes as Uint8Array<ArrayBuffer>,
      headers: { "content-type": "image/jpeg", "cf-connecting-ip": `203.0.113.${Math.floor(Math.random() * 250)}`, ...headers },
    }),
  );
}

async function reencode(bytes: Uint8Array, mediaType: string, transform: (image: RgbaImage) => RgbaImage = (i) => i) {
  const { codec } = await imageServices();
  const decoded = await codec.decode(bytes, mediaType);
  if (decoded.status !== "decoded") throw new Error(decoded.message);
  const out = await codec.encode(transform(decoded.image), "image/jpeg", new Uint8Array());
  if (out.status !== "encoded") throw new Error(out.message);
  return out.bytes;
}

function halfSize(image: RgbaImage): RgbaImage {
  const w = image.width >> 1,
    h = image.height >> 1;
  const data = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      for (let c = 0; c < 4; c++) {
        const at = (yy: number, xx: number) => image.data[(yy * image.width + xx) * 4 + c]!;
        data[(y * w + x) * 4 + c] = (at(2 * y, 2 * x) + at(2 * y + 1, 2 * x) + at(2 * y, 2 * x + 1) + at(2 * y + 1, 2 * x + 1)) >> 2;
      }
  return { width: w, height: h, data };
}

/** A photo-like image unrelated to the fixtures. */
function photo(width: number, height: number, seed: number): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  const rand = prng(seed);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      data[i] = (40 + (x * 5) / 3 + 50 * Math.sin(y / 9 + seed) + rand() * 30) & 255;
      data[i + 1] = (90 + (y * 7) / 5 + ((x >> 4) & 1) * 70) & 255;
      data[i + 2] = (((x * y) >> 6) + rand() * 40) & 255;
      data[i + 3] = 255;
    }
  return { width, height, data };
}

/** The `c2pa.soft-binding` assertions of the active manifest of `bytes`, as the reference reader reports them. */
async function softBindingsOf(bytes: Uint8Array, mediaType: string): Promise<{ alg: string; value: string }[]> {
  ensureC2paEngine();
  const reader = await WasmReader.fromBytes(mediaType, bytes, verifySettingsJson(testEnv.SVC_TRUST_ANCHORS_PEM));
  const store = JSON.parse(reader.json());
  return store.manifests[store.active_manifest].assertions
    .filter((a: { label: string }) => a.label.startsWith("c2pa.soft-binding"))
    .map((a: { data: { alg: string; blocks: { value: string }[] } }) => ({ alg: a.data.alg, value: a.data.blocks[0]!.value }));
}

function flip(bits: Uint8Array, n: number): Uint8Array {
  const out = bits.slice();
  for (let k = 0; k < n; k++) {
    const p = (k * 97 + 5) % 256;
    out[p >> 3] = out[p >> 3]! ^ (1 << (p & 7));
  }
  return out;
}

function manifestsOf(store: Uint8Array): JumbfSuperbox[] {
  const parsed = parseJumbf(store);
  if (parsed.status !== "ok") throw new Error(parsed.message);
  return parsed.root.children.filter((c): c is JumbfSuperbox => c.kind === "superbox" && c.description.contentType === "c2ma");
}

let key: string;
let published: Awaited<ReturnType<typeof publish>>;

beforeAll(async () => {
  ({ key } = await createTenant());
  published = await publish(key, fixture("sample-1mp.jpg"), "image/jpeg", {
    recipe_id: "rcp_system_watermark_then_sign",
    fingerprint_algorithms: ["iscc-image", "pdq"],
  });
}, 120_000);

describe("GET /services/supportedAlgorithms", () => {
  it("lists exactly the algorithms resolved here, by the alg names the manifests carry; each one answers a query", async () => {
    const res = await api(`${SBR}/services/supportedAlgorithms`);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toEqual({
      watermarks: [{ alg: `svc.watermark.${SVC_IMAGE_WATERMARK}` }],
      fingerprints: [{ alg: "io.iscc.v0" }, { alg: "svc.fingerprint.pdq.1" }],
    });
    // Learned models need weights this deployment does not have: never listed.
    expect(JSON.stringify(body)).not.toMatch(/trustmark|pixelseal|videoseal|dinov2|audioseal/i);
    // Exactly the set the manifests carry, and each listed alg is accepted by byBinding.
    const carried = (await softBindingsOf(published.bytes, "image/jpeg")).map((b) => b.alg).sort();
    expect([...body.watermarks, ...body.fingerprints].map((a: { alg: string }) => a.alg).sort()).toEqual(carried);
    for (const { alg } of [...body.watermarks, ...body.fingerprints]) {
      const bytes = alg === "svc.fingerprint.pdq.1" ? 32 : 8;
      const r = await api(`${SBR}/matches/byBinding?${q({ alg, value: b64(new Uint8Array(bytes)) })}`);
      expect(r.status, alg).toBe(200);
    }
  });
});

describe("matches/byBinding", () => {
  it("each soft binding read from the published manifest resolves to that manifest (GET and POST), anonymously", async () => {
    const bindings = await softBindingsOf(published.bytes, "image/jpeg");
    expect(bindings).toHaveLength(3);
    // The watermark binding is the payload the receipt reports, base64 as in the manifest.
    expect(bindings.find((b) => b.alg.startsWith("svc.watermark."))!.value).toBe(
      b64(fromHex(published.receipt.evidence.watermark.payload)),
    );
    for (const { alg, value } of bindings) {
      const got = await api(`${SBR}/matches/byBinding?${q({ alg, value })}`);
      expect(got.status, alg).toBe(200);
      expect(await json(got), alg).toEqual({ matches: [{ manifestId: published.manifestId, similarityScore: 100 }] });
      const posted = await api(`${SBR}/matches/byBinding`, { method: "POST", body: { alg, value } });
      expect(posted.status, alg).toBe(200);
      expect(await json(posted)).toEqual({ matches: [{ manifestId: published.manifestId, similarityScore: 100 }] });
    }
  });

  it("a PDQ hash a few bits away matches with a lower score; one beyond distance 31 does not", async () => {
    const pdq = (await softBindingsOf(published.bytes, "image/jpeg")).find((b) => b.alg === "svc.fingerprint.pdq.1")!;
    const bits = unb64(pdq.value);
    const near = await json(await api(`${SBR}/matches/byBinding?${q({ alg: pdq.alg, value: b64(flip(bits, 10)) })}`));
    expect(near).toEqual({ matches: [{ manifestId: published.manifestId, similarityScore: Math.round(100 * (1 - 10 / 32)) }] });
    const edge = await json(await api(`${SBR}/matches/byBinding?${q({ alg: pdq.alg, value: b64(flip(bits, 31)) })}`));
    expect(edge.matches).toEqual([{ manifestId: published.manifestId, similarityScore: 3 }]);
    const far = await json(await api(`${SBR}/matches/byBinding?${q({ alg: pdq.alg, value: b64(flip(bits, 40)) })}`));
    expect(far).toEqual({ matches: [] });
  });

  it("an unknown value answers no matches; URL-safe base64 without padding is accepted", async () => {
    expect(
      await json(await api(`${SBR}/matches/byBinding?${q({ alg: "io.iscc.v0", value: b64(crypto.getRandomValues(new Uint8Array(8))) })}`)),
    ).toEqual({ matches: [] });
    const wm = b64(fromHex(published.receipt.evidence.watermark.payload)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    const res = await json(await api(`${SBR}/matches/byBinding?alg=svc.watermark.${SVC_IMAGE_WATERMARK}&value=${wm}`));
    expect(res.matches[0].manifestId).toBe(published.manifestId);
    // An unescaped "+" (a space once the query string is decoded) is read as "+".
    const plus = await api(`${SBR}/matches/byBinding?alg=io.iscc.v0&value=+/v7+/v7+/s=`);
    expect(plus.status).toBe(200);
    expect(await json(plus)).toEqual({ matches: [] });
  });

  it("several publications of the same image: every manifest, earliest first, bounded by maxResults", async () => {
    const { key: other } = await createTenant();
    const source = fixture("sample.png");
    const first = await publish(key, source, "image/png", { recipe_id: "rcp_system_sign", fingerprint_algorithms: ["iscc-image", "pdq"] });
    const second = await publish(other, source, "image/png", {
      recipe_id: "rcp_system_sign",
      fingerprint_algorithms: ["iscc-image", "pdq"],
    });
    const iscc = (await softBindingsOf(first.bytes, "image/png")).find((b) => b.alg === "io.iscc.v0")!;
    expect((await softBindingsOf(second.bytes, "image/png")).find((b) => b.alg === "io.iscc.v0")!.value).toBe(iscc.value);
    const all = await json(await api(`${SBR}/matches/byBinding?${q(iscc)}`));
    expect(all.matches).toEqual([
      { manifestId: first.manifestId, similarityScore: 100 },
      { manifestId: second.manifestId, similarityScore: 100 },
    ]);
    expect((await json(await api(`${SBR}/matches/byBinding?${q({ ...iscc, maxResults: 1 })}`))).matches).toEqual([
      { manifestId: first.manifestId, similarityScore: 100 },
    ]);
    const posted = await json(await api(`${SBR}/matches/byBinding?maxResults=1`, { method: "POST", body: iscc }));
    expect(posted.matches).toHaveLength(1);
  });
});

describe("matches/byContent", () => {
  it("a copy stripped of its manifest (decoded and re-encoded elsewhere) resolves to the manifest, by its watermark first", async () => {
    const stripped = await reencode(published.bytes, "image/jpeg");
    expect(extractManifestStore(stripped, "image/jpeg").status).toBe("not_found");
    const res = await byContent(stripped);
    expect(res.status, await res.clone().text()).toBe(200);
    const body = await json(res);
    expect(body.matches).toHaveLength(1);
    expect(body.matches[0].manifestId).toBe(published.manifestId);
    expect(body.matches[0].similarityScore).toBeGreaterThan(60);
    // The watermark alone finds it too; the media type comes from the bytes, not the Content-Type.
    const wm = await json(
      await byContent(stripped, { alg: `svc.watermark.${SVC_IMAGE_WATERMARK}` }, { "content-type": "application/octet-stream" }),
    );
    expect(wm.matches.map((m: { manifestId: string }) => m.manifestId)).toEqual([published.manifestId]);
  });

  it("an unchanged copy resolves through its exact ISCC code, computed from the pixels publication indexed (#19 review)", async () => {
    // A texture whose ISCC code read the way publication and verification read a JPEG (reduced in the DCT domain)
    // differs from its full decode's: byContent must compute the indexed one, or the exact lookup misses the copy.
    const services = await imageServices();
    const encoded = await services.codec.encode(texture(1024, 768, 1), "image/jpeg", new Uint8Array());
    if (encoded.status !== "encoded") throw new Error("encode");
    const read = await verifyPixels(services, encoded.bytes, "image/jpeg");
    const whole = await services.codec.decode(encoded.bytes, "image/jpeg");
    if (read.status !== "decoded" || whole.status !== "decoded") throw new Error("decode");
    const iscc = services.fingerprinters.get("iscc-image")!;
    const asRead = iscc.compute(read.pixels.full);
    const asWhole = iscc.compute(whole.image);
    expect(read.pixels.plane.factor).toBe(2);
    expect(asRead.status === "computed" && asWhole.status === "computed" && asRead.value !== asWhole.value).toBe(true);
    const signed = await publish(key, encoded.bytes, "image/jpeg", {
      recipe_id: "rcp_system_sign",
      fingerprint_algorithms: ["iscc-image", "pdq"],
    });
    const body = await json(await byContent(signed.bytes, { alg: "io.iscc.v0" }));
    expect(body.matches.map((m: { manifestId: string }) => m.manifestId)).toContain(signed.manifestId);
  });

  it("a half-size re-encoded copy resolves through its PDQ fingerprint", async () => {
    const small = await reencode(published.bytes, "image/jpeg", halfSize);
    const body = await json(await byContent(small, { alg: "svc.fingerprint.pdq.1" }));
    expect(body.matches).toHaveLength(1);
    expect(body.matches[0].manifestId).toBe(published.manifestId);
    expect(body.matches[0].similarityScore).toBeGreaterThan(0);
    expect(body.matches[0].similarityScore).toBeLessThanOrEqual(100);
  });

  it("an unrelated image matches nothing, unless a hint names a published binding", async () => {
    const { codec } = await imageServices();
    const encoded = await codec.encode(photo(400, 300, 7), "image/png", new Uint8Array());
    if (encoded.status !== "encoded") throw new Error("encode");
    expect(await json(await byContent(encoded.bytes, {}, { "content-type": "image/png" }))).toEqual({ matches: [] });
    const hinted = await json(
      await byContent(
        encoded.bytes,
        { hintAlg: `svc.watermark.${SVC_IMAGE_WATERMARK}`, hintValue: b64(fromHex(published.receipt.evidence.watermark.payload)) },
        { "content-type": "image/png" },
      ),
    );
    expect(hinted).toEqual({ matches: [{ manifestId: published.manifestId, similarityScore: 100 }] });
  });
});

describe("GET /manifests/{manifestId}", () => {
  it("answers the manifest store the asset was published with: the embedded JUMBF, anchored, readable by the reference engine", async () => {
    const res = await api(`${SBR}/manifests/${encodeURIComponent(published.manifestId)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/c2pa");
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    const store = new Uint8Array(await res.arrayBuffer());
    const embedded = extractManifestStore(published.bytes, "image/jpeg");
    if (embedded.status !== "ok") throw new Error(embedded.message);
    expect(store).toEqual(embedded.store);
    const sha256 = await sha256HexOf(store);
    expect(res.headers.get("etag")).toBe(`"${sha256}"`);
    // The same bytes the transparency log recorded at publication.
    const anchored = await db
      .prepare("SELECT manifest_sha256 FROM anchor_entries WHERE publication_id = ?")
      .bind(published.job.result.publication_id)
      .first<{ manifest_sha256: string }>();
    expect(anchored?.manifest_sha256).toBe(sha256);
    ensureC2paEngine();
    const reader = await WasmReader.fromBytes("application/c2pa", store, verifySettingsJson(testEnv.SVC_TRUST_ANCHORS_PEM));
    const report = JSON.parse(reader.json());
    expect(report.active_manifest).toBe(published.manifestId);
    expect(
      report.manifests[published.manifestId].assertions.filter((a: { label: string }) => a.label.startsWith("c2pa.soft-binding")),
    ).toHaveLength(3);
    // Unencoded colons in the path work too, and one manifest alone is the whole store.
    const plain = await api(`${SBR}/manifests/${published.manifestId}?returnActiveManifest=true`);
    expect(plain.status).toBe(200);
    expect(new Uint8Array(await plain.arrayBuffer())).toEqual(store);
  });

  it("a sidecar publication: the store is the .c2pa sidecar byte for byte", async () => {
    const pdf = await publish(key, fixture("sample.pdf"), "application/pdf", { recipe_id: "rcp_private_sidecar_document_sign_only" });
    const sidecar = new Uint8Array(
      await (
        await callUrl(pdf.download.sidecar_manifest.url, { method: "GET", headers: pdf.download.sidecar_manifest.headers })
      ).arrayBuffer(),
    );
    const res = await api(`${SBR}/manifests/${encodeURIComponent(pdf.manifestId)}`);
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(sidecar);
  });

  it("a re-signed asset: the whole store by default, only its active manifest with returnActiveManifest=true", async () => {
    const resigned = await publish(key, published.bytes, "image/jpeg", { recipe_id: "rcp_system_sign_only" });
    const full = new Uint8Array(await (await api(`${SBR}/manifests/${encodeURIComponent(resigned.manifestId)}`)).arrayBuffer());
    const embedded = extractManifestStore(resigned.bytes, "image/jpeg");
    if (embedded.status !== "ok") throw new Error(embedded.message);
    expect(full).toEqual(embedded.store);
    const labels = manifestsOf(full).map((m) => m.description.label);
    expect(labels).toEqual([published.manifestId, resigned.manifestId]);

    const res = await api(`${SBR}/manifests/${encodeURIComponent(resigned.manifestId)}?returnActiveManifest=true`);
    expect(res.status).toBe(200);
    const active = new Uint8Array(await res.arrayBuffer());
    expect(res.headers.get("etag")).toBe(`"${await sha256HexOf(active)}"`);
    const only = manifestsOf(active);
    expect(only.map((m) => m.description.label)).toEqual([resigned.manifestId]);
    // The manifest superbox is copied byte for byte from the full store.
    const inFull = manifestsOf(full)[1]!;
    expect(active.subarray(only[0]!.offset, only[0]!.offset + only[0]!.length)).toEqual(
      full.subarray(inFull.offset, inFull.offset + inFull.length),
    );
    // The older publication's own manifest is still served as its own store.
    expect((await api(`${SBR}/manifests/${encodeURIComponent(published.manifestId)}`)).status).toBe(200);
  });
});
