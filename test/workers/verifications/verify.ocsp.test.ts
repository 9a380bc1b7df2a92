import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { devOcsp } from "../../../src/dev/ocsp";
import { installDevOcsp } from "../../../src/media/c2pa/ocsp-dev-port";
import { BASE, createTenant, fixture, json } from "../support/helpers";
import { signedCopy, verifyFile } from "../support/verify-helpers";

// Its own file: revoking the dev signer affects every later verification in the same test storage.
const post = (path: string, body: unknown) =>
  (exports as unknown as { default: Fetcher }).default.fetch(`${BASE}${path}`, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json" },
  });

describe("OCSP of the signer (dev responder)", () => {
  it("good (cached while no revocation is recorded), then revoked at once after POST /dev/ocsp/revocations → signer_revoked", async () => {
    const { key } = await createTenant();
    const { bytes } = await signedCopy(key, fixture("sample.jpg"), "image/jpeg");
    // A revocation of another serial first: a list no earlier verification (other files share this isolate's
    // cache) was answered for, so the first verification below must ask the responder.
    expect((await post("/dev/ocsp/revocations", { serial_number: "0badc0de" })).status).toBe(201);
    let answers = 0;
    installDevOcsp({ ...devOcsp, answer: (...args) => (answers++, devOcsp.answer(...args)) });
    try {
      const before = await json(await verifyFile(bytes));
      expect(before.signals.ocsp_status, JSON.stringify(before.warnings)).toBe("good");
      expect(before.status).toBe("verified_manifest");
      const asked = answers;
      expect(asked).toBeGreaterThan(0);
      expect(await json(await verifyFile(bytes))).toMatchObject({ status: "verified_manifest", signals: { ocsp_status: "good" } });
      expect(answers).toBe(asked); // the answer came from the cache: the revocation list did not change

      const revoked = await post("/dev/ocsp/revocations", { serial_number: before.signer.serial_number, reason: 1 });
      expect(revoked.status).toBe(201);
      const after = await json(await verifyFile(bytes));
      expect(answers).toBeGreaterThan(asked);
      expect(after.status, after.developer_explanation).toBe("signer_revoked");
      expect(after.signals.ocsp_status).toBe("revoked");
      expect(after.confidence).toBeNull();
      expect(after.proves).toEqual([]);
    } finally {
      installDevOcsp(devOcsp);
    }
  });

  it("POST /dev/ocsp answers DER OCSP requests; garbage gets a malformedRequest response, not a 500", async () => {
    const res = await (exports as unknown as { default: Fetcher }).default.fetch(`${BASE}/dev/ocsp`, {
      method: "POST",
      body: new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x00]),
      headers: { "content-type": "application/ocsp-request" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/ocsp-response");
  });
});
