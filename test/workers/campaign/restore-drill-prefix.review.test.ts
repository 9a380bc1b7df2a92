import { describe, expect, it } from "vitest";
import { restoreTenant } from "../../../src/dev/restore-drill";
import { tarEnd, tarHeader, tarPadding } from "../../../src/governance/exports/tar";
import { createTenant, fixture, sha256HexOf, testEnv, uploadAsset } from "../support/helpers";

/*
 * Review of the restore drill (#22): a crafted archive must not write another tenant's keys. The guard checks that
 * each object's r2_key starts with `t/{tenant_id}/`, but the archive names tenant_id itself: a tenant id with a "/"
 * (say `{victim}/o`, absent, so the restore proceeds) makes `t/{victim}/o/…`, the victim's own upload key, pass as
 * "inside the prefix". The restore then overwrites the victim's bytes.
 */

const enc = new TextEncoder();

async function archiveOf(tenantId: string, members: [string, Uint8Array][]): Promise<Uint8Array> {
  const files = [];
  for (const [path, b] of members) files.push({ path, size: b.length, sha256: await sha256HexOf(b) });
  const manifest = enc.encode(JSON.stringify({ format: "svc.governance-export.v1", export_id: "exp_crafted", tenant_id: tenantId, files }));
  const parts: Uint8Array[] = [];
  for (const [name, b] of [["manifest.json", manifest] as [string, Uint8Array], ...members])
    parts.push(tarHeader(name, b.length, 0), b, tarPadding(b.length));
  parts.push(tarEnd());
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

describe("restore drill, crafted tenant id (#22 review, security)", () => {
  it("cannot overwrite another tenant's R2 object through a tenant id containing '/'", async () => {
    const victim = await createTenant();
    const original = fixture("sample.jpg");
    const { assetId } = await uploadAsset(victim.key, original, "image/jpeg", "photo.jpg");
    const db = testEnv.DB;
    const object = (await db.prepare("SELECT * FROM objects WHERE tenant_id = ? AND asset_id = ?").bind(victim.tenantId, assetId).first())!;
    const key = String(object.r2_key);
    const segments = key.split("/");
    expect(segments.length).toBeGreaterThanOrEqual(4); // t/{victim}/{x}/…
    const crafted = `${segments[1]}/${segments[2]}`; // absent as a tenant: the drill goes on
    expect(key.startsWith(`t/${crafted}/`)).toBe(true);

    const tenantRow = { ...(await db.prepare("SELECT * FROM tenants WHERE id = ?").bind(victim.tenantId).first())!, id: crafted };
    const asset = (await db.prepare("SELECT * FROM assets WHERE id = ?").bind(assetId).first())!;
    const assetRow = { ...asset, id: "ast_crafted0000000000", tenant_id: crafted, source_object_id: "obj_crafted0000000000" };
    const objectRow = { ...object, id: "obj_crafted0000000000", tenant_id: crafted, asset_id: "ast_crafted0000000000" };
    const evil = enc.encode("not the victim's photo");
    const archive = await archiveOf(crafted, [
      ["records/tenant/000001.jsonl", enc.encode(`${JSON.stringify(tenantRow)}\n`)],
      ["records/assets/000001.jsonl", enc.encode(`${JSON.stringify(assetRow)}\n`)],
      ["records/objects/000001.jsonl", enc.encode(`${JSON.stringify(objectRow)}\n`)],
      ["objects/obj_crafted0000000000", evil],
    ]);

    const result = await restoreTenant(testEnv, archive);
    // Whatever the drill answers, the victim's bytes must be untouched.
    const stored = new Uint8Array(await (await testEnv.OBJECTS.get(key))!.arrayBuffer());
    expect(await sha256HexOf(stored)).toBe(await sha256HexOf(original)); // fails: the victim's upload is now `evil`
    expect(result).toMatchObject({ ok: false });
  });
});
