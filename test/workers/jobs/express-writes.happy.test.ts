import { describe, expect, it } from "vitest";
import { database } from "../../../src/db/client";
import type { Bindings } from "../../../src/env";
import type { SignOutput, WatermarkOutput } from "../../../src/jobs/outputs";
import { jobWithPublication } from "../../../src/jobs/repo";
import { type JobServices, runJob } from "../../../src/jobs/runner";
import { mediaServices } from "../../../src/media";
import { api, json, sha256HexOf, testEnv } from "../support/helpers";
import { admittedExpress } from "../support/jobs.helpers";

/*
 * #19: the express run's R2 writes overlap its CPU work (the watermark step's intermediate write runs while the mark is
 * read back; the sign step's writes while the publish step checks the signed bytes in hand). What that must keep: a
 * record is made only for bytes that landed (its etag and digest are the stored object's), a mark that does not read
 * back leaves nothing behind, and a write that fails publishes nothing and is retried like any transient failure.
 */

/** testEnv whose R2 `put` fails (once, or always) for keys ending with `suffix`. */
function failingPuts(suffix: string, times = 1) {
  let left = times;
  const bucket = testEnv.OBJECTS;
  const put = (...args: Parameters<R2Bucket["put"]>) => {
    if (args[0].endsWith(suffix) && left > 0) {
      left--;
      return Promise.reject(new Error("R2 put failed (test)"));
    }
    return bucket.put(...args);
  };
  // the binding's other methods called on the binding itself (they refuse another receiver)
  const OBJECTS = new Proxy(bucket, {
    get(target, property) {
      if (property === "put") return put;
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { ...testEnv, OBJECTS } as Bindings;
}

async function storedMatches(blob: { key: string; etag: string; sha256: string; byte_length: number }) {
  const object = await testEnv.OBJECTS.get(blob.key);
  expect(object, blob.key).not.toBeNull();
  const bytes = new Uint8Array(await object!.arrayBuffer());
  expect(object!.etag).toBe(blob.etag);
  expect(bytes.length).toBe(blob.byte_length);
  expect(await sha256HexOf(bytes)).toBe(blob.sha256);
}

describe("express R2 writes overlapped with the run's CPU (#19)", () => {
  it("records the watermark and sign outputs only as stored: every recorded etag and digest is the stored object's", async () => {
    const { tenant, job } = await admittedExpress();
    await runJob(testEnv, await mediaServices(testEnv), tenant.tenantId, job.id, job);
    const done = (await jobWithPublication(database(testEnv.DB), tenant.tenantId, job.id))!;
    expect(done.job.state).toBe("completed");
    const output = (step: string) => JSON.parse(done.steps.find((s) => s.step === step)!.output!);
    const watermark = output("watermark") as WatermarkOutput;
    const sign = output("sign") as SignOutput;
    await storedMatches(watermark.output);
    await storedMatches(sign.manifest);
    await storedMatches(sign.output!);
    // what was published is the signed output the sign step recorded
    expect(done.output?.r2Key).toBe(sign.output!.key);
  });

  it("issues each write before the work that overlaps it: the watermark's before the read-back's detect, the sign step's before the check", async () => {
    const { tenant, job } = await admittedExpress();
    const events: string[] = [];
    const bucket = testEnv.OBJECTS;
    const OBJECTS = new Proxy(bucket, {
      get(target, property) {
        if (property === "put")
          return (...args: Parameters<R2Bucket["put"]>) => {
            events.push(`put ${args[0].split("/").slice(-2).join("/")}`);
            return bucket.put(...args);
          };
        const value = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const real = await mediaServices(testEnv);
    const image = real.image!;
    const services: JobServices = {
      ...real,
      image: {
        ...image,
        watermarker: new Proxy(image.watermarker, {
          get(target, property) {
            const value = Reflect.get(target, property, target);
            if (property === "detect")
              return (...args: Parameters<typeof target.detect>) => {
                events.push("detect");
                return target.detect(...args);
              };
            return typeof value === "function" ? value.bind(target) : value;
          },
        }),
      },
      reader: {
        read: (input) => {
          events.push("check");
          return real.reader.read(input);
        },
      },
    };
    await runJob({ ...testEnv, OBJECTS } as Bindings, services, tenant.tenantId, job.id, job);
    expect((await jobWithPublication(database(testEnv.DB), tenant.tenantId, job.id))!.job.state).toBe("completed");
    expect(events).toEqual(["put watermark/output", "detect", "put sign/manifest.c2pa", "put sign/output", "check"]);
  });

  it("a mark that does not read back: the job fails, its intermediate write is removed, nothing is recorded or published", async () => {
    const { tenant, assetId, job } = await admittedExpress();
    const real = await mediaServices(testEnv);
    const image = real.image!;
    const services: JobServices = {
      ...real,
      image: {
        ...image,
        // the real embedder (its methods bound to it: the kernel's fields are private), a detector that finds nothing
        watermarker: new Proxy(image.watermarker, {
          get(target, property) {
            if (property === "detect") return () => ({ status: "not_detected" as const });
            const value = Reflect.get(target, property, target);
            return typeof value === "function" ? value.bind(target) : value;
          },
        }),
      },
    };
    await runJob(testEnv, services, tenant.tenantId, job.id, job);
    const after = await json(await api(`/v1/jobs/${job.id}`, { key: tenant.key }));
    expect(after.state).toBe("failed");
    expect(after.error_code).toBe("svc.jobs.watermark_failed");
    const row = (await jobWithPublication(database(testEnv.DB), tenant.tenantId, job.id))!;
    expect(row.steps.find((s) => s.step === "watermark")!.output).toBeNull();
    expect(await testEnv.OBJECTS.head(`t/${tenant.tenantId}/jobs/${job.id}/watermark/output`)).toBeNull();
    expect((await json(await api(`/v1/assets/${assetId}`, { key: tenant.key }))).status).toBe("failed");
  });

  it("a sign write that fails: nothing is published and the run ends as a transient failure; the retry publishes", async () => {
    const { tenant, assetId, job } = await admittedExpress();
    const services = await mediaServices(testEnv);
    await expect(runJob(failingPuts("/sign/output"), services, tenant.tenantId, job.id, job)).rejects.toThrow(/R2 put failed/);
    const between = (await jobWithPublication(database(testEnv.DB), tenant.tenantId, job.id))!;
    expect(between.job.state).toBe("running");
    expect(between.job.publicationId).toBeNull();
    // the sign step's record rides with the publication (express): neither was written
    const states = Object.fromEntries(between.steps.map((s) => [s.step, s.state]));
    expect(states).toMatchObject({ watermark: "completed", fingerprint: "completed", sign: "running", publish: "pending" });
    expect(between.job.leaseExpiresAt).toBeLessThanOrEqual(Date.now()); // the lease was given back for the retry
    expect((await json(await api(`/v1/assets/${assetId}`, { key: tenant.key }))).status).toBe("processing");

    await runJob(testEnv, services, tenant.tenantId, job.id);
    const done = (await jobWithPublication(database(testEnv.DB), tenant.tenantId, job.id))!;
    expect(done.job.state).toBe("completed");
    const sign = JSON.parse(done.steps.find((s) => s.step === "sign")!.output!) as SignOutput;
    await storedMatches(sign.output!);
    expect((await json(await api(`/v1/assets/${assetId}`, { key: tenant.key }))).status).toBe("published");
  });

  it("a manifest write that fails while the output is judged invalid: the failure is the write's (transient), not a publish failure", async () => {
    const { tenant, job } = await admittedExpress();
    const real = await mediaServices(testEnv);
    const services: JobServices = {
      ...real,
      reader: {
        read: async (input) => {
          const r = await real.reader.read(input);
          return r.status === "read" ? { ...r, check: { ...r.check, validation_state: "Invalid", failure_codes: ["test.invalid"] } } : r;
        },
      },
    };
    await expect(runJob(failingPuts("/sign/manifest.c2pa"), services, tenant.tenantId, job.id, job)).rejects.toThrow(/R2 put failed/);
    const between = (await jobWithPublication(database(testEnv.DB), tenant.tenantId, job.id))!;
    expect(between.job.state).toBe("running");
    expect(between.steps.find((s) => s.step === "sign")!.state).toBe("running");
  });
});
