import { describe, expect, it } from "vitest";
import { api, json } from "../support/helpers";

/**
 * A 404 or 415 a client can meet names its code in /openapi.json, as every other documented error does: a reader
 * branching on `code` should not have to trigger the error to learn it. Development-only routes (`/dev/…`) answer
 * `svc.route.not_found` outside development and are left out.
 */
describe("/openapi.json names the code of every 404 and 415", () => {
  it("every operation's 404 and 415 description names an svc. code", async () => {
    const doc = await json<{ paths: Record<string, Record<string, { responses?: Record<string, { description?: string }> }>> }>(
      await api("/openapi.json"),
    );
    const unnamed: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      if (path.startsWith("/dev/")) continue;
      for (const [method, op] of Object.entries(item)) {
        for (const status of ["404", "415"]) {
          const description = op.responses?.[status]?.description;
          if (description !== undefined && !/`svc\.[a-z_.]+`/.test(description)) unnamed.push(`${method.toUpperCase()} ${path} ${status}`);
        }
      }
    }
    expect(unnamed).toEqual([]);
  });

  it("POST /v1/verify with a text/plain body answers the 415 code its description names", async () => {
    const res = await api("/v1/verify", { method: "POST", rawBody: "hello", headers: { "content-type": "text/plain" } });
    expect(res.status).toBe(415);
    const body = await json<{ code: string }>(res);
    const doc = await json<{ paths: Record<string, any> }>(await api("/openapi.json"));
    expect(doc.paths["/v1/verify"].post.responses["415"].description).toContain(`\`${body.code}\``);
  });
});
