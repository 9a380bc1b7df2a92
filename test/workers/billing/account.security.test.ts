import { describe, expect, it } from "vitest";
import { FORBIDDEN_SCOPE_DETAIL, UNAUTHORIZED_DETAIL } from "../../../src/platform/errors";
import { api, createTenant, json } from "../support/helpers";
import { NO_AUTO } from "./wallet-helpers";

const READS: [string, string, unknown?][] = [
  ["GET", "/v1/billing/account"],
  ["GET", "/v1/billing/plans"],
  ["GET", "/v1/billing/pricing"],
  ["POST", "/v1/billing/quotes", { media_family: "image", operation: "sign" }],
  ["GET", "/v1/billing/wallet"],
  ["GET", "/v1/billing/charges"],
  ["GET", "/v1/usage"],
];

describe("billing operations: credentials and scopes", () => {
  it("401 without a key or with a bad one, on every operation", async () => {
    for (const [method, path, body] of [
      ...READS,
      ["PUT", "/v1/billing/wallet/settings", { auto_recharge: NO_AUTO, expected_version: 0 }] as const,
    ]) {
      for (const key of [null, "svc_live_not_a_real_key"]) {
        const res = await api(path, { method, key, body });
        expect(res.status, `${method} ${path}`).toBe(401);
        expect(await json(res)).toEqual({ detail: UNAUTHORIZED_DETAIL });
      }
    }
  });

  it("the read operations need billing:read (billing:write alone is refused)", async () => {
    const writer = await createTenant({ scopes: ["billing:write"] });
    const reader = await createTenant({ scopes: ["billing:read"] });
    for (const [method, path, body] of READS) {
      const refused = await api(path, { method, key: writer.key, body });
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(await json(refused)).toEqual({ detail: FORBIDDEN_SCOPE_DETAIL });
      expect((await api(path, { method, key: reader.key, body })).status, `${method} ${path}`).toBe(200);
    }
  });

  it("the settings need billing:write: billing:read cannot change them (and nothing is created)", async () => {
    const reader = await createTenant({ scopes: ["billing:read"] });
    const res = await api("/v1/billing/wallet/settings", {
      method: "PUT",
      key: reader.key,
      body: { auto_recharge: NO_AUTO, expected_version: 0 },
    });
    expect(res.status).toBe(403);
    expect(await json(res)).toEqual({ detail: FORBIDDEN_SCOPE_DETAIL });
    expect((await json(await api("/v1/billing/wallet", { key: reader.key }))).version).toBe(0);
  });

  it("each tenant has its own account", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const accountA = await json(await api("/v1/billing/account", { key: a.key }));
    const accountB = await json(await api("/v1/billing/account", { key: b.key }));
    expect(accountA.id).not.toBe(accountB.id);
    expect(accountA.id).toBe(`acct_${a.tenantId.slice(4)}`);
  });
});
