/**
 * The manifest reader of the publish step (src/media/c2pa/reader.ts): over a JPEG whose APP11 segment is not a
 * valid JUMBF (the engine answers `C2pa(JumbfNotFound)`, which means "no manifest", not a failure, and so does
 * POST /v1/verify), and over the service's own signed JPEGs, which our validator judges without the engine and
 * exactly as the engine does.
 */
import { describe, expect, it } from "vitest";
import { database } from "../../../src/db/client";
import { mintDevPki } from "../../../src/dev/pki";
import type { SignOutput } from "../../../src/jobs/outputs";
import { jobWithPublication } from "../../../src/jobs/repo";
import { runJob } from "../../../src/jobs/runner";
import { mediaServices } from "../../../src/media";
import { ensureC2paEngine } from "../../../src/media/c2pa/engine-workerd";
import { C2paManifestReader } from "../../../src/media/c2pa/reader";
import { concatBytes } from "../../../src/platform/bytes";
import { C2PA_TRUST_LIST_PEM } from "../../../src/verifications/trust/c2pa-trust-list";
import { fixture, json, testEnv } from "../support/helpers";
import { admittedExpress } from "../support/jobs.helpers";
import { verifyFile } from "../support/verify-helpers";

/** sample.jpg with an APP11 (JPEG XT / JUMBF) segment right after SOI whose content is no JUMBF box. */
function jpegWithBogusApp11(): Uint8Array {
  const jpeg = fixture("sample.jpg");
  // "JP", box instance 1, packet sequence 1, then a box header that names no JUMBF superbox.
  const payload = new Uint8Array([
    0x4a, 0x50, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x10, 0x78, 0x78, 0x78, 0x78, 1, 2, 3, 4, 5, 6, 7, 8,
  ]);
  const length = payload.length + 2;
  const segment = concatBytes([new Uint8Array([0xff, 0xeb, length >> 8, length & 0xff]), payload]);
  return concatBytes([jpeg.subarray(0, 2), segment, jpeg.subarray(2)]);
}

describe("a JPEG with an APP11 segment that is not JUMBF", () => {
  it("the reader answers no_manifest (C2pa(JumbfNotFound) is not-found, not a failure)", async () => {
    const reader = new C2paManifestReader(testEnv.SVC_TRUST_ANCHORS_PEM ?? null, ensureC2paEngine);
    expect(await reader.read({ bytes: jpegWithBogusApp11(), mediaType: "image/jpeg" })).toEqual({ status: "no_manifest" });
  });

  it("POST /v1/verify answers a verdict: no provenance found", async () => {
    const res = await verifyFile(jpegWithBogusApp11(), { name: "bogus.jpg" });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.status, body.developer_explanation).toBe("no_provenance_found");
  });
});

/** An express job's signed output, as the publish step checked it (run for real, read back from R2). */
async function expressOutput(): Promise<Uint8Array> {
  const { tenant, job } = await admittedExpress();
  await runJob(testEnv, await mediaServices(testEnv), tenant.tenantId, job.id, job);
  const steps = (await jobWithPublication(database(testEnv.DB), tenant.tenantId, job.id))!.steps;
  const signed = JSON.parse(steps.find((s) => s.step === "sign")!.output!) as SignOutput;
  const object = await testEnv.OBJECTS.get(signed.output!.key);
  return new Uint8Array(await object!.arrayBuffer());
}

describe("the publish step's check of the service's own signed JPEGs (#19)", () => {
  it("judged by our validator without the engine, with exactly the engine's check; anything else goes to the engine", async () => {
    const devRoot = testEnv.SVC_TRUST_ANCHORS_PEM!;
    const other = await mintDevPki();
    const output = await expressOutput();
    // the same output with one byte of its image data changed (the hard binding no longer matches)
    const changed = output.slice();
    changed[changed.length - 100]! ^= 0x01;
    const cases = [
      { anchors: devRoot, bytes: output, fast: true },
      { anchors: `${devRoot.trim()}\n${C2PA_TRUST_LIST_PEM.trim()}\n`, bytes: output, fast: true },
      { anchors: other.rootCertPem, bytes: output, fast: false }, // anchors that do not vouch for the chain
      { anchors: devRoot, bytes: changed, fast: false },
    ];
    for (const c of cases) {
      let engineUses = 0;
      const reader = new C2paManifestReader(c.anchors, () => {
        engineUses++;
        ensureC2paEngine();
      });
      const engine = new C2paManifestReader(c.anchors, ensureC2paEngine, { fastValidator: false });
      const input = { bytes: c.bytes, mediaType: "image/jpeg" };
      const read = await reader.read(input);
      expect(read).toStrictEqual(await engine.read(input));
      expect(engineUses, JSON.stringify(read)).toBe(c.fast ? 0 : 1);
    }
    // the reference reader's own verdicts: the output is Trusted without a failure; the changed copy is not
    const engine = new C2paManifestReader(devRoot, ensureC2paEngine, { fastValidator: false });
    const good = await engine.read({ bytes: output, mediaType: "image/jpeg" });
    expect(good.status === "read" && good.check).toMatchObject({ validation_state: "Trusted", failure_codes: [] });
    const bad = await engine.read({ bytes: changed, mediaType: "image/jpeg" });
    expect(bad.status === "read" && bad.check.failure_codes).toContain("assertion.dataHash.mismatch");
  });
});
