import { describe, expect, it } from "vitest";
import { createApp } from "../../../src/app";
import { openApiDocument } from "../../../src/docs/openapi-document";

/** Keys sorted at every level: the snapshot records content, not the order routes happened to be registered in. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

// The served contract, pinned. A change to any route, schema, description or example shows up here as a diff to
// review; accept an intended one with `npx vitest run test/node/project/openapi.snapshot.test.ts -u`.
describe("OpenAPI document snapshot", () => {
  it("production document is unchanged", async () => {
    const doc = openApiDocument(createApp({ development: false }), "https://svc.example");
    await expect(`${JSON.stringify(canonical(doc), null, 1)}\n`).toMatchFileSnapshot("./__snapshots__/openapi.production.json");
  });
  it("development document is unchanged", async () => {
    const doc = openApiDocument(createApp({ development: true }), "http://127.0.0.1:8787");
    await expect(`${JSON.stringify(canonical(doc), null, 1)}\n`).toMatchFileSnapshot("./__snapshots__/openapi.development.json");
  });
});
