import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env as rawEnv } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Bindings } from "../../../src/env";
import worker from "../../../src/index";
import { SMALL_MP4_B64 } from "../jobs/video-review-fixtures";
import { BASE } from "../support/helpers";

/*
 * Review (rev-video): the media Worker's contract (src/media/video.ts) says `fingerprint` rejects "only when the
 * binding itself fails" — which it does in production when the media Worker exceeds its memory (two 40 MiB decodes in
 * one isolate) or CPU limit, or is being redeployed. POST /v1/verify must then answer with the signal not computed,
 * as it does for every other video it cannot fingerprint, not a 5xx.
 */

const bytes = Uint8Array.from(atob(SMALL_MP4_B64), (c) => c.charCodeAt(0));

async function verifyWith(videoBinding: unknown): Promise<Response> {
  const env = { ...(rawEnv as unknown as Bindings), VIDEO: videoBinding } as unknown as Bindings;
  const form = new FormData();
  form.append("file", new File([bytes], "clip.mp4"));
  const ctx = createExecutionContext();
  const res = await worker.fetch!(
    new Request(`${BASE}/v1/verify`, { method: "POST", body: form, headers: { "cf-connecting-ip": "198.51.100.77" } }) as never,
    env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}

describe("review: POST /v1/verify when the media Worker's binding fails", () => {
  it("answers 200 with the fingerprint signal reported as not computed, not a 5xx", async () => {
    const failing = {
      fingerprint: async (body: ReadableStream) => {
        await body.cancel();
        throw new Error("Worker exceeded memory limit.");
      },
    };
    const res = await verifyWith(failing);
    const text = await res.text();
    expect(res.status, text.slice(0, 500)).toBe(200);
    expect(JSON.parse(text).warnings.join(" ")).toMatch(/not computed/);
  });
});
