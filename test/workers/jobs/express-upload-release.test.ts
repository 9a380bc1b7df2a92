import { describe, expect, it } from "vitest";
import type { Bindings } from "../../../src/env";
import { runJob } from "../../../src/jobs/runner";
import { mediaServices } from "../../../src/media";
import { testEnv } from "../support/helpers";
import { admittedExpress } from "../support/jobs.helpers";

// The upload's bytes (up to the image upload ceiling) are needed by the watermark step only. The runner starts
// reading them before that step begins (#19); once the step is done, nothing may keep them alive through the sign
// step, whose engine copies are what a 128 MB isolate budgets for. Whether memory is still reachable shows only
// after a collection, which workerd runs on demand only with V8's --expose-gc:
//   MINIFLARE_WORKERD_V8_FLAGS=--expose-gc npx vitest run test/workers/jobs/express-upload-release.test.ts
// Without the flag the test is reported skipped, never passed.
const gc = (globalThis as { gc?: () => void }).gc;

async function collect() {
  for (let i = 0; i < 3; i++) {
    gc!();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe("express run memory (#19)", () => {
  it.runIf(typeof gc === "function")(
    "the upload's bytes are released once the watermark step is done, before the sign step stores anything",
    async () => {
      const { tenant, job } = await admittedExpress();
      const refs: Record<string, WeakRef<ArrayBuffer>> = {};
      const bucket = testEnv.OBJECTS;
      let puts = 0;
      let released: { upload: boolean; control: boolean } | null = null;
      const OBJECTS = Object.assign(Object.create(bucket) as R2Bucket, {
        get: async (...args: Parameters<R2Bucket["get"]>) => {
          const object = await bucket.get(...args);
          if (!object || !("body" in object)) return object;
          // the upload's bytes as the runner receives them, watched through a weak reference
          return Object.assign(Object.create(object) as R2ObjectBody, {
            arrayBuffer: async () => {
              const buffer = await object.arrayBuffer();
              refs.upload = new WeakRef(buffer);
              return buffer;
            },
          });
        },
        put: async (...args: Parameters<R2Bucket["put"]>) => {
          // the first put is the watermark step's output; the second, the sign step's manifest store
          if (++puts === 2) {
            refs.control = new WeakRef(new ArrayBuffer(1 << 20)); // unreachable at once: shows the collection ran
            await collect();
            released = { upload: refs.upload!.deref() === undefined, control: refs.control.deref() === undefined };
          }
          return bucket.put(...args);
        },
      });
      await runJob({ ...testEnv, OBJECTS } as Bindings, await mediaServices(testEnv), tenant.tenantId, job.id, job);
      expect(puts).toBe(3);
      expect(released).toEqual({ upload: true, control: true });
    },
  );
});
