import SwaggerParser from "@apidevtools/swagger-parser";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { createApp, META_PATHS } from "../../../src/app";
import { openApiDocument } from "../../../src/docs/openapi-document";
import { OPERATION_POLICIES, openApiPath } from "../../../src/platform/auth/policy";

// The development app: everything production serves plus the /dev/* routes the policy table classifies.
const app = createApp({ development: true });
const doc = openApiDocument(app, "http://127.0.0.1:8787") as any;
const METHODS = ["get", "put", "post", "delete", "patch"];
const operations = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
  METHODS.filter((m) => item[m]).map((method) => ({ path, method, op: item[method] })),
);

describe("OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    expect(doc.openapi).toBe("3.1.0");
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("#13.18 passes a second, independent validator (swagger-parser: schema, $refs resolved, unique operation ids)", async () => {
    // A deep copy: the parser dereferences in place.
    const api = await SwaggerParser.validate(structuredClone(doc));
    expect(api.info.title).toBe(doc.info.title);
  });

  it("#13.18 marks Idempotency-Key exactly as the idempotency middleware enforces it (present iff taken, required iff refused without it)", () => {
    const wrong: string[] = [];
    for (const { path, method, op } of operations) {
      const policy = OPERATION_POLICIES[`${method.toUpperCase()} ${path}`]!;
      // src/platform/idempotency.ts acts only on bearer operations the table marks.
      const taken = policy.auth === "bearer" ? policy.idempotency : undefined;
      const params = (op.parameters ?? []).filter((p: any) => p.in === "header" && p.name.toLowerCase() === "idempotency-key");
      const where = `${method.toUpperCase()} ${path}`;
      if (params.length !== (taken ? 1 : 0)) wrong.push(`${where}: ${params.length} Idempotency-Key parameters, policy ${taken ?? "none"}`);
      else if (taken && params[0].required !== (taken === "required"))
        wrong.push(`${where}: required=${params[0].required}, policy ${taken}`);
      if (taken === "required" && !JSON.stringify(op.responses["422"] ?? {}).includes("svc.idempotency.key_required"))
        wrong.push(`${where}: 422 does not name key_required`);
    }
    expect(wrong).toEqual([]);
  });

  it("#13.18 documents 429 API_KEY_RATE_LIMITED with Retry-After and a 403 error envelope on every keyed operation", () => {
    expect(doc.components.headers["Retry-After"]).toMatchObject({ required: true, schema: { type: "integer" } });
    const refs = (response: any) => {
      const schema = response?.content?.["application/json"]?.schema ?? {};
      return [schema, ...(schema.anyOf ?? [])].map((s: any) => s.$ref).filter(Boolean);
    };
    let keyed = 0;
    for (const { path, method, op } of operations) {
      const policy = OPERATION_POLICIES[`${method.toUpperCase()} ${path}`]!;
      const where = `${method.toUpperCase()} ${path}`;
      if (policy.auth !== "bearer" && policy.auth !== "optional_bearer" && policy.auth !== "delegated") {
        expect(JSON.stringify(op.responses["429"] ?? {}), where).not.toContain("API_KEY_RATE_LIMITED");
        continue;
      }
      keyed++;
      expect(op.responses["429"]?.description, where).toContain("API_KEY_RATE_LIMITED");
      expect(op.responses["429"].headers?.["Retry-After"], where).toEqual({ $ref: "#/components/headers/Retry-After" });
      expect(refs(op.responses["429"]), where).toContain("#/components/schemas/ErrorResponse");
      expect(refs(op.responses["403"]), where).toEqual(
        expect.arrayContaining(["#/components/schemas/ErrorResponse", "#/components/schemas/HttpErrorResponse"]),
      );
      expect(op.responses["403"].description, where).toContain("API_KEY_IP_NOT_ALLOWED");
    }
    expect(keyed).toBeGreaterThan(50);
  });

  it("lists every route the app serves (documentation pages aside)", () => {
    const served = app.routes
      .filter((r) => r.method !== "ALL" && !(META_PATHS as readonly string[]).includes(r.path))
      .map((r) => `${r.method} ${openApiPath(r.path)}`);
    expect(served.length).toBeGreaterThan(0);
    const documented = new Set(operations.map((o) => `${o.method.toUpperCase()} ${o.path}`));
    for (const route of new Set(served)) expect(documented, route).toContain(route);
  });

  it("classifies every operation in the policy table, and the table names no phantom operation", () => {
    const documented = new Set(operations.map((o) => `${o.method.toUpperCase()} ${o.path}`));
    for (const key of documented) expect(OPERATION_POLICIES[key], key).toBeDefined();
    const meta = new Set(META_PATHS.map((p) => `GET ${p}`));
    for (const key of Object.keys(OPERATION_POLICIES).filter((k) => !k.includes("/test/"))) {
      expect(documented.has(key) || meta.has(key), key).toBe(true);
    }
  });

  it("documents security, scope and error responses from the policy table", () => {
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
    for (const { path, method, op } of operations) {
      const policy = OPERATION_POLICIES[`${method.toUpperCase()} ${path}`]!;
      expect(op.operationId, path).toMatch(/^[a-z][A-Za-z]+$/);
      expect(op.responses["500"], path).toBeDefined();
      if (policy.auth === "bearer") {
        expect(op.security).toEqual([{ bearer: [] }]);
        expect(op["x-svc-scope"]).toBe(policy.scope);
        for (const status of ["401", "403", "503"]) expect(op.responses[status], `${path} ${status}`).toBeDefined();
      } else if (policy.auth === "optional_bearer") {
        // Public without a credential, bearer with one; a bad credential is 401 svc.auth.invalid_key.
        expect(op.security).toEqual([{ bearer: [] }, {}]);
        expect(op["x-svc-scope"]).toBe(policy.scope);
        for (const status of ["401", "403"]) expect(op.responses[status], `${path} ${status}`).toBeDefined();
      } else if (policy.auth === "delegated") {
        // Any valid credential; no scope of its own: each operation it performs with the credential checks its own.
        expect(op.security).toEqual([{ bearer: [] }]);
        expect(op["x-svc-scope"]).toBeUndefined();
        expect(op["x-svc-scope-check"]).toBe("delegated");
        for (const status of ["401", "403", "503"]) expect(op.responses[status], `${path} ${status}`).toBeDefined();
      } else {
        expect(op.security).toEqual([]);
      }
      const success = Object.keys(op.responses).filter((s) => s.startsWith("2"));
      expect(success.length, path).toBeGreaterThan(0);
    }
  });

  it("has unique operation ids", () => {
    const ids = operations.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("describes every field of every schema", () => {
    const undocumented: string[] = [];
    const visit = (schema: any, where: string) => {
      if (!schema || typeof schema !== "object") return;
      for (const [name, prop] of Object.entries<any>(schema.properties ?? {})) {
        const described = prop.description || prop.$ref || prop.allOf || prop.anyOf?.some((s: any) => s.$ref || s.description);
        if (!described) undocumented.push(`${where}.${name}`);
        visit(prop, `${where}.${name}`);
      }
      if (schema.items) visit(schema.items, `${where}[]`);
      for (const s of [...(schema.anyOf ?? []), ...(schema.allOf ?? []), ...(schema.oneOf ?? [])]) visit(s, where);
    };
    for (const [name, schema] of Object.entries<any>(doc.components.schemas)) visit(schema, name);
    for (const { path, method, op } of operations) {
      for (const p of op.parameters ?? []) if (!p.description && !p.schema?.description) undocumented.push(`${method} ${path} ${p.name}`);
    }
    expect(undocumented).toEqual([]);
  });
});
