import { describe, expect, it } from "vitest";
import { database } from "../../../src/db/client";
import { jobs } from "../../../src/db/schema";
import { newId } from "../../../src/platform/ids";
import { addKey, api, createTenant, json, type TestTenant, testEnv } from "../support/helpers";
import { createEndpoint } from "../support/webhooks.helpers";

/*
 * #13.14: DELETE /v1/history/snapshots ends a traversal for every list, and only for the tenant that released it.
 */

async function insertJobs(tenantId: string, count: number) {
  const now = Date.now();
  for (let i = 0; i < count; i++) {
    await database(testEnv.DB)
      .insert(jobs)
      .values({
        id: newId("job"),
        tenantId,
        assetId: newId("asset"),
        recipeId: "rcp_system_sign_only",
        recipeVersion: 1,
        policyVersion: "p1",
        activePlanRevision: 1,
        kind: "sign_only",
        mode: "standard",
        state: "failed",
        admitted: "{}",
        errorCode: "svc.test",
        errorMessage: "inserted by the test",
        terminalAt: now - 1000 + i,
        createdAt: now - 10_000 + i,
        updatedAt: now - 1000 + i,
      });
  }
}

async function nextCursor(path: string, key: string): Promise<string> {
  const res = await api(path, { key });
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(200);
  expect(body.next_cursor, path).toEqual(expect.any(String));
  return body.next_cursor;
}

const release = (cursor: string, key: string) => api(`/v1/history/snapshots?cursor=${cursor}`, { method: "DELETE", key });

async function expectRefused(path: string, key: string) {
  const res = await api(path, { key });
  expect(res.status, path).toBe(422);
  expect((await json(res)).code, path).toBe("svc.cursor.invalid");
}

describe("#13.14 cursor releases", () => {
  it("#13.14 GET /v1/jobs honours a release", async () => {
    const t = await createTenant();
    await insertJobs(t.tenantId, 3);
    const cursor = await nextCursor("/v1/jobs?limit=1", t.key);
    expect((await api(`/v1/jobs?limit=1&cursor=${cursor}`, { key: t.key })).status).toBe(200);
    expect((await release(cursor, t.key)).status).toBe(204);
    await expectRefused(`/v1/jobs?limit=1&cursor=${cursor}`, t.key);
  });

  it("#13.14 every list honours a release (API keys, webhook endpoints, request logs, jobs)", async () => {
    const t = await createTenant();
    await insertJobs(t.tenantId, 3);
    for (let i = 0; i < 2; i++) await addKey(t.tenantId);
    for (let i = 0; i < 2; i++) await createEndpoint(t.key, { url: `https://hooks.example.com/svc/${i}` });
    // Request logs are written after the response: wait until there are enough for two pages.
    for (let i = 0; i < 50; i++) {
      const logs = await json(await api(`/v1/api-request-logs?limit=100&api_key_id=${t.keyId}`, { key: t.key }));
      if (logs.items.length >= 3) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    for (const path of [
      "/v1/jobs?limit=1",
      "/v1/api-keys?limit=1",
      "/v1/webhook-endpoints?limit=1",
      `/v1/api-request-logs?limit=1&api_key_id=${t.keyId}`,
    ]) {
      const cursor = await nextCursor(path, t.key);
      expect((await release(cursor, t.key)).status, path).toBe(204);
      await expectRefused(`${path}&cursor=${cursor}`, t.key);
    }
  });

  it("#13.14 a release ends the whole traversal: cursors of later pages stop too, other traversals go on", async () => {
    const t = await createTenant();
    for (let i = 0; i < 4; i++) await addKey(t.tenantId, { createdAt: Date.now() - 10_000 + i });
    const first = await nextCursor("/v1/api-keys?limit=1", t.key);
    const second = await nextCursor(`/v1/api-keys?limit=1&cursor=${first}`, t.key);
    const other = await nextCursor("/v1/api-keys?limit=2", t.key);
    expect((await release(first, t.key)).status).toBe(204);
    await expectRefused(`/v1/api-keys?limit=1&cursor=${second}`, t.key);
    expect((await api(`/v1/api-keys?limit=2&cursor=${other}`, { key: t.key })).status).toBe(200);
    // Releasing again is harmless.
    expect((await release(second, t.key)).status).toBe(204);
  });

  it("#13.14 releases are tenant-scoped: B cannot release A's traversal, and B's attempt does not stop A releasing it", async () => {
    const a: TestTenant = await createTenant();
    const b: TestTenant = await createTenant();
    for (const t of [a, b]) for (let i = 0; i < 2; i++) await addKey(t.tenantId);
    const aCursor = await nextCursor("/v1/api-keys?limit=1", a.key);
    const bCursor = await nextCursor("/v1/api-keys?limit=1", b.key);

    // B presents A's cursor: it is not B's, so there is nothing of B's to release, and A's traversal goes on.
    const foreign = await release(aCursor, b.key);
    expect(foreign.status).toBe(422);
    expect((await json(foreign)).code).toBe("svc.cursor.invalid");
    expect((await api(`/v1/api-keys?limit=1&cursor=${aCursor}`, { key: a.key })).status).toBe(200);

    // A releases its own traversal: that works although B tried first, and B's traversal is untouched.
    expect((await release(aCursor, a.key)).status).toBe(204);
    await expectRefused(`/v1/api-keys?limit=1&cursor=${aCursor}`, a.key);
    expect((await api(`/v1/api-keys?limit=1&cursor=${bCursor}`, { key: b.key })).status).toBe(200);

    // And the other way round.
    expect((await release(bCursor, a.key)).status).toBe(422);
    expect((await api(`/v1/api-keys?limit=1&cursor=${bCursor}`, { key: b.key })).status).toBe(200);
    expect((await release(bCursor, b.key)).status).toBe(204);
    await expectRefused(`/v1/api-keys?limit=1&cursor=${bCursor}`, b.key);
  });
});
