import { describe, expect, it } from "vitest";
import { api } from "../support/helpers";

/** The reference page leads to every page a reader of the API needs, and each answers. */
describe("/docs links", () => {
  it("links the error codes and the verification status vocabulary (the table POST /v1/verify's status refers to)", async () => {
    const res = await api("/docs");
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const page of ["/docs/errors", "/docs/verification-statuses"]) {
      expect(html).toContain(`href="${page}"`);
      expect((await api(page)).status).toBe(200);
    }
  });
});
