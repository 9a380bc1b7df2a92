/**
 * Issue #13, "Verification verdicts" (items 6 to 9): what a file with no manifest, a tampered manifest, a damaged
 * file, a similar publication elsewhere, and every handed-out verification id must read as.
 */
import { describe, expect, it } from "vitest";
import { ensureC2paEngine } from "../../../src/media/c2pa/engine-workerd";
import { type JumbfSuperbox, parseJumbf } from "../../../src/media/c2pa/jumbf-box";
import { extractManifestStore } from "../../../src/media/c2pa/jumbf-carriers";
import { concatBytes } from "../../../src/platform/bytes";
import { verifySubject } from "../../../src/verifications/verify-service";
import { prng } from "../../support/prng";
import { api, createTenant, fixture, json, testEnv } from "../support/helpers";
import { signedCopy, verifyFile } from "../support/verify-helpers";

/** Where `store` sits in `bytes` (a single-segment JPEG store is stored contiguously). */
function offsetOf(bytes: Uint8Array, store: Uint8Array): number {
  outer: for (let i = bytes.indexOf(store[0]!); i >= 0 && i + store.length <= bytes.length; i = bytes.indexOf(store[0]!, i + 1)) {
    for (let j = 0; j < store.length; j++) if (bytes[i + j] !== store[j]) continue outer;
    return i;
  }
  return -1;
}

/** The first APP11 segment of a JPEG: [start, end) including its marker. */
function firstApp11(bytes: Uint8Array): [number, number] {
  for (let i = 2; i + 3 < bytes.length; i++) {
    if (bytes[i] === 0xff && bytes[i + 1] === 0xeb) return [i, i + 2 + ((bytes[i + 2]! << 8) | bytes[i + 3]!)];
  }
  throw new Error("no APP11 segment");
}

const concat = (...parts: Uint8Array[]) => concatBytes(parts);

