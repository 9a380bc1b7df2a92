import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { reconcileDerivedIndex } from "../../../src/derived-index/service";
import { imageServices } from "../../../src/media";
import { hammingDistance, PDQ_REGIONS, pdqBitsFromHex } from "../../../src/media/fingerprint";
import type { RgbaImage } from "../../../src/media/types";
import { indexMatches, MAX_QUERY_WINDOWS, PDQ_REGION_MATCH_DISTANCE } from "../../../src/soft-bindings/repo";
import { verifyPixels } from "../../../src/verifications/verify-pixels";
import { api, callUrl, createTenant, fixture, json, uploadAsset, waitForJob } from "../support/helpers";
import { assetStatement, bindingStatements, indexStatements, pdqBinding, publicationIds } from "../support/index-seed";
import { recordingD1 } from "../support/observed-d1";
import { flip, random } from "../support/pdq-bits";
import { verifyFile } from "../support/verify-helpers";

/*
 * #20: a copy cropped 10 % or 20 % is found through the PDQ hashes of its publication's windows (pdq_regions,
 * src/media/fingerprint/regions.ts). The index statement (one batch entry, probes on the band indexes), its
 * answers against a brute-force scan, the reconciler and deletion, and end to end through POST /v1/verify.
 */

const db = (env as unknown as { DB: D1Database }).DB;

/** A publication as the batch writes it: asset, `pdq` binding, bands, and its windows; `binding: false`: no binding. */
async function publish(
  n: number,
  opts: { tenant?: string; status?: string; whole: Uint8Array; regions: Uint8Array[]; binding?: boolean; createdAt?: number },
) {
  const p = {
    ...publicationIds("rg", n),
    tenantId: opts.tenant ?? "ten_regionsregions",
    status: opts.status,
    createdAt: opts.createdAt ?? n,
  };
  const bindings = [pdqBinding(opts.whole)];
  await db.batch([
    assetStatement(db, p),
    ...(opts.binding === false ? [] : bindingStatements(db, p, bindings)),
    ...indexStatements(db, p.publicationId, bindings, opts.regions),
  ]);
  return p.publicationId;
}

describe("pdq_regions: the index", () => {
  it("one statement per publication; a lookup answers each publication by its nearest window, as a full scan does", async () => {
    const target = random();
    const pubs: string[] = [];
    for (let i = 0; i < 12; i++)
      pubs.push(
        await publish(i, {
          tenant: i % 3 ? "ten_regionsregions" : "ten_otherotherothe",
          status: i === 4 ? "expired" : "published",
          whole: random(),
          // publications 0..7 have a window near the target (distance 2i+1), the others none
          regions: [random(), i < 8 ? flip(target, 2 * i + 1, i) : random(), random()],
          binding: i !== 6,
        }),
      );
    const rows = await db.prepare("SELECT COUNT(*) AS n FROM pdq_regions WHERE publication_id = ?").bind(pubs[0]).first<{ n: number }>();
    expect(rows!.n).toBe(3);
    for (const filter of [{}, { tenantId: "ten_regionsregions" }, { resolvableOnly: true }]) {
      const found = await indexMatches(db, { exact: [], pdqRegions: { bits: target, limit: 10 } }, filter);
      const expected = [0, 1, 2, 3, 4, 5, 7]
        .filter((i) => (!filter.tenantId || i % 3 !== 0) && (!("resolvableOnly" in filter) || i !== 4))
        .map((i) => ({
          publication_id: pubs[i],
          algorithm: "pdq",
          manifest_label: `urn:c2pa:${pubs[i]}`,
          distance: 2 * i + 1,
          region: 1,
        }));
      // publication 6 has windows but no pdq binding: not answered (its rows are the reconciler's orphans)
      expect(found.pdqRegions).toEqual(expected.filter((m) => m.distance <= PDQ_REGION_MATCH_DISTANCE));
      expect(found.pdq).toEqual([]);
    }
    // far from every window: nothing
    expect((await indexMatches(db, { exact: [], pdqRegions: { bits: flip(target, 60, 9), limit: 10 } })).pdqRegions).toEqual([]);
  });

  it("#20: the query's own windows are probed with its whole hash; a publication answers at its nearest pair", async () => {
    const whole = random();
    const windows = Array.from({ length: MAX_QUERY_WINDOWS + 2 }, random);
    // 300: a window 3 bits from the query's 5th window; 301: 20 bits from its whole hash and 9 from its 2nd window;
    // 302: near only the window past MAX_QUERY_WINDOWS (never probed); 303: nothing near
    const a = await publish(300, { whole: random(), regions: [random(), flip(windows[4]!, 3, 1)] });
    const b = await publish(301, { whole: random(), regions: [flip(whole, 20, 2), flip(windows[1]!, 9, 3), random()] });
    const c = await publish(302, { whole: random(), regions: [flip(windows[MAX_QUERY_WINDOWS + 1]!, 2, 4)] });
    await publish(303, { whole: random(), regions: [random(), random()] });
    const found = await indexMatches(db, { exact: [], pdqRegions: { bits: whole, limit: 10, windows } });
    const mine = found.pdqRegions.filter((m) => [a, b, c].includes(m.publication_id));
    expect(mine.map((m) => [m.publication_id, m.distance, m.region])).toEqual([
      [a, 3, 1],
      [b, 9, 1],
    ]);
    // without its windows the query finds only what its whole hash is near
    const alone = await indexMatches(db, { exact: [], pdqRegions: { bits: whole, limit: 10 } });
    expect(alone.pdqRegions.filter((m) => [a, b, c].includes(m.publication_id)).map((m) => [m.publication_id, m.distance])).toEqual([
      [b, 20],
    ]);
  });

  it("the region statement reads by its 16 band probes, never the whole table", async () => {
    for (let i = 100; i < 160; i++) await publish(i, { whole: random(), regions: Array.from({ length: 18 }, random) });
    const { d1, statements } = recordingD1(db);
    for (const filter of [{}, { tenantId: "ten_regionsregions", resolvableOnly: true }]) {
      statements.length = 0;
      await indexMatches(
        d1,
        {
          exact: [],
          pdq: { bits: random(), limit: 10 },
          pdqRegions: { bits: random(), limit: 10, windows: Array.from({ length: MAX_QUERY_WINDOWS }, random) },
        },
        filter,
      );
      expect(statements).toHaveLength(2);
      const plan = await db
        .prepare(`EXPLAIN QUERY PLAN ${statements[1]!.sql}`)
        .bind(...statements[1]!.binds)
        .all<{ detail: string }>();
      const steps = plan.results.map((r) => r.detail);
      expect(steps.filter((s) => /^SCAN (r|sb|a|pdq_regions)\b/.test(s))).toEqual([]);
      for (let b = 0; b < 16; b++)
        expect(
          steps.some((s) => new RegExp(`^SEARCH r USING INDEX pdq_regions_b${b}_idx \\(b${b}=\\?\\)`).test(s)),
          steps.join("\n"),
        ).toBe(true);
    }
  });

  it("the reconciler removes windows whose pdq binding is gone, and keeps the others", async () => {
    const kept = await publish(200, { whole: random(), regions: [random(), random()] });
    const stray = await publish(201, { whole: random(), regions: [random(), random()], binding: false });
    await reconcileDerivedIndex({ DB: db });
    const count = async (p: string) =>
      (await db.prepare("SELECT COUNT(*) AS n FROM pdq_regions WHERE publication_id = ?").bind(p).first<{ n: number }>())!.n;
    expect(await count(stray)).toBe(0);
    expect(await count(kept)).toBe(2);
  });
});

