import { describe, expect, it } from "vitest";
import { api, createTenant, json } from "../support/helpers";

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
