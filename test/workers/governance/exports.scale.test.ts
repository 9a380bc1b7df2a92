import { describe, expect, it } from "vitest";
import { database } from "../../../src/db/client";
import { assets, objects } from "../../../src/db/schema";
import { PART_BYTES } from "../../../src/governance/exports/archive";
import { RECORDS_PER_FILE } from "../../../src/governance/exports/seal";
import { readTar } from "../../../src/governance/exports/tar";
import { newId } from "../../../src/platform/ids";
import { createTenant, sha256HexOf, testEnv } from "../support/helpers";
import { downloadArchive, exportAndWait } from "./exports.support";

/** Seeds `count` assets straight into D1 and R2, each with one stored object of `size(i)` bytes. */
async function seed(tenantId: string, count: number, size: (i: number) => number) {
  const db = database(testEnv.DB);
  const now = Date.now() - 60_000;
  const assetRows: (typeof assets.$inferInsert)[] = [];
  const objectRows: (typeof objects.$inferInsert)[] = [];
  for (let i = 0; i < count; i++) {
    const assetId = newId("asset");
    const objectId = newId("object");
    const bytes = new Uint8Array(size(i)).map((_, j) => (i * 31 + j) & 0xff);
    const r2Key = `t/${tenantId}/objects/${objectId}`;
    const stored = await testEnv.OBJECTS.put(r2Key, bytes);
    assetRows.push({
      id: assetId,
      tenantId,
      kind: "image",
      status: "uploaded",
      sourceObjectId: objectId,
      createdAt: now + i,
      updatedAt: now + i,
    });
    objectRows.push({
      id: objectId,
      tenantId,
      assetId,
      role: "source",
      r2Key,
      etag: stored!.etag,
      byteLength: bytes.length,
      sha256: await sha256HexOf(bytes),
      mediaType: "image/jpeg",
      createdAt: now + i,
    });
  }
  for (let i = 0; i < count; i += 10) {
    await db.insert(assets).values(assetRows.slice(i, i + 10));
    await db.insert(objects).values(objectRows.slice(i, i + 10));
  }
}

describe("governance exports at scale", () => {
  it("pages hundreds of assets into records files of up to 1,000 rows and streams an archive of several R2 parts", async () => {
    const { key, tenantId } = await createTenant();
    const count = 450;
    // One object larger than two parts, so the archive spans three multipart parts of R2.
    await seed(tenantId, count, (i) => (i === 7 ? 2 * PART_BYTES + 12_345 : 700 + (i % 50)));

    const record = await exportAndWait(key);
    expect(record.state, JSON.stringify(record)).toBe("completed");
    expect(record.counts).toMatchObject({ assets: count, objects: count, objects_omitted: 0 });
    expect(record.bytes).toBeGreaterThan(2 * PART_BYTES);

    const archive = await downloadArchive(record);
    expect(await sha256HexOf(archive)).toBe(record.archive_sha256);
    const members = readTar(archive);
    const assetFiles = members.filter((m) => m.name.startsWith("records/assets/"));
    // 1,000 rows per D1 query and file (the query budget: one attempt must fit Workers' 1,000 D1 queries).
    expect(RECORDS_PER_FILE).toBe(1000);
    expect(assetFiles.map((m) => m.name)).toEqual(["records/assets/000001.jsonl"]);
    for (const file of assetFiles)
      expect(new TextDecoder().decode(file.bytes).trim().split("\n").length).toBeLessThanOrEqual(RECORDS_PER_FILE);
    const manifest = JSON.parse(new TextDecoder().decode(members.find((m) => m.name === "manifest.json")!.bytes));
    const byName = new Map(members.map((m) => [m.name, m.bytes]));
    for (const file of manifest.files) expect(await sha256HexOf(byName.get(file.path)!), file.path).toBe(file.sha256);
    expect(manifest.files.filter((f: any) => f.path.startsWith("objects/"))).toHaveLength(count);
  }, 120_000);
});
