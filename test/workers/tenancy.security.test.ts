import { describe, expect, it } from "vitest";
import { api, createTenant, json, type TestTenant } from "./helpers";

/**
 * Every route that takes a tenant-owned id: a second tenant's key must get exactly what a missing id gets
 * (404, same code), and the owner must still see the resource afterwards. Later areas add their rows here.
 */
interface IdRoute {
  name: string;
  /** Creates the resource as `owner` and returns its id. */
  create: (owner: TestTenant) => Promise<string>;
  /** Requests touching the id; mutating ones must leave the owner's resource untouched. */
  requests: { method: string; path: (id: string) => string; body?: unknown }[];
  /** The owner's view after the other tenant's attempts. */
  ownerCheck: (owner: TestTenant, id: string) => Promise<void>;
  missingId: string;
}

const ROUTES: IdRoute[] = [
  {
    name: "API keys",
    create: async (owner) => {
      const res = await api("/v1/api-keys", { method: "POST", key: owner.key, body: { name: "victim", scopes: ["identity:read"] } });
      expect(res.status).toBe(201);
      return (await json(res)).api_key.api_key_id;
    },
    requests: [
      { method: "GET", path: (id) => `/v1/api-keys/${id}` },
      { method: "DELETE", path: (id) => `/v1/api-keys/${id}` },
    ],
    ownerCheck: async (owner, id) => {
      const res = await api(`/v1/api-keys/${id}`, { key: owner.key });
      expect(res.status).toBe(200);
      expect((await json(res)).status).toBe("active");
    },
    missingId: "key_aaaaaaaaaaaaaaaa",
  },
];

describe("tenant isolation", () => {
  for (const route of ROUTES) {
    it(`${route.name}: another tenant's id answers exactly like a missing one`, async () => {
      const owner = await createTenant({ name: "owner" });
      const intruder = await createTenant({ name: "intruder" });
      const id = await route.create(owner);
      for (const request of route.requests) {
        const foreign = await api(request.path(id), { method: request.method, key: intruder.key, body: request.body });
        const missing = await api(request.path(route.missingId), { method: request.method, key: intruder.key, body: request.body });
        expect(foreign.status, `${request.method} foreign`).toBe(404);
        expect(missing.status, `${request.method} missing`).toBe(404);
        const a = await json(foreign);
        const b = await json(missing);
        expect({ ...a, request_id: "" }).toEqual({ ...b, request_id: "" });
      }
      await route.ownerCheck(owner, id);
    });
  }

  it("lists only ever show the caller's own rows", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const res = await api("/v1/api-keys?limit=100", { key: b.key });
    const ids = (await json(res)).items.map((k: { api_key_id: string }) => k.api_key_id);
    expect(ids).toContain(b.keyId);
    expect(ids).not.toContain(a.keyId);
  });
});
