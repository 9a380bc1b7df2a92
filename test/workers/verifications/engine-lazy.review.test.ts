import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Bindings } from "../../../src/env";
import { ensureC2paEngineLazily, revocationCheck } from "../../../src/verifications/verify-engines";
import { verifySubject } from "../../../src/verifications/verify-service";
import { createTenant, fixture } from "../support/helpers";
import { signedCopy } from "../support/verify-helpers";

/*
 * Review of #19 (the C2PA engine instantiated by its first read, not by every verify's services). A verification the
 * fast validator answers never asks for the engine; one that needs it and whose instantiation fails throws (a 500 as
 * before the change, a queued verification retried), never a manifest verdict recorded about the file; the next
 * verification, whose instantiation succeeds, reads the manifest.
 */
describe("review #19: the engine instantiated by its first read", () => {
  it("a failed instantiation is thrown, not a verdict; a JPEG of our form never asks for the engine", async () => {
    const { key } = await createTenant();
    const plain = env as unknown as Bindings;
    const engine = await ensureC2paEngineLazily();
    let asked = 0;
    const failing = () => {
      asked++;
      throw new RangeError("WebAssembly.Instance(): Out of memory (review)");
    };
    const services = (ensureEngine: () => void) => ({ ensureEngine, image: null, revocation: revocationCheck(plain) });

    const jpeg = await signedCopy(key, fixture("sample.jpg"), "image/jpeg");
    const fast = await verifySubject(plain, services(failing), { bytes: jpeg.bytes, mediaType: "image/jpeg" });
    expect(fast.signals.c2pa_signature_valid).toBe(true);
    expect(asked).toBe(0);

    const png = await signedCopy(key, fixture("sample.png"), "image/png");
    await expect(verifySubject(plain, services(failing), { bytes: png.bytes, mediaType: "image/png" })).rejects.toThrow(
      /Out of memory \(review\)/,
    );
    expect(asked).toBe(1);
    const after = await verifySubject(plain, services(engine), { bytes: png.bytes, mediaType: "image/png" });
    expect(after.signals.c2pa_signature_valid).toBe(true);
    expect(after.overall).toBe(fast.overall);
  }, 300_000);
});
