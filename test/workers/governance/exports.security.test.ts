import { describe, expect, it } from "vitest";
import { ALL_SCOPES } from "../../../src/platform/auth/scopes";
import { addKey, api, callUrl, createTenant, json } from "../support/helpers";
import { exportAndWait } from "./exports.support";

describe("governance export security", () => {
  it("keeps exports to their tenant: another tenant's id answers 404 and lists hold only one's own", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const record = await exportAndWait(a.key);
    expect(record.state).toBe("completed");
    const res = await api(`/v1/governance/exports/${record.export_id}`, { key: b.key });
    expect(res.status).toBe(404);
    expect((await json(res)).code).toBe("svc.resource.not_found");
    expect((await json(await api("/v1/governance/exports", { key: b.key }))).items).toEqual([]);
    expect((await json(await api("/v1/governance/exports", { key: a.key }))).items.map((e: any) => e.export_id)).toEqual([
      record.export_id,
    ]);
  });

  it("needs governance:write to export and governance:read to look, and a credential at all", async () => {
    const { tenantId, key } = await createTenant({ scopes: ALL_SCOPES.filter((s) => s !== "governance:write") });
    const denied = await api("/v1/governance/exports", { method: "POST", key });
    expect(denied.status).toBe(403);
    const reader = await createTenant({ scopes: ALL_SCOPES.filter((s) => s !== "governance:read") });
    expect((await api("/v1/governance/exports", { key: reader.key })).status).toBe(403);
    expect((await api("/v1/governance/exports/gex_abcdefghij234567", { key: reader.key })).status).toBe(403);
    expect((await api("/v1/governance/exports", { method: "POST" })).status).toBe(401);
    // The refused POST queued nothing.
    const full = await addKey(tenantId);
    expect((await json(await api("/v1/governance/exports", { key: full.key }))).items).toEqual([]);
  });

  it("refuses a tampered download URL: signature, expiry or export id changed", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const record = await exportAndWait(a.key);
    const other = await exportAndWait(b.key);
    const url = new URL(record.download.url);
    const ok = await callUrl(url.toString(), { method: "GET" });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-disposition")).toContain("attachment");
    expect(ok.headers.get("x-content-type-options")).toBe("nosniff");
    await ok.arrayBuffer();

    const signature = url.searchParams.get("signature")!;
    const flipped = new URL(url);
    flipped.searchParams.set("signature", `${signature[0] === "A" ? "B" : "A"}${signature.slice(1)}`);
    const later = new URL(url);
    later.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 60_000));
    const elsewhere = new URL(url);
    elsewhere.pathname = `/storage/exports/${other.export_id}`;
    for (const tampered of [flipped, later, elsewhere]) {
      const res = await callUrl(tampered.toString(), { method: "GET" });
      expect(res.status, tampered.toString()).toBe(403);
      expect((await json(res)).code).toBe("svc.storage.capability_invalid");
    }
    const past = new URL(url);
    past.searchParams.set("expires", "1000");
    expect((await callUrl(past.toString(), { method: "GET" })).status).toBe(403);
  });
});
