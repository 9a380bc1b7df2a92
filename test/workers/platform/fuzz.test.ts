import { describe, expect, it } from "vitest";
import { prng } from "../../support/prng";
import { api, createTenant } from "../support/helpers";

const SEEDS = [
  '{"name":"CI","scopes":["capabilities:read"]}',
  '{"name":"x","scopes":["identity:read"],"expires_at":"2030-01-01T00:00:00Z"}',
  '{"name":"","scopes":[]}',
  "[]",
  "null",
  '{"name":{"$gt":""},"scopes":"all"}',
];
const TOKENS = [
  '"',
  "{",
  "}",
  "[",
  "]",
  ",",
  ":",
  "\\",
  "\\u0000",
  "\u0000",
  "1e309",
  "-0",
  "true",
  "null",
  "\ud800",
  "é",
  " ",
  "\n",
  "9".repeat(40),
  '"__proto__"',
  '{"constructor":{"prototype":{}}}',
];

function mutate(input: string, rand: () => number): string {
  let s = input;
  const edits = 1 + Math.floor(rand() * 4);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(rand() * (s.length + 1));
    switch (Math.floor(rand() * 5)) {
      case 0: // delete a span
        s = s.slice(0, at) + s.slice(at + 1 + Math.floor(rand() * 5));
        break;
      case 1: // insert a token
        s = s.slice(0, at) + TOKENS[Math.floor(rand() * TOKENS.length)] + s.slice(at);
        break;
      case 2: // flip a character
        s = s.slice(0, at) + String.fromCharCode(32 + Math.floor(rand() * 95)) + s.slice(at + 1);
        break;
      case 3: // duplicate a span
        s = s.slice(0, at) + s.slice(at, at + 8) + s.slice(at);
        break;
      default: // deep nesting
        s = "[".repeat(1 + Math.floor(rand() * 3000)) + s;
    }
  }
  return s;
}

function assertEnvelope(status: number, text: string, label: string) {
  expect(status, label).toBeLessThan(500);
  const body = JSON.parse(text);
  if (status === 401 || status === 403) expect(typeof body.detail, label).toBe("string");
  else if (status >= 400) {
    expect(typeof body.code, label).toBe("string");
    expect(typeof body.request_id, label).toBe("string");
    expect(Array.isArray(body.field_details), label).toBe(true);
  }
}

describe("fuzz: the JSON API never answers 500 and always uses the envelope", () => {
  it("mutated JSON bodies on POST /v1/api-keys", async () => {
    const { key } = await createTenant();
    const rand = prng(20261122);
    for (let i = 0; i < 1500; i++) {
      const body = mutate(SEEDS[i % SEEDS.length]!, rand);
      const res = await api("/v1/api-keys", { method: "POST", key, rawBody: body, headers: { "content-type": "application/json" } });
      assertEnvelope(res.status, await res.text(), `case ${i}: ${JSON.stringify(body).slice(0, 200)}`);
      expect([201, 403, 413, 422], `case ${i}`).toContain(res.status);
    }
  }, 180_000);

  it("random query strings, paths, credentials and idempotency keys", async () => {
    const { key } = await createTenant();
    const rand = prng(7);
    const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
    const noise = () => Array.from({ length: Math.floor(rand() * 40) }, () => String.fromCharCode(Math.floor(rand() * 0x7f))).join("");
    const paths = [
      "/v1/api-keys",
      "/v1/api-keys/",
      "/v1/recipes/",
      "/v1/capabilities",
      "/v1/me",
      "/healthz",
      "/v1/api-keys/key_",
      "/v1/uploads",
      "/v1/uploads/upl_",
      "/v1/sign",
      "/v1/sign/batch",
      "/v1/jobs/",
      "/v1/assets/",
      "/v1/assets/ast_",
      "/v1/receipts",
      "/v1/history/snapshots",
      "/storage/uploads/upl_",
      "/storage/objects/aob_",
      "/dev/tsa",
      "/v1/verification-evidence/vfy_",
      "/v1/verifications",
      "/v1/api-request-logs",
      "/v1/api-request-logs/summary",
      "/v1/api-keys/key_aaaaaaaaaaaaaaaa/restrictions",
      "/v1/api-keys/key_aaaaaaaaaaaaaaaa/rotate",
      "/v1/api-keys/key_aaaaaaaaaaaaaaaa/retention",
      "/v1/assets/ast_aaaaaaaaaaaaaaaa/preview/",
    ];
    for (let i = 0; i < 1000; i++) {
      const path = pick(paths) + encodeURIComponent(noise()).slice(0, 60);
      const query = `?limit=${encodeURIComponent(noise())}&cursor=${encodeURIComponent(noise())}`;
      const headers: Record<string, string> = {};
      const auth = rand();
      if (auth < 0.6) headers.authorization = `Bearer ${key}`;
      else if (auth < 0.8) headers.authorization = `Bearer ${noise().replace(/[^\x20-\x7e]/g, "")}`;
      if (rand() < 0.3) headers["idempotency-key"] = noise().replace(/[^\x20-\x7e]/g, "") || "k";
      const method = pick(["GET", "POST", "DELETE", "PUT", "PATCH"]);
      const res = await api(path + query, { method, headers, rawBody: method === "GET" ? undefined : noise() });
      const text = await res.text();
      if (res.status === 200 && !res.headers.get("content-type")?.includes("json")) continue; // e.g. an RFC 3161 rejection reply
      assertEnvelope(res.status, text, `case ${i}: ${method} ${path}${query}`);
    }
  }, 180_000);
});
