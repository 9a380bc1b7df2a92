import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../../src/index";
import { dispatchBatch, retryDelaySeconds } from "../../../src/queues/dispatch";
import { testEnv } from "../support/helpers";

const msg = (id: string, body: unknown, attempts = 1) => ({ id, timestamp: new Date(), attempts, body });

describe("queue dispatch", () => {
  it("acks handled messages, retries failing ones, acks messages no handler can take", async () => {
    const seen: string[] = [];
    const batch = createMessageBatch("svc-jobs", [
      msg("ok", { type: "probe", id: "a" }),
      msg("fails", { type: "flaky", id: "b" }, 3),
      msg("unknown", { type: "nobody-handles-this" }),
      msg("malformed", "not an object"),
    ]);
    const ctx = createExecutionContext();
    await dispatchBatch(batch, testEnv, {
      probe: async (body) => {
        seen.push(String(body.id));
      },
      flaky: async () => {
        throw new Error("transient");
      },
    });
    const result = await getQueueResult(batch, ctx);
    expect(seen).toEqual(["a"]);
    expect(result.explicitAcks.sort()).toEqual(["malformed", "ok", "unknown"]);
    expect(result.retryMessages.map((m) => m.msgId)).toEqual(["fails"]);
  });

  it("the Worker's queue handler consumes both queues", async () => {
    for (const queue of ["svc-jobs", "svc-webhooks"]) {
      const batch = createMessageBatch(queue, [msg("x", { type: "unregistered" })]);
      const ctx = createExecutionContext();
      await worker.queue(batch, testEnv);
      const result = await getQueueResult(batch, ctx);
      expect(result.explicitAcks).toEqual(["x"]);
    }
  });

  it("backs off exponentially, capped at five minutes", () => {
    for (let attempt = 1; attempt < 20; attempt++) {
      const d = retryDelaySeconds(attempt);
      expect(d).toBeGreaterThanOrEqual(1);
      expect(d).toBeLessThanOrEqual(300);
    }
    expect(retryDelaySeconds(10)).toBeGreaterThanOrEqual(128);
  });
});
