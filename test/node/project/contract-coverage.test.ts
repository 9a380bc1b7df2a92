import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createApp } from "../../../src/app";
import { openApiDocument } from "../../../src/docs/openapi-document";

/**
 * The contract's operations (every method + path pair of the API contract, 111 of them, listed in
 * test/fixtures/contract-operations.json) are all served by the production app and documented in /openapi.json.
 */
const CONTRACT: string[] = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "fixtures", "contract-operations.json"), "utf8"));

describe("contract coverage", () => {
  it("serves every operation of the contract (111 method + path pairs) in the production OpenAPI document", () => {
    const doc = openApiDocument(createApp(), "https://api.example.com") as unknown as { paths: Record<string, Record<string, unknown>> };
    const served = new Set(
      Object.entries(doc.paths).flatMap(([path, item]) =>
        ["get", "put", "post", "delete", "patch"].filter((m) => item[m]).map((m) => `${m.toUpperCase()} ${path}`),
      ),
    );
    expect(CONTRACT).toHaveLength(111);
    expect(CONTRACT.filter((op) => !served.has(op))).toEqual([]);
  });
});
