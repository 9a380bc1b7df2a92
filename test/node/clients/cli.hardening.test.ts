/** Units behind the #21 review fixes: terminal-safe strings, loopback-only dev.env addresses, download names. */
import { describe, expect, it } from "vitest";
import { assetFileName } from "../../../packages/cli/src/commands/delivery.ts";
import { isLoopbackUrl } from "../../../packages/cli/src/config.ts";
import { EXIT } from "../../../packages/cli/src/exit.ts";
import { safe } from "../../../packages/cli/src/output.ts";
import { createSvcClient } from "../../../packages/client/src/index";

describe("safe()", () => {
  it("removes ESC sequences and replaces other controls, keeping newlines and ordinary text", () => {
    expect(safe("a\u001b[31mred\u001b[39m b")).toBe("ared b");
    expect(safe("t\u001b]0;title\u0007x\u001b]52;c;AAAA\u001b\\y")).toBe("txy");
    expect(safe("x\u009b31m\u0000\u007f\r\tz\nnext")).toBe("x\ufffd31m\ufffd\ufffd\ufffd\ufffdz\nnext");
    expect(safe("a lone ESC at the end\u001b")).toBe("a lone ESC at the end");
    expect(safe("an unterminated OSC \u001b]0;never ends")).toBe("an unterminated OSC ");
    expect(safe("Ünïcödé ✓ 日本")).toBe("Ünïcödé ✓ 日本");
    expect(safe(null)).toBe("");
    expect(safe(undefined)).toBe("");
    expect(safe(42)).toBe("42");
  });
});

describe("isLoopbackUrl()", () => {
  it("accepts only http(s) to 127.0.0.0/8, ::1 or localhost, without credentials", () => {
    for (const ok of ["http://127.0.0.1:8787", "https://localhost:1/", "http://[::1]:9000", "http://127.4.5.6"])
      expect(isLoopbackUrl(ok), ok).toBe(true);
    for (const bad of [
      "http://example.com",
      "http://127.0.0.1.evil.example",
      "http://127.0.0.1:1@evil.example",
      "http://user:pw@127.0.0.1",
      "file:///etc/passwd",
      "ftp://127.0.0.1",
      "http://10.0.0.1",
      "not a url",
      "",
    ])
      expect(isLoopbackUrl(bad), bad).toBe(false);
  });
});

describe("assetFileName()", () => {
  it("keeps an asset-shaped name of the asset asked for, refuses anything else with exit 8", () => {
    expect(assetFileName("ast_abcdefghij234567.jpg", "ast_abcdefghij234567")).toBe("ast_abcdefghij234567.jpg");
    expect(assetFileName("ast_abcdefghij234567.mp3.c2pa", null)).toBe("ast_abcdefghij234567.mp3.c2pa");
    for (const bad of [
      ".envrc",
      "package.json",
      "ast_abcdefghij234567",
      "ast_abcdefghij234567.JPG",
      "../ast_abcdefghij234567.jpg",
      "ast_abcdefghij234567.jpg\u001b[2K",
    ])
      expect(() => assetFileName(bad, null), bad).toThrow(expect.objectContaining({ exitCode: EXIT.integrity }));
    // another asset's name, when the id asked for is known
    expect(() => assetFileName("ast_zzzzzzzzzzzzzzzz.jpg", "ast_abcdefghij234567")).toThrow(
      expect.objectContaining({ exitCode: EXIT.integrity }),
    );
  });
});

describe("SDK error bodies through openapi-fetch", () => {
  it("an endless error body reached through client.api is read only up to the bound, and still becomes an error", async () => {
    let pulled = 0;
    const chunk = new Uint8Array(256 * 1024).fill(0x7b);
    const fetch = async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            if (pulled >= 256 * 1024 * 1024) return controller.close();
            pulled += chunk.length;
            controller.enqueue(chunk);
          },
        }),
        { status: 502, headers: { "content-type": "application/json" } },
      );
    const client = createSvcClient({ apiKey: `svc_live_${"b".repeat(51)}a`, baseUrl: "http://api.test", fetch, retry: false });
    const result = await client.api.GET("/v1/jobs", {});
    expect(result.response.status).toBe(502);
    expect(pulled).toBeLessThanOrEqual(1024 * 1024);
  });
});
