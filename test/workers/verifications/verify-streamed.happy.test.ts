import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  ENGINE_READ_MAXIMUM_BYTES,
  STORED_VERIFY_MAXIMUM_BYTES,
  STREAMED_SIGNING_MAXIMUM_BYTES,
  STREAMED_VERIFY_MAXIMUM_BYTES,
} from "../../../src/catalog/limits";
import { api, createTenant, fixture, json, uploadAsset } from "../support/helpers";
import { largeMp4, largeWav, startVerification, waitForVerification } from "../support/streamed.helpers";
import { signedCopy } from "../support/verify-helpers";

/*
 * Verification by asset id and by object id of this service's own stream-signed MP4 and WAV above the engine's
 * 12 MiB read limit (issue #19): answered by streaming (media/c2pa/stream-verify.ts) instead of 413, with the
 * reference reader's codes (test/node/media/stream-verify.test.ts proves those equal c2pa-node's); a copy with one
 * media byte changed is asset_tampered with assertion.bmffHash.mismatch / assertion.dataHash.mismatch.
 */

const MiB = 1024 * 1024;

const start = startVerification;

describe.each([
  ["video/mp4", () => largeMp4(ENGINE_READ_MAXIMUM_BYTES + 1 * MiB), "bmffHash"],
  ["audio/wav", () => largeWav(ENGINE_READ_MAXIMUM_BYTES + 1 * MiB), "dataHash"],
])("a stream-signed %s above the engine's read limit", (mediaType, make, binding) => {
  it("is verified by asset id and by object id (streamed), and a changed copy is asset_tampered", { timeout: 240_000 }, async () => {
    const { key } = await createTenant();
    const { assetId, bytes } = await signedCopy(key, make(), mediaType);
    expect(bytes.length).toBeGreaterThan(ENGINE_READ_MAXIMUM_BYTES);

    const byAsset = await api("/v1/verify", { method: "POST", key, body: { asset_id: assetId } });
    const result = await json(byAsset);
    expect(byAsset.status, JSON.stringify(result)).toBe(200);
    expect(result.status).toBe("verified_manifest");
    expect(result.signals).toMatchObject({ c2pa_manifest_present: true, c2pa_signature_valid: true, signer_trusted: true });
    expect(result.developer_explanation).toContain(`assertion.${binding}.match`);
    expect(result.media_type).toBe(mediaType);

    const asset = await json(await api(`/v1/assets/${assetId}`, { key }));
    const accepted = await start(key, asset.publication.object_id);
    expect(accepted.status).toBe(202);
    const done = await waitForVerification(key, (await json(accepted)).verification_id);
    expect(done, JSON.stringify(done)).toMatchObject({
      state: "completed",
      result: { status: "verified_manifest", manifest_id: result.manifest_id },
    });

    // The same file with one media byte changed, uploaded and verified by its object id: the binding no longer holds.
    const tampered = bytes.slice();
    tampered[Math.floor(bytes.length / 2)]! ^= 0x04;
    const upload = await uploadAsset(key, tampered, mediaType, "tampered");
    const caught = await waitForVerification(key, (await json(await start(key, upload.objectId))).verification_id);
    expect(caught.state, JSON.stringify(caught)).toBe("completed");
    expect(caught.result.status).toBe("asset_tampered");
    expect(caught.result.developer_explanation).toContain(`assertion.${binding}.mismatch`);
    expect(caught.result.manifest_id).toBe(result.manifest_id);
  });
});

it("a streamed type is refused with 413 only above its streamed limit; other types keep the whole-read limit", async () => {
  const { key } = await createTenant();
  const { assetId } = await signedCopy(key, fixture("sample.mp4"), "video/mp4");
  const asset = await json(await api(`/v1/assets/${assetId}`, { key }));
  const objectId = asset.publication.object_id;
  const db = (env as unknown as { DB: D1Database }).DB;
  await db
    .prepare("UPDATE objects SET byte_length = ? WHERE id = ?")
    .bind(STREAMED_SIGNING_MAXIMUM_BYTES["video/mp4"]! + 1, objectId)
    .run();
  const byAsset = await api("/v1/verify", { method: "POST", key, body: { asset_id: assetId } });
  expect(byAsset.status).toBe(413);
  expect((await json(byAsset)).code).toBe("svc.request.too_large");
  expect((await start(key, objectId)).status).toBe(413);

  const capabilities = await json(await api("/v1/capabilities", { key }));
  expect(capabilities.limits.verify.stored_object_maximum_bytes).toBe(STORED_VERIFY_MAXIMUM_BYTES);
  expect(capabilities.limits.verify.streamed_object_maximum_bytes).toEqual(STREAMED_VERIFY_MAXIMUM_BYTES);
});
