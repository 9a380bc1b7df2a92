import { describe, expect, it } from "vitest";
import { ENGINE_READ_MAXIMUM_BYTES, STREAMED_SIGNING_MAXIMUM_BYTES } from "../../../src/catalog/limits";
import { FLAC_STORE_OFFSET } from "../../../src/media/c2pa/flac";
import { largeFlac } from "../../support/flac-media";
import { api, createTenant, json, uploadAsset } from "../support/helpers";
import { startVerification, waitForVerification } from "../support/streamed.helpers";
import { signedCopy } from "../support/verify-helpers";

/*
 * A FLAC above the embedded signing limit through the public API (issue #19): uploaded, signed sign-only by
 * streaming (media/c2pa/flac.ts: the manifest in an ID3v2 tag before `fLaC`, as the engine writes it), downloaded
 * with the FLAC's bytes unchanged after the tag, and verified by asset id and by object id by streaming (it is above
 * the engine's read limit); a copy with one audio byte changed is asset_tampered. The reference reader's verdict on
 * such an output is checked in Node (test/node/media/stream-sign-flac.test.ts, test/node/jobs/streamed-signing.e2e).
 */

const MiB = 1024 * 1024;

describe("a FLAC above the embedded limit, sign-only", () => {
  it("is signed by streaming, downloads whole, and verifies by asset id and object id", { timeout: 240_000 }, async () => {
    const { key } = await createTenant();
    const caps = await json(await api("/v1/capabilities", { key }));
    expect(caps.limits.streamed_signing_maximum_bytes["audio/flac"]).toBe(STREAMED_SIGNING_MAXIMUM_BYTES["audio/flac"]);
    const flac = caps.media.find((m: { media_type: string }) => m.media_type === "audio/flac");
    expect(flac.upload.maximum_bytes).toBe(STREAMED_SIGNING_MAXIMUM_BYTES["audio/flac"]);

    const input = largeFlac(ENGINE_READ_MAXIMUM_BYTES + 1 * MiB, 21);
    expect(input.length).toBeGreaterThan(caps.limits.embedded_signing_maximum_bytes);
    const { assetId, bytes, job } = await signedCopy(key, input, "audio/flac");
    // Upload completion read STREAMINFO whole: the facts the in-memory inspector gives a small FLAC, not only the duration.
    expect(job.media_inspection).toMatchObject({ container: "flac", audio_codec: "flac", sample_rate: 48000, channels: 2, bit_depth: 16 });
    expect(job.media_inspection.duration_seconds).toBeGreaterThan(0);
    // ID3v2.4 tag carrying the store, then the upload's bytes unchanged.
    expect(String.fromCharCode(...bytes.subarray(0, 4))).toBe("ID3\x04");
    expect(String.fromCharCode(...bytes.subarray(10, 14))).toBe("GEOB");
    const tail = bytes.subarray(bytes.length - input.length);
    expect(tail.every((b, i) => b === input[i])).toBe(true);
    expect(bytes.length - input.length).toBeGreaterThan(FLAC_STORE_OFFSET);

    const byAsset = await api("/v1/verify", { method: "POST", key, body: { asset_id: assetId } });
    const result = await json(byAsset);
    expect(byAsset.status, JSON.stringify(result)).toBe(200);
    expect(result.status).toBe("verified_manifest");
    expect(result.signals).toMatchObject({ c2pa_manifest_present: true, c2pa_signature_valid: true, signer_trusted: true });
    expect(result.developer_explanation).toContain("assertion.dataHash.match");
    expect(result.media_type).toBe("audio/flac");

    const asset = await json(await api(`/v1/assets/${assetId}`, { key }));
    const accepted = await startVerification(key, asset.publication.object_id);
    expect(accepted.status).toBe(202);
    const done = await waitForVerification(key, (await json(accepted)).verification_id);
    expect(done, JSON.stringify(done)).toMatchObject({
      state: "completed",
      result: { status: "verified_manifest", manifest_id: result.manifest_id },
    });

    // One audio byte changed (the frame CRC fixed up is not needed: verification hashes, it does not decode).
    const tampered = bytes.slice();
    tampered[bytes.length - Math.floor(input.length / 2)]! ^= 0x04;
    const upload = await uploadAsset(key, tampered, "audio/flac", "tampered");
    const caught = await waitForVerification(key, (await json(await startVerification(key, upload.objectId))).verification_id);
    expect(caught.state, JSON.stringify(caught)).toBe("completed");
    expect(caught.result.status).toBe("asset_tampered");
    expect(caught.result.developer_explanation).toContain("assertion.dataHash.mismatch");
  });
});
