import { describe, expect, it } from "vitest";
import { generateClientTypes } from "./client-types";

// The checked-in SDK types equal what the served contract generates. A route or schema change shows up here;
// accept it with `npm run client:generate` (which runs this file with -u).
describe("SDK types drift", () => {
  it("packages/client/src/openapi.d.ts matches the production OpenAPI document", async () => {
    await expect(await generateClientTypes()).toMatchFileSnapshot("../../../packages/client/src/openapi.d.ts");
  });
});
