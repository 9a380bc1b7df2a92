import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { parseCheckpointBody, verifyCheckpoint } from "../../../src/anchoring/checkpoint";
import { logKeys, sealPending } from "../../../src/anchoring/log";
import { verifyConsistency, verifyInclusion } from "../../../src/anchoring/merkle";
import { api, BASE, createTenant, fixture, json, testEnv } from "../support/helpers";
import { signedCopy, verifyFile } from "../support/verify-helpers";

const fromHex = (h: string) => Uint8Array.from(h.match(/../g) ?? [], (x) => parseInt(x, 16));
const publicGet = (path: string) => (exports as unknown as { default: Fetcher }).default.fetch(`${BASE}${path}`);

describe("manifest transparency log", () => {
  it("publications are appended, sealed into signed checkpoints, provable in receipts, consistent, and checked by verify", async () => {
    const { key } = await createTenant();
    const first = [await signedCopy(key, fixture("sample.jpg"), "image/jpeg"), await signedCopy(key, fixture("sample.png"), "image/png")];
    const pending = await json(await api(`/v1/receipts/${first[0]!.job.result.receipt_id}`, { key }));
    expect(pending.evidence.anchor).toMatchObject({ status: "pending", leaf_index: null });
    expect((await json(await verifyFile(first[0]!.bytes))).signals.anchor_match).toBeUndefined(); // pending: not computed, warned

    expect(await sealPending(testEnv)).toMatchObject({ status: "sealed", tree_size: 2, added: 2 });
    expect(await sealPending(testEnv)).toEqual({ status: "nothing_pending" });

    const checkpoint = await json(await publicGet("/v1/anchor/checkpoint"));
    expect(checkpoint).toMatchObject({ tree_size: 2, origin: "svc.local/manifest-log" });
    const keys = await logKeys(testEnv)!;
    const head = await verifyCheckpoint(checkpoint.checkpoint, keys.publicKey);
    expect(head.status).toBe("valid");

    for (const copy of first) {
      const receipt = await json(await api(`/v1/receipts/${copy.job.result.receipt_id}`, { key }));
      const anchor = receipt.evidence.anchor;
      expect(anchor).toMatchObject({ status: "sealed", tree_size: 2 });
      const body = parseCheckpointBody(`${anchor.checkpoint.split("\n\n")[0]}\n`)!;
      expect(
        await verifyInclusion({
          leafHash: fromHex(anchor.leaf_hash),
          index: anchor.leaf_index,
          treeSize: anchor.tree_size,
          proof: anchor.inclusion_proof.map(fromHex),
          rootHash: body.rootHash,
        }),
      ).toBe(true);
      const verdict = await json(await verifyFile(copy.bytes));
      expect(verdict.signals.anchor_match, JSON.stringify(verdict.warnings)).toBe(true);
    }

    await signedCopy(key, fixture("sample.tif"), "image/tiff");
    const [a, b] = await Promise.all([sealPending(testEnv), sealPending(testEnv)]);
    // Two sealers at once: exactly one wins; the log never forks.
    expect([a.status, b.status].filter((s) => s === "sealed")).toHaveLength(1);
    expect([a.status, b.status].every((s) => ["sealed", "lost_race", "nothing_pending"].includes(s))).toBe(true);
    const latest = await json(await publicGet("/v1/anchor/checkpoint"));
    expect(latest.tree_size).toBe(3);
    const older = await json(await publicGet("/v1/anchor/checkpoints/2"));
    const consistency = await json(await publicGet("/v1/anchor/consistency?first=2&second=3"));
    expect(
      await verifyConsistency({
        oldSize: 2,
        newSize: 3,
        oldRoot: fromHex(older.root_hash),
        newRoot: fromHex(latest.root_hash),
        proof: consistency.proof.map(fromHex),
      }),
    ).toBe(true);

    // A file never published here is simply not in the log.
    expect((await publicGet("/v1/anchor/checkpoints/99")).status).toBe(404);
  });
});