describe("#13 verification verdicts", () => {
  it("#13.6 a plain text file without a sidecar has no manifest: no_provenance_found, c2pa_manifest_present false", async () => {
    for (const [bytes, name] of [
      [new TextEncoder().encode("hello world"), "hello.txt"],
      [fixture("sample.txt"), "sample.txt"],
    ] as const) {
      const res = await verifyFile(bytes, { name });
      const body = await json(res);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(body.status, body.developer_explanation).toBe("no_provenance_found");
      expect(body.signals.c2pa_manifest_present).toBe(false);
      expect(body.manifest_id).toBeNull();
    }
  });

  it("#13.7 every bit of 64 seeded byte positions in the claim and assertion boxes of a signed JPEG, flipped, reads manifest_tampered", async () => {
    const { key } = await createTenant();
    const { bytes } = await signedCopy(key, fixture("sample.jpg"), "image/jpeg");
    const found = extractManifestStore(bytes, "image/jpeg");
    expect(found.status).toBe("ok");
    if (found.status !== "ok") return;
    const base = offsetOf(bytes, found.store);
    expect(base, "the store of a small JPEG travels in one APP11 segment").toBeGreaterThan(0);
    const parsed = parseJumbf(found.store);
    if (parsed.status !== "ok") throw new Error(parsed.message);
    const manifest = parsed.root.children.at(-1) as JumbfSuperbox;
    // What the claim signature covers: the claim's CBOR, and every assertion superbox without its own header
    // (description box and content: what the claim's hashed URIs hash).
    const ranges: { label: string; from: number; to: number }[] = [];
    for (const box of manifest.children) {
      if (box.kind !== "superbox") continue;
      if (box.description.label === "c2pa.assertions") {
        for (const a of box.children)
          if (a.kind === "superbox") ranges.push({ label: a.description.label ?? "?", from: a.offset + 8, to: a.offset + a.length });
      }
      if (box.description.label?.startsWith("c2pa.claim")) {
        for (const c of box.children)
          if (c.kind === "content") ranges.push({ label: box.description.label, from: c.offset + 8, to: c.offset + c.length });
      }
    }
    expect(ranges.map((r) => r.label)).toEqual(expect.arrayContaining(["c2pa.hash.data", "c2pa.actions.v2", "c2pa.claim.v2"]));
    const total = ranges.reduce((n, r) => n + (r.to - r.from), 0);
    const random = prng(0x13_07);
    const positions: { label: string; at: number }[] = [];
    while (positions.length < 64) {
      let n = Math.floor(random() * total);
      for (const r of ranges) {
        if (n < r.to - r.from) {
          const at = base + r.from + n;
          if (!positions.some((p) => p.at === at)) positions.push({ label: r.label, at });
          break;
        }
        n -= r.to - r.from;
      }
    }
    ensureC2paEngine();
    const wrong: string[] = [];
    for (const { label, at } of positions) {
      for (let bit = 0; bit < 8; bit++) {
        const tampered = bytes.slice();
        tampered[at] = tampered[at]! ^ (1 << bit);
        // The route's own verification (services without the image pipeline: the pixels did not change).
        const outcome = await verifySubject(
          testEnv,
          { ensureEngine: ensureC2paEngine, image: null, revocation: null },
          { bytes: tampered, mediaType: "image/jpeg" },
        );
        if (outcome.status !== "manifest_tampered")
          wrong.push(`${label} byte ${at} bit ${bit}: ${outcome.status} (${outcome.developer_explanation.slice(0, 200)})`);
        else if (outcome.signals.c2pa_manifest_present !== true || outcome.confidence !== null)
          wrong.push(`${label} byte ${at} bit ${bit}: signals ${JSON.stringify(outcome.signals)}`);
      }
    }
    expect(wrong, wrong.slice(0, 10).join("\n")).toEqual([]);
    // And through the public route, for a sample of them.
    for (const { at } of positions.slice(0, 4)) {
      const tampered = bytes.slice();
      tampered[at] = tampered[at]! ^ 0x01;
      const body = await json(await verifyFile(tampered, { key }));
      expect(body.status, body.developer_explanation).toBe("manifest_tampered");
    }
  }, 180_000);

  it("#13.7 a signed JPEG missing its last byte (or more) gets a verdict, asset_tampered, not 415", async () => {
    const { key } = await createTenant();
    const { bytes } = await signedCopy(key, fixture("sample.jpg"), "image/jpeg");
    for (const cut of [1, 200]) {
      const res = await verifyFile(bytes.slice(0, bytes.length - cut), { key, name: "photo.jpg" });
      const body = await json(res);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(body.media_type).toBe("image/jpeg");
      expect(body.status, body.developer_explanation).toBe("asset_tampered");
      expect(body.manifest_id).toMatch(/^urn:c2pa:/);
    }
    // Without a manifest, a damaged file is simply one without provenance (never "tampered credentials").
    const unsigned = fixture("sample.jpg");
    const cut = await json(await verifyFile(unsigned.slice(0, unsigned.length - 1), { key }));
    expect(cut.status, cut.developer_explanation).toBe("no_provenance_found");
    const broken = unsigned.slice();
    broken[2] = 0x00; // the first marker after SOI is gone
    ensureC2paEngine();
    const outcome = await verifySubject(
      testEnv,
      { ensureEngine: ensureC2paEngine, image: null, revocation: null },
      { bytes: broken, mediaType: "image/jpeg" },
    );
    expect(outcome.status, outcome.developer_explanation).toBe("no_provenance_found");
  });

  it("#13.7 a file crafted with many C2PA stores buys no per-store verifications: it reads manifest_tampered at once", async () => {
    const { key } = await createTenant();
    const { bytes } = await signedCopy(key, fixture("sample.jpg"), "image/jpeg");
    const [start, end] = firstApp11(bytes);
    const segment = bytes.slice(start, end);
    const junk: Uint8Array[] = [];
    for (let en = 10; en < 50; en++) {
      const j = segment.slice(0, 200);
      j[2] = 0;
      j[3] = 198;
      j[6] = en >> 8;
      j[7] = en & 0xff;
      j.fill(0x41, 80);
      junk.push(j);
    }
    const body = await json(await verifyFile(concat(bytes.subarray(0, end), ...junk, bytes.subarray(end)), { key }));
    expect(body.status, body.developer_explanation).toBe("manifest_tampered");
    expect(body.warnings.join(" ")).not.toMatch(/C2PA manifest stores/);
  });

  it("#13.7 an extra bogus C2PA segment does not hide the valid embedded manifest: every store is read and the conflict reported", async () => {
    const { key } = await createTenant();
    const { bytes } = await signedCopy(key, fixture("sample.jpg"), "image/jpeg");
    const valid = await json(await verifyFile(bytes, { key }));
    expect(valid.status).toBe("verified_manifest");
    const [start, end] = firstApp11(bytes);
    const segment = bytes.slice(start, end);
    // A copy of the store under another box instance number (En), with a byte of its claim area changed.
    const bogus = segment.slice();
    bogus[6] = 0x00;
    bogus[7] = 0x07;
    const flip = Math.floor(bogus.length / 20);
    bogus[flip] = bogus[flip]! ^ 0x10;
    // A short segment that only starts like a store.
    const junk = segment.slice(0, 200);
    junk[2] = 0;
    junk[3] = 198;
    junk[6] = 0;
    junk[7] = 0x09;
    junk.fill(0x41, 80);
    for (const [name, file] of [
      ["bogus before", concat(bytes.subarray(0, start), bogus, bytes.subarray(start))],
      ["bogus after", concat(bytes.subarray(0, end), bogus, bytes.subarray(end))],
      ["junk after", concat(bytes.subarray(0, end), junk, bytes.subarray(end))],
    ] as const) {
      const body = await json(await verifyFile(file, { key }));
      expect(body.manifest_id, name).toBe(valid.manifest_id);
      expect(body.signer?.common_name, name).toBe(valid.signer.common_name);
      // The file is not the one that was signed (data was added outside the signature): never verified.
      expect(body.status, `${name}: ${body.developer_explanation}`).toBe("asset_tampered");
      expect(body.warnings.join(" "), name).toMatch(/2 C2PA manifest stores/);
    }
    // The same in a PNG: a second, altered caBX chunk beside the signed one.
    const png = (await signedCopy(key, fixture("sample.png"), "image/png")).bytes;
    const validPng = await json(await verifyFile(png, { key }));
    expect(validPng.status).toBe("verified_manifest");
    let at = 8;
    while (at + 8 < png.length && String.fromCharCode(...png.subarray(at + 4, at + 8)) !== "caBX")
      at += 12 + new DataView(png.buffer, png.byteOffset + at, 4).getUint32(0);
    const chunk = png.slice(at, at + 12 + new DataView(png.buffer, png.byteOffset + at, 4).getUint32(0));
    const flipAt = Math.floor(chunk.length / 20);
    chunk[flipAt] = chunk[flipAt]! ^ 0x10;
    const twoPng = concat(png.subarray(0, at), chunk, png.subarray(at));
    const pngBody = await json(await verifyFile(twoPng, { key }));
    expect(pngBody.manifest_id).toBe(validPng.manifest_id);
    expect(pngBody.status, pngBody.developer_explanation).toBe("asset_tampered");
    expect(pngBody.warnings.join(" ")).toMatch(/2 C2PA manifest stores/);
  });

  it("#13.8 the same photograph signed twice (watermark_then_sign), by the same tenant or another: each output verifies on its own manifest; the others are related publications with public facts only", async () => {
    const photo = fixture("photo-bridge.jpg");
    const owner = await createTenant({ name: "Owner Newsroom Private Name" });
    const first = await signedCopy(owner.key, photo, "image/jpeg", "rcp_system_watermark_then_sign");
    const second = await signedCopy(owner.key, photo, "image/jpeg", "rcp_system_watermark_then_sign");
    const other = await createTenant({ name: "Other Agency Private Name" });
    const third = await signedCopy(other.key, photo, "image/jpeg", "rcp_system_watermark_then_sign");
    const manifests = [first, second, third].map((x) => x.job.result);
    const manifestIdOf = async (bytes: Uint8Array) => (await json(await verifyFile(bytes, { key: owner.key }))).manifest_id as string;
    const ids = [await manifestIdOf(first.bytes), await manifestIdOf(second.bytes), await manifestIdOf(third.bytes)];
    expect(new Set(ids).size).toBe(3);

    for (const [index, copy] of [second, third, first].entries()) {
      const own = ids[[1, 2, 0][index]!]!;
      const body = await json(await verifyFile(copy.bytes));
      expect(body.status, body.developer_explanation).not.toBe("conflicting_provenance");
      expect(["verified_manifest_and_watermark_match", "verified_manifest_and_fingerprint_match", "verified_manifest"]).toContain(
        body.status,
      );
      expect(body.manifest_id).toBe(own);
      // Matches are the file's own publication only; the others are related, with public facts.
      for (const m of body.matches) expect(m.manifest_id).toBe(own);
      const related = body.related_publications.map((r: { manifest_id: string }) => r.manifest_id);
      expect(related.sort()).toEqual(ids.filter((id) => id !== own).sort());
      for (const r of body.related_publications) {
        expect(Object.keys(r).sort()).toEqual(["algorithm", "distance", "kind", "manifest_id", "published_at"]);
        expect(r.published_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      }
      // Nothing private of any tenant: names, asset ids, other publications' ids.
      const text = JSON.stringify(body);
      for (const secret of ["Owner Newsroom Private Name", "Other Agency Private Name", first.assetId, second.assetId, third.assetId])
        expect(text).not.toContain(secret);
      for (const [k, m] of manifests.entries()) if (ids[k] !== own) expect(text).not.toContain(m.publication_id);
      // A check that does not apply is not reported as a failure.
      if (body.signals.watermark_present === false) expect(body.signals.watermark_payload_valid).toBeUndefined();
    }
  }, 240_000);

  it('#13.8 the verify page and reports read "not applicable" for checks that do not apply, never a red No', async () => {
    const page = await (await api("/verify")).text();
    expect(page).toContain("Not applicable");
    expect(page).toMatch(/watermark_payload_valid: "watermark_present"/);
    const { key } = await createTenant();
    const body = await json(await verifyFile(fixture("sample.png"), { key }));
    expect(body.status).toBe("no_provenance_found");
    const made = await api(`/v1/verification-evidence/${body.verification_id}/reports`, {
      method: "POST",
      key,
      body: {},
      headers: { "idempotency-key": crypto.randomUUID() },
    });
    expect(made.status, await made.clone().text()).toBeLessThan(300);
    const report = await json(made);
    const html = await (await api(`/v1/verification-reports/${report.report_id}?format=html`, { key })).text();
    const cell = (name: string) => new RegExp(`<code class="muted">${name}</code></td><td>(.*?)</td>`).exec(html)?.[1];
    expect(cell("c2pa_signature_valid")).toContain("not applicable");
    expect(cell("signer_trusted")).toContain("not applicable");
    expect(cell("watermark_payload_valid")).not.toContain('class="no"');
  });

  it("#13.9 every verification_id the API hands out resolves at GET /v1/verifications/{id}, its evidence and its history", async () => {
    const { key } = await createTenant();
    const signed = await signedCopy(key, fixture("sample.jpg"), "image/jpeg");
    const receipt = await json(await api(`/v1/receipts/${signed.job.result.receipt_id}`, { key }));
    const verified = await json(await verifyFile(signed.bytes, { key }));
    const asset = await json(await api(`/v1/assets/${signed.assetId}`, { key }));
    const stored = await json(
      await api("/v1/verifications", {
        method: "POST",
        key,
        body: { object_id: asset.publication.object_id },
        headers: { "idempotency-key": crypto.randomUUID() },
      }),
    );
    const handedOut: [string, string][] = [
      ["job result", signed.job.result.verification_id],
      ["receipt", receipt.evidence.verification_id],
      ["POST /v1/verify", verified.verification_id],
      ["POST /v1/verifications", stored.verification_id],
    ];
    for (const [where, id] of handedOut) {
      expect(id, where).toMatch(/^vfy_[a-z2-7]{16}$/);
      const res = await api(`/v1/verifications/${id}`, { key });
      const body = await json(res);
      expect(res.status, `${where}: ${JSON.stringify(body)}`).toBe(200);
      expect(body.verification_id, where).toBe(id);
    }
    const fromJob = await json(await api(`/v1/verifications/${signed.job.result.verification_id}`, { key }));
    expect(fromJob).toMatchObject({
      state: "completed",
      subject_type: "asset",
      evidence_id: signed.job.result.verification_id,
      result: { status: "verified_manifest", manifest_id: verified.manifest_id },
    });
    const fromVerify = await json(await api(`/v1/verifications/${verified.verification_id}`, { key }));
    expect(fromVerify).toMatchObject({
      state: "completed",
      subject_type: "uploaded_object",
      object_id: null,
      result: { status: verified.status, verification_id: verified.verification_id },
    });
    for (const id of [signed.job.result.verification_id, verified.verification_id]) {
      expect((await api(`/v1/verification-evidence/${id}`, { key })).status).toBe(200);
      expect((await api(`/v1/verification-history/${id}`, { key })).status).toBe(200);
    }
    // Another tenant resolves none of them.
    const other = await createTenant();
    for (const [, id] of handedOut) expect((await api(`/v1/verifications/${id}`, { key: other.key })).status).toBe(404);
  });
});
