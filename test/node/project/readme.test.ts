import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/** Issue #13.20: the README stands alone and tells a newcomer what works today. */
const readme = readFileSync(join(import.meta.dirname, "..", "..", "..", "README.md"), "utf8");

describe("README", () => {
  it("#13.20 points at nothing outside the repository: the served /openapi.json and /docs are the reference", () => {
    expect(readme).not.toMatch(/\.\.\/shared|SPEC\.md|\.\.\/\.library/);
    expect(readme).toContain("/openapi.json");
    expect(readme).toContain("/docs");
  });

  it("#13.20 'What works today' names the built areas and does not call them unbuilt", () => {
    const today = readme.slice(readme.indexOf("**What works today:**"), readme.indexOf("## Set up"));
    for (const area of ["watermark", "fingerprints", "POST /v1/verify", "Webhooks", "Soft Binding Resolution API"])
      expect(today).toContain(area);
    expect(today).not.toMatch(/verification[^.]*not built|webhooks are not built/i);
  });

  it("#13.20 has a Security model: key hierarchy, origins, client addresses, secrets", () => {
    const model = readme.slice(readme.indexOf("## Security model"), readme.indexOf("## Architecture"));
    for (const topic of [
      "Key hierarchy",
      "Secrets at rest and comparisons",
      "What is served from which origin",
      "Client addresses",
      "Production is the default",
    ]) {
      expect(model).toContain(topic);
    }
  });
});
