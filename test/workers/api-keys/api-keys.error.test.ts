import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { database } from "../../../src/db/client";
import { apiKeys } from "../../../src/db/schema";
import { UNAUTHORIZED_DETAIL } from "../../../src/platform/errors";
import { addKey, api, createTenant, json, testEnv } from "../support/helpers";

describe("API keys: bad input", () => {
  it("a key cannot grant scopes it lacks", async () => {
    const { key } = await createTenant({ scopes: ["api_keys:write", "identity:read"] });
    const res = await api("/v1/api-keys", { method: "POST", key, body: { name: "x", scopes: ["billing:write"] } });
    expect(res.status).toBe(403);
    const body = await json(res);
    expect(body.code).toBe("svc.api_keys.scope_not_grantable");
    expect(body.message).toContain("billing:write");
  });

  it.each([
    ["missing name", { scopes: ["identity:read"] }, "name"],
    ["empty scopes", { name: "x", scopes: [] }, "scopes"],
    ["unknown scope", { name: "x", scopes: ["root"] }, "scopes.0"],
    ["duplicate scope", { name: "x", scopes: ["identity:read", "identity:read"] }, "scopes"],
    ["name too long", { name: "x".repeat(201), scopes: ["identity:read"] }, "name"],
    ["bad expiry", { name: "x", scopes: ["identity:read"], expires_at: "tomorrow" }, "expires_at"],
  ])("%s → 422 with field_details", async (_label, body, field) => {
    const { key } = await createTenant();
    const res = await api("/v1/api-keys", { method: "POST", key, body });
    expect(res.status).toBe(422);
    const error = await json(res);
    expect(error.code).toBe("svc.request.invalid");
    expect(error.detail).toBe("Request validation failed.");
    expect(error.field_details.map((d: { field: string }) => d.field)).toContain(field);
    expect(error.field_details[0].location).toBe("body");
  });

  it("an expiry in the past is refused", async () => {
    const { key } = await createTenant();
    const res = await api("/v1/api-keys", {
      method: "POST",
      key,
      body: { name: "x", scopes: ["identity:read"], expires_at: "2000-01-01T00:00:00Z" },
    });
    expect(res.status).toBe(422);
    expect((await json(res)).field_details[0].field).toBe("expires_at");
  });

  it("a malformed id in the path is a 422, not a 404 or 500", async () => {
    const { key } = await createTenant();
    const res = await api("/v1/api-keys/ast_abcdefghij234567", { key });
    expect(res.status).toBe(422);
    expect((await json(res)).field_details[0]).toMatchObject({ location: "path", field: "api_key_id" });
  });
});

describe("API keys: stored controls that cannot be read (review finding)", () => {
  /** Overwrites one stored JSON column of a key, as a bad migration or a hand edit could leave it. */
  async function corrupt(keyId: string, column: "scopes" | "restrictions" | "retention", value: string) {
    await database(testEnv.DB)
      .update(apiKeys)
      .set({ [column]: value })
      .where(eq(apiKeys.id, keyId));
  }

  it("a revoked key with malformed stored JSON is still refused as a credential (401), not a 500", async () => {
    const { tenantId } = await createTenant();
    const revoked = await addKey(tenantId, { status: "revoked" });
    await corrupt(revoked.keyId, "restrictions", "{not json");
    await corrupt(revoked.keyId, "scopes", "[");
    const res = await api("/v1/me", { key: revoked.key });
    expect(res.status).toBe(401);
    expect(await json(res)).toEqual({ detail: UNAUTHORIZED_DETAIL });
  });

  it.each([
    ["restrictions", "{not json"],
    ["restrictions", '{"version":1}'],
    ["scopes", '"identity:read"'],
    ["retention", '{"output_retention_days":"forever"}'],
  ] as const)("an active key whose %s hold %s fails closed: 503 svc.auth.unavailable, logged without the value", async (column, value) => {
    const { keyId, key } = await createTenant();
    await corrupt(keyId, column, value);
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const res = await api("/v1/me", { key });
      expect(res.status).toBe(503);
      expect(await json(res)).toMatchObject({ code: "svc.auth.unavailable", retryable: true });
      const lines = errors.mock.calls.map((args) => String(args[0])).filter((line) => line.includes("api key controls unreadable"));
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({ level: "error", api_key_id: keyId, columns: [column] });
      expect(lines[0]).not.toContain(value);
      expect(lines[0]).not.toContain(key);
    } finally {
      errors.mockRestore();
    }
  });
});
