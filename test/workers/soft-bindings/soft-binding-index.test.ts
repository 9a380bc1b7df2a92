import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { imageServices } from "../../../src/media";
import type { RgbaImage } from "../../../src/media/types";
import { nearestPdq } from "../../../src/soft-bindings/repo";
import { api, createTenant, json } from "../support/helpers";
import { fingerprintBinding, pdqBinding, seedPublication } from "../support/index-seed";
import { flip, hex } from "../support/pdq-bits";
import { signedCopy, texturedRgba, verifyFile } from "../support/verify-helpers";

const db = (env as unknown as { DB: D1Database }).DB;

/** Registers a publication with a PDQ hash the way the publication batch does (asset row, binding, bands). */
async function register(publicationId: string, bits: Uint8Array) {
  const assetId = `ast_${publicationId.slice(4)}`;
  await seedPublication(db, { publicationId, assetId, tenantId: "ten_indexindexindex" }, [pdqBinding(bits)]);
}

describe("soft-binding index: PDQ by multi-index hashing", () => {
  it("finds the nearest hash within distance 31, whatever bits differ, and nothing at 32 or more", async () => {
    const rand = (seed: number) => Uint8Array.from({ length: 32 }, (_, i) => (seed * 131 + i * 7919) & 255);
    const target = rand(7);
    await register("pub_targettargettarg", target);
    for (let i = 0; i < 200; i++)
      await register(`pub_other${String(i).padStart(11, "0")}`.slice(0, 20), crypto.getRandomValues(new Uint8Array(32)));
    for (const d of [0, 1, 15, 16, 17, 30, 31]) {
      for (let trial = 0; trial < 5; trial++) {
        const found = await nearestPdq(db, flip(target, d, d * 100 + trial));
        expect(found, `distance ${d}`).toMatchObject({
          publication_id: "pub_targettargettarg",
          distance: d,
          manifest_label: "urn:c2pa:pub_targettargettarg",
        });
      }
    }
    expect(await nearestPdq(db, flip(target, 40, 1))).toBeNull();
  });

  it("a published, fingerprinted image recovered from a resized copy without its manifest → fingerprint_match_only", async () => {
    const { key } = await createTenant();
    const { codec } = await imageServices();
    const w = 480,
      h = 360;
    const data = texturedRgba(w, h);
    const source = await codec.encode({ width: w, height: h, data } satisfies RgbaImage, "image/png", new Uint8Array());
    if (source.status !== "encoded") throw new Error("encode");
    const { job, bytes } = await signedCopy(key, source.bytes, "image/png", "rcp_system_sign");
    const receipt = await json(await api(`/v1/receipts/${job.result.receipt_id}`, { key }));
    expect(receipt.evidence.fingerprints.map((f: { algorithm: string }) => f.algorithm)).toContain("iscc-image");
    // Half size, re-encoded as JPEG: no manifest, no watermark (sign recipe), only the content is left.
    const decoded = await codec.decode(bytes, "image/png");
    if (decoded.status !== "decoded") throw new Error("decode");
    const half = new Uint8Array((w / 2) * (h / 2) * 4);
    for (let y = 0; y < h / 2; y++)
      for (let x = 0; x < w / 2; x++)
        for (let c = 0; c < 4; c++) {
          const at = (yy: number, xx: number) => decoded.image.data[(yy * w + xx) * 4 + c]!;
          half[(y * (w / 2) + x) * 4 + c] =
            (at(2 * y, 2 * x) + at(2 * y + 1, 2 * x) + at(2 * y, 2 * x + 1) + at(2 * y + 1, 2 * x + 1)) >> 2;
        }
    const copy = await codec.encode({ width: w / 2, height: h / 2, data: half }, "image/jpeg", new Uint8Array());
    if (copy.status !== "encoded") throw new Error("encode copy");
    const verdict = await json(await verifyFile(copy.bytes));
    expect(verdict.status, verdict.developer_explanation).toBe("fingerprint_match_only");
    expect(verdict.matches[0]).toMatchObject({ kind: "fingerprint", publication_id: job.result.publication_id });
    expect(verdict.does_not_prove.join(" ")).toMatch(/not proof|strong evidence/);
  });

  it("a featureless image's ISCC code is not looked up: another flat image does not match a published flat one", async () => {
    const { fingerprinters, codec } = await imageServices();
    const flat = (w: number, h: number, v: number): RgbaImage => ({ width: w, height: h, data: new Uint8Array(w * h * 4).fill(v) });
    const published = fingerprinters.get("iscc-image")!.compute(flat(600, 400, 200));
    if (published.status !== "computed") throw new Error("iscc");
    // Registered as a publication the way the batch does (an ISCC row only: a flat image's PDQ is never indexed).
    await seedPublication(
      db,
      {
        publicationId: "pub_flatflatflatflat",
        assetId: "ast_flatflatflatflat",
        tenantId: "ten_indexindexindex",
        manifestLabel: "urn:c2pa:flat",
      },
      [fingerprintBinding("iscc-image", hex(published.bits), published.value)],
    );
    // A different flat image (other size and shade) has the same ISCC code...
    const other = flat(500, 700, 90);
    const otherCode = fingerprinters.get("iscc-image")!.compute(other);
    expect(otherCode.status === "computed" && hex(otherCode.bits)).toBe(hex(published.bits));
    // ...and verification does not take that as provenance.
    const encoded = await codec.encode(other, "image/png", new Uint8Array());
    if (encoded.status !== "encoded") throw new Error("encode");
    const verdict = await json(await verifyFile(encoded.bytes));
    expect(verdict.status).toBe("no_provenance_found");
    expect(verdict.matches ?? []).toHaveLength(0);
    expect(verdict.warnings.join(" ")).toMatch(/iscc-image code is not looked up/);
  });
});
