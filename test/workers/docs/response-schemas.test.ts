import { Validator } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import { api, createTenant, fixture, json, signUploaded } from "../support/helpers";

/**
 * What the API serves validates against the served document, which validators and the SDK's generated types read.
 * A nullable field whose schema is a registered component (a receipt's `sidecar_manifest`, a stored verification's
 * `result`, a batch item's `job`/`error`, usage `caps`) must admit the null the API serves: the served document is
 * what validators and the SDK's generated types read.
 */
type Doc = { paths: Record<string, any>; components: { schemas: Record<string, any> } };

const validatorFor = (doc: Doc, schema: unknown) =>
  new Validator({ ...(schema as object), components: doc.components } as never, "2020-12", false);

describe("served bodies validate against /openapi.json", () => {
  it("a receipt of a sign-only JPEG (sidecar_manifest: null) validates against the served 200 schema", async () => {
    const { key } = await createTenant();
    const { job } = await signUploaded(key, fixture("sample.jpg"), "image/jpeg");
    const res = await api(`/v1/receipts/${job.result.receipt_id}`, { key });
    expect(res.status).toBe(200);
    const receipt = await json(res);
    expect(receipt.evidence.sidecar_manifest).toBeNull();
    const doc = await json<Doc>(await api("/openapi.json"));
    const schema = doc.paths["/v1/receipts/{receipt_id}"].get.responses["200"].content["application/json"].schema;
    const result = validatorFor(doc, schema).validate(receipt);
    expect(result.errors.map((e) => `${e.instanceLocation}: ${e.error}`)).toEqual([]);
  });

  it("an unusable cursor's 422 (svc.cursor.invalid, no `detail`) validates against each list's served 422 schema", async () => {
    const { key } = await createTenant();
    const doc = await json<Doc>(await api("/openapi.json"));
    for (const path of ["/v1/jobs", "/v1/assets", "/v1/api-keys"]) {
      const res = await api(`${path}?cursor=not-a-cursor`, { key });
      expect(res.status).toBe(422);
      const body = await json(res);
      expect(body.code).toBe("svc.cursor.invalid");
      const schema = doc.paths[path].get.responses["422"].content["application/json"].schema;
      const result = validatorFor(doc, schema).validate(body);
      expect(result.errors.map((e) => `${path} ${e.instanceLocation}: ${e.error}`)).toEqual([]);
    }
  });

  it("no schema requires an object and allows null at once (allOf of a component and a nullable type)", async () => {
    const doc = await json<Doc>(await api("/openapi.json"));
    const broken: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (!node || typeof node !== "object") return;
      const allOf = (node as { allOf?: { $ref?: string; type?: unknown }[] }).allOf;
      if (allOf?.some((s) => s.$ref) && allOf.some((s) => Array.isArray(s.type) && s.type.includes("null"))) broken.push(at);
      for (const [k, v] of Object.entries(node)) walk(v, `${at}/${k}`);
    };
    walk(doc, "#");
    expect(broken).toEqual([]);
  });
});
