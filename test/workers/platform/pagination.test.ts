import { describe, expect, it } from "vitest";
import { encodeCursor } from "../../../src/platform/pagination";
import { addKey, api, createTenant, json, testEnv } from "../support/helpers";

async function walk(key: string, limit: number) {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res = await api(`/v1/api-keys?limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`, { key });
    expect(res.status).toBe(200);
    const page = await json(res);
    ids.push(...page.items.map((k: { api_key_id: string }) => k.api_key_id));
    cursor = page.next_cursor;
    pages++;
  } while (cursor && pages < 50);
  return { ids, pages };
}

describe("cursor pagination", () => {
  it("walks every row once, newest first, including rows with equal timestamps", async () => {
    const t = await createTenant();
    const base = Date.now() - 10_000;
    for (let i = 0; i < 6; i++) await addKey(t.tenantId, { createdAt: base + Math.floor(i / 2) * 1000 }); // pairs share a timestamp
    const { ids, pages } = await walk(t.key, 3);
    expect(ids).toHaveLength(7);
    expect(new Set(ids).size).toBe(7);
    expect(pages).toBe(3);
    const all = await json(await api("/v1/api-keys?limit=100", { key: t.key }));
    expect(all.items.map((k: { api_key_id: string }) => k.api_key_id)).toEqual(ids);
    const times = all.items.map((k: { created_at: string }) => Date.parse(k.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it("is snapshot-consistent: rows created after the first page are not part of the traversal", async () => {
    const t = await createTenant();
    for (let i = 0; i < 4; i++) await addKey(t.tenantId, { createdAt: Date.now() - 60_000 + i });
    const first = await json(await api("/v1/api-keys?limit=2", { key: t.key }));
    await addKey(t.tenantId, { createdAt: Date.now() + 5 }); // appears after the snapshot
    const rest: string[] = [];
    let cursor = first.next_cursor;
    while (cursor) {
      const page = await json(await api(`/v1/api-keys?limit=2&cursor=${cursor}`, { key: t.key }));
      rest.push(...page.items.map((k: { api_key_id: string }) => k.api_key_id));
      cursor = page.next_cursor;
    }
    expect(first.items.length + rest.length).toBe(5);
    expect((await json(await api("/v1/api-keys?limit=100", { key: t.key }))).items).toHaveLength(6);
  });

  it("every unusable cursor answers one stable 422 body", async () => {
    const t = await createTenant();
    const other = await createTenant();
    for (let i = 0; i < 3; i++) await addKey(t.tenantId);
    for (let i = 0; i < 3; i++) await addKey(other.tenantId);
    const good: string = (await json(await api("/v1/api-keys?limit=1", { key: t.key }))).next_cursor;
    const othersCursor: string = (await json(await api("/v1/api-keys?limit=1", { key: other.key }))).next_cursor;
    expect(good).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(good.length).toBeLessThanOrEqual(256);

    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
    const secret = testEnv.SVC_CURSOR_SECRET!;
    const position = { traversal: "AAAAAAAAAAAA", snapshot: Date.now(), after: { createdAt: Date.now(), id: "key_aaaaaaaaaaaaaaaa" } };
    const cases: Record<string, string> = {
      "payload byte flipped": flip(good, 3),
      "MAC byte flipped": flip(good, good.length - 2),
      truncated: good.slice(0, -1),
      garbage: "garbage",
      "bad characters": "!!!***",
      "too long": "A".repeat(300),
      "another tenant's cursor": othersCursor,
      expired: await encodeCursor(secret, { tenantId: t.tenantId, collection: "api_keys" }, position, Date.now() - 25 * 3600 * 1000),
      "another collection": await encodeCursor(secret, { tenantId: t.tenantId, collection: "assets" }, position),
      "signed with another secret": await encodeCursor("not-the-secret", { tenantId: t.tenantId, collection: "api_keys" }, position),
    };
    const bodies = new Set<string>();
    for (const [label, cursor] of Object.entries(cases)) {
      const res = await api(`/v1/api-keys?limit=1&cursor=${encodeURIComponent(cursor)}`, { key: t.key });
      expect(res.status, label).toBe(422);
      const body = await json(res);
      expect(body.code, label).toBe("svc.cursor.invalid");
      bodies.add(JSON.stringify({ ...body, request_id: "" }));
    }
    expect(bodies.size).toBe(1);
    // The untouched cursor still works for its owner.
    expect((await api(`/v1/api-keys?limit=1&cursor=${good}`, { key: t.key })).status).toBe(200);
  });

  it.each(["0", "101", "abc", "-1", "2.5"])("limit=%s answers 422", async (limit) => {
    const t = await createTenant();
    const res = await api(`/v1/api-keys?limit=${limit}`, { key: t.key });
    expect(res.status).toBe(422);
    const body = await json(res);
    expect(body.code).toBe("svc.request.invalid");
    expect(body.field_details[0]).toMatchObject({ location: "query", field: "limit" });
  });

  it("defaults the page size to 50 for API keys", async () => {
    const t = await createTenant();
    for (let i = 0; i < 51; i++) await addKey(t.tenantId, { createdAt: Date.now() - 100_000 + i });
    const page = await json(await api("/v1/api-keys", { key: t.key }));
    expect(page.items).toHaveLength(50);
    expect(page.next_cursor).not.toBeNull();
  });
});
