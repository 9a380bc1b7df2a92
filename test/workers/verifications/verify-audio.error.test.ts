import type { ImportGlobFunction } from "vite/types/importGlob.d.ts";
import { describe, expect, it } from "vitest";
import { createTenant, json } from "../support/helpers";
import { verifyFile } from "../support/verify-helpers";

/*
 * #20: audio through POST /v1/verify when it cannot be fingerprinted: every hostile file of the decoder's corpus
 * (cut headers, absurd sizes, no frames, garbage after tags) and audio too short to match answer with the contract's
 * shapes (200 with the signal reported as not computed, or the error envelope), never a 5xx; nothing is invented.
 */

declare global {
  interface ImportMeta {
    glob: ImportGlobFunction;
  }
}

const HOSTILE = import.meta.glob(
  ["../../fixtures/audio/hostile/*.wav", "../../fixtures/audio/hostile/*.mp3", "../../fixtures/audio/hostile/*.flac"],
  { query: "?inline", import: "default", eager: true },
) as Record<string, string>;
const bytesOf = (url: string) => Uint8Array.from(atob(url.slice(url.indexOf(",") + 1)), (c) => c.charCodeAt(0));

describe("POST /v1/verify: audio that cannot be fingerprinted", () => {
  it("answers every hostile audio file without a 5xx, and reports no fingerprint it did not compute", async () => {
    const { key } = await createTenant();
    const names = Object.keys(HOSTILE);
    expect(names.length).toBeGreaterThanOrEqual(10);
    for (const [path, url] of Object.entries(HOSTILE)) {
      const name = path.slice(path.lastIndexOf("/") + 1);
      const res = await verifyFile(bytesOf(url), { key, name });
      expect(res.status, `${name}: ${res.status}`).toBeLessThan(500);
      const body = await json(res);
      if (res.status === 200) {
        expect(body.signals.fingerprint_match ?? false, name).toBe(false);
        expect(body.matches, name).toEqual([]);
      } else expect(JSON.stringify(body), name).toMatch(/"code":"svc\./);
    }
  });
});
