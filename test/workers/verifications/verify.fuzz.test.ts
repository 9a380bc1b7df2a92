import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { prng } from "../../support/prng";
import { BASE, createTenant, fixture } from "../support/helpers";
import { signedCopy } from "../support/verify-helpers";

const fetchApp = (path: string, init: RequestInit) => (exports as unknown as { default: Fetcher }).default.fetch(`${BASE}${path}`, init);

async function expectEnvelope(res: Response, label: string) {
  expect(res.status, label).toBeLessThan(500);
  const body = (await res.json()) as Record<string, unknown>;
  if (res.status >= 400) expect(typeof body.code, label).toBe("string");
  else expect(typeof body.status, label).toBe("string");
}

describe("fuzz: POST /v1/verify never answers 500", () => {
  it("mutated signed and unsigned media as multipart files (each from its own address: the public limit is per IP)", async () => {
    const { key } = await createTenant();
    const seeds = [
      (await signedCopy(key, fixture("sample.jpg"), "image/jpeg")).bytes,
      (await signedCopy(key, fixture("sample.png"), "image/png")).bytes,
      fixture("sample.mp4"),
      fixture("sample.pdf"),
    ];
    const rand = prng(1234);
    for (let n = 0; n < 120; n++) {
      const base = seeds[n % seeds.length]!;
      const bytes = base.slice(0, Math.max(1, Math.floor(base.length * (0.3 + 0.7 * rand()))));
      for (let k = 0; k < 1 + Math.floor(rand() * 6); k++) bytes[Math.floor(rand() * bytes.length)] = Math.floor(rand() * 256);
      const form = new FormData();
      form.append("file", new File([bytes], "f"));
      if (rand() < 0.2) form.append("manifest", new File([bytes.slice(0, 200)], "m.c2pa"));
      const res = await fetchApp("/v1/verify", {
        method: "POST",
        body: form,
        headers: { "cf-connecting-ip": `10.9.${n >> 8}.${n & 255}` },
      });
      await expectEnvelope(res, `case ${n}`);
    }
    // Truncated and damaged files of a known container get a full verdict (#13.7), not a quick 415: more work per case.
  }, 120_000);

  it("random JSON bodies and content types", async () => {
    const rand = prng(99);
    const bodies = [
      '{"asset_id":"ast_abcdefghij234567"}',
      '{"manifest_uri":"https://x"}',
      "{}",
      "[]",
      "null",
      '{"asset_id":1}',
      `{"manifest_uri":"${"a".repeat(3000)}"}`,
      "{",
      '"x"',
    ];
    const types = [
      "application/json",
      "multipart/form-data",
      "multipart/form-data; boundary=x",
      "text/plain",
      "",
      "application/json; charset=utf-8",
    ];
    for (let n = 0; n < 80; n++) {
      const headers: Record<string, string> = { "cf-connecting-ip": `10.8.${n >> 8}.${n & 255}` };
      const type = types[Math.floor(rand() * types.length)]!;
      if (type) headers["content-type"] = type;
      const res = await fetchApp("/v1/verify", { method: "POST", body: bodies[Math.floor(rand() * bodies.length)]!, headers });
      await expectEnvelope(res, `case ${n} ${type}`);
    }
  });
});
