import { describe, expect, it } from "vitest";
import { guardStorage, storageFailureOf } from "../../../src/db/storage-guard";
import type { Bindings } from "../../../src/env";
import { request, send } from "../campaign/faults-http.helpers";
import { faultyEnv } from "../support/faults";
import { createTenant, testEnv } from "../support/helpers";

const rejection = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e,
  );

/** `env` with one binding replaced by an object whose every method rejects with `error` (as the real one would). */
function refusing(env: Bindings, name: "OBJECTS" | "JOBS_QUEUE", error: () => unknown): Bindings {
  const failing = new Proxy({}, { get: () => async () => Promise.reject(error()) });
  return { ...env, [name]: failing } as unknown as Bindings;
}

// #22: Durable Object calls are guarded like storage; a deterministic refusal (the call's own fault) is no outage (L2).
describe("storage guard: Durable Objects, and deterministic refusals", () => {
  it("a failed Durable Object call is a dependency failure, named by binding and method", async () => {
    const env = guardStorage(faultyEnv(testEnv, { at: 1, kinds: ["do"] }).env);
    const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName("guard-probe"));
    const error = await rejection(stub.take("guard", 10, 60, 1, 0));
    expect(storageFailureOf(error)).toEqual({ binding: "durable_object", op: "RATE_LIMITER.take" });
    // A healthy guarded stub answers as the object does.
    const again = await stub.take("guard", 10, 60, 1, 0);
    expect(again.allowed).toBe(true);
  });

  it("a Durable Object refusing its arguments (a TypeError thrown inside it) is a defect, not an outage", async () => {
    const env = guardStorage({ ...testEnv });
    const chain = env.AUDIT_CHAIN.get(env.AUDIT_CHAIN.idFromName("audit:guard-probe"));
    const error = await rejection(chain.append("ten_guardprobe000000", [{ action: "" } as never]));
    expect(String(error)).toMatch(/audit draft/);
    expect(storageFailureOf(error)).toBeNull();
  });

  it("R2 refusing a request (invalid key, bad range, bad MD5) is not retryable; its outage is", async () => {
    const env = guardStorage({ ...testEnv });
    const longKey = await rejection(env.OBJECTS.put("k".repeat(2000), "x"));
    expect(String(longKey)).toMatch(/10020/);
    expect(storageFailureOf(longKey)).toBeNull();
    expect(storageFailureOf(await rejection(env.OBJECTS.get("guard/none", { range: { offset: -1 } } as never)))).toBeNull();
    expect(storageFailureOf(await rejection(env.OBJECTS.put("guard/md5", "x", { md5: "zz" })))).toBeNull();
    const meta = await rejection(env.OBJECTS.put("guard/meta", "x", { customMetadata: { m: "x".repeat(10_000) } }));
    expect(storageFailureOf(meta)).toBeNull();
    // Transient: R2's internal error, a lost connection.
    const internal = guardStorage(
      refusing(testEnv, "OBJECTS", () => new Error("put: We encountered an internal error. Please try again. (10001)")),
    );
    expect(storageFailureOf(await rejection(internal.OBJECTS.put("guard/x", "x")))).toEqual({ binding: "r2", op: "put" });
    const lost = guardStorage(refusing(testEnv, "OBJECTS", () => new Error("Network connection lost.")));
    expect(storageFailureOf(await rejection(lost.OBJECTS.head("guard/x")))).toEqual({ binding: "r2", op: "head" });
  });

  it("a queue refusing an oversized message is not retryable; an overloaded queue is", async () => {
    const big = guardStorage(
      refusing(testEnv, "JOBS_QUEUE", () => new Error("Queue send failed: message length of 200125 bytes exceeds limit of 128000")),
    );
    expect(storageFailureOf(await rejection(big.JOBS_QUEUE.send({})))).toBeNull();
    const batch = guardStorage(
      refusing(testEnv, "JOBS_QUEUE", () => new Error("batch size of 291898 bytes exceeds limit of 256000 bytes (10205)")),
    );
    expect(storageFailureOf(await rejection(batch.JOBS_QUEUE.sendBatch([])))).toBeNull();
    const busy = guardStorage(
      refusing(testEnv, "JOBS_QUEUE", () => new Error("Queue sendBatch failed: Queue is overloaded. Please back off.")),
    );
    expect(storageFailureOf(await rejection(busy.JOBS_QUEUE.sendBatch([])))).toEqual({ binding: "queue", op: "sendBatch" });
  });

  it("over HTTP: R2 refusing a request answers 500 svc.internal (a client must not retry it); its outage 503", async () => {
    const tenant = await createTenant();
    const create = (env: Bindings) =>
      send(
        env,
        request("/v1/uploads", {
          method: "POST",
          key: tenant.key,
          body: {
            byte_length: 1000,
            declared_media_type: "image/jpeg",
            mode: "multipart",
            sha256: "ab".repeat(32),
            filename: "a.jpg",
            parts: [{ part_number: 1, byte_length: 1000 }],
          },
        }),
      );
    const refused = await create(
      refusing(testEnv, "OBJECTS", () => new Error("createMultipartUpload: The specified object name is not valid. (10020)")),
    );
    expect(refused.status, refused.text).toBe(500);
    expect(refused.body.code).toBe("svc.internal");
    expect(refused.headers.get("retry-after")).toBeNull();
    const down = await create(
      refusing(testEnv, "OBJECTS", () => new Error("createMultipartUpload: We encountered an internal error. (10001)")),
    );
    expect(down.status, down.text).toBe(503);
    expect(down.body.code).toBe("svc.dependency.unavailable");
    expect(down.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});