/** Crops `f` of each side: from the top-left corner (`corner`: the copy keeps the bottom-right part) or centred. */
function cropped(image: RgbaImage, f: number, at: "corner" | "centre"): RgbaImage {
  const cw = Math.round(image.width * f);
  const ch = Math.round(image.height * f);
  const [x0, y0] = at === "corner" ? [cw, ch] : [Math.round(cw / 2), Math.round(ch / 2)];
  const w = image.width - cw;
  const h = image.height - ch;
  const data = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++)
    data.set(image.data.subarray(((y0 + y) * image.width + x0) * 4, ((y0 + y) * image.width + x0 + w) * 4), y * w * 4);
  return { width: w, height: h, data };
}

describe("pdq_regions: a signed photograph cropped, stripped, verified through the public API", () => {
  it("a 10 %, a 20 % and (its own windows, #20) a 15 % crop → fingerprint_match_only with its publication; an unrelated photograph → nothing; deletion removes the windows", async () => {
    const { key, tenantId } = await createTenant();
    const services = await imageServices();
    const { codec } = services;
    const { assetId } = await uploadAsset(key, fixture("photo-bridge.jpg"), "image/jpeg", "photo");
    const started = await api("/v1/sign", {
      method: "POST",
      key,
      body: { asset_id: assetId, recipe_id: "rcp_system_sign", fingerprint_algorithms: ["iscc-image", "pdq"] },
      headers: { "idempotency-key": crypto.randomUUID() },
    });
    const job = await waitForJob(key, (await json(started)).job_id, 90_000);
    expect(job.state, JSON.stringify(job)).toBe("completed");
    const publicationId = job.result.publication_id as string;
    const windows = await db
      .prepare("SELECT COUNT(*) AS n FROM pdq_regions WHERE publication_id = ?")
      .bind(publicationId)
      .first<{ n: number }>();
    // a textured photograph: every window has the quality to be indexed
    expect(windows!.n).toBe(PDQ_REGIONS.length);
    const receipt = await json(await api(`/v1/receipts/${job.result.receipt_id}`, { key }));
    const whole = receipt.evidence.fingerprints.find((f: { algorithm: string }) => f.algorithm === "pdq");
    // the manifest and receipt keep the whole-image hash only (windows are index-only)
    expect(receipt.evidence.fingerprints.map((f: { algorithm: string }) => f.algorithm).sort()).toEqual(["iscc-image", "pdq"]);
    const download = await json(await api(`/v1/assets/${assetId}/download`, { method: "POST", key }));
    const signed = new Uint8Array(await (await callUrl(download.url, { method: "GET", headers: download.headers })).arrayBuffer());
    const decoded = await codec.decode(signed, "image/jpeg");
    if (decoded.status !== "decoded") throw new Error("decode");

    const copies: { name: string; bytes: Uint8Array }[] = [];
    for (const [f, at] of [
      [0.1, "corner"],
      [0.2, "centre"],
      // #20: 85 % of each side is none of the published windows: found through the copy's own windows only
      [0.15, "corner"],
    ] as const) {
      const encoded = await codec.encode(cropped(decoded.image, f, at), "image/jpeg", new Uint8Array());
      if (encoded.status !== "encoded") throw new Error("encode");
      copies.push({ name: `crop ${f * 100} % (${at})`, bytes: encoded.bytes });
    }
    for (const copy of copies) {
      // the copy's whole-image hash (as verification computes it) is beyond the whole-image lookup: only a window finds it
      const pixels = await verifyPixels(services, copy.bytes, "image/jpeg");
      if (pixels.status !== "decoded") throw new Error("verify pixels");
      const pdq = services.fingerprinters.get("pdq")!.compute(pixels.pixels.plane.image);
      if (pdq.status !== "computed") throw new Error("pdq");
      expect(hammingDistance(pdq.bits, pdqBitsFromHex(whole.value)), copy.name).toBeGreaterThan(31);
      if (copy.name.startsWith("crop 15")) {
        const published = await db.prepare("SELECT * FROM pdq_regions WHERE publication_id = ?").bind(publicationId).all();
        const nearest = Math.min(
          ...published.results.map((row) => {
            const bits = new Uint8Array(32);
            for (let b = 0; b < 16; b++) {
              const v = Number((row as Record<string, unknown>)[`b${b}`]);
              bits[2 * b] = v >> 8;
              bits[2 * b + 1] = v & 255;
            }
            return hammingDistance(pdq.bits, bits);
          }),
        );
        expect(nearest, "the whole hash of an 85 % crop is far from every published window").toBeGreaterThan(PDQ_REGION_MATCH_DISTANCE);
      }
      const verdict = await json(await verifyFile(copy.bytes));
      expect(verdict.status, `${copy.name}: ${verdict.developer_explanation}`).toBe("fingerprint_match_only");
      expect(verdict.signals).toMatchObject({ c2pa_manifest_present: false, fingerprint_match: true });
      expect(verdict.matches[0], copy.name).toMatchObject({ kind: "fingerprint", algorithm: "pdq", publication_id: publicationId });
      expect(verdict.matches[0].distance).toBeLessThanOrEqual(PDQ_REGION_MATCH_DISTANCE);
    }

    // An unrelated photograph, cropped as the copies are: nothing
    const other = await codec.decode(fixture("sample-1mp.jpg"), "image/jpeg");
    if (other.status !== "decoded") throw new Error("decode other");
    for (const image of [cropped(other.image, 0.1, "corner")]) {
      const encoded = await codec.encode(image, "image/jpeg", new Uint8Array());
      if (encoded.status !== "encoded") throw new Error("encode other");
      const verdict = await json(await verifyFile(encoded.bytes));
      expect(verdict.status).not.toBe("fingerprint_match_only");
      expect(verdict.matches ?? []).toHaveLength(0);
    }

    // Deleting the asset removes its windows with its bands and bindings: the crop is no longer recovered.
    const res = await api("/v1/governance/deletions", { method: "POST", key, body: { scope: "asset", asset_id: assetId } });
    expect(res.status, await res.clone().text()).toBe(202);
    const deletionId = (await json(res)).deletion_id as string;
    let done: { state: string; removed: Record<string, number> } | null = null;
    for (let i = 0; i < 120 && done?.state !== "completed"; i++) {
      done = await json(await api(`/v1/governance/deletions/${deletionId}`, { key }));
      if (done?.state !== "completed") await new Promise((r) => setTimeout(r, 250));
    }
    expect(done?.state, JSON.stringify(done)).toBe("completed");
    expect(done!.removed.pdq_regions).toBe(PDQ_REGIONS.length);
    const left = await db
      .prepare("SELECT COUNT(*) AS n FROM pdq_regions WHERE publication_id = ?")
      .bind(publicationId)
      .first<{ n: number }>();
    expect(left!.n).toBe(0);
    const after = await json(await verifyFile(copies[0]!.bytes));
    expect(after.status).not.toBe("fingerprint_match_only");
    expect(after.matches ?? []).toHaveLength(0);
    expect(tenantId).toBeTruthy();
    // signing and six verifications of a 1.6 MP photograph: about 40 s alone, more on a loaded machine
  }, 300_000);
});
