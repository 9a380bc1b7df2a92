import { describe, expect, it } from "vitest";
import { database } from "../../../src/db/client";
import { tenants } from "../../../src/db/schema";
import { faultyEnv, InjectedFault } from "../support/faults";
import { testEnv } from "../support/helpers";

// The fault harness itself: it must count, fault and crash exactly as it says, or every fault test proves nothing.
describe("fault harness", () => {
  it("logs each call and faults exactly the chosen one; an error leaves later calls working", async () => {
    const probe = faultyEnv(testEnv);
    await probe.env.DB.prepare("SELECT 1 AS one").first();
    await probe.env.OBJECTS.put("faults/harness-a", "a");
    await probe.env.DB.batch([probe.env.DB.prepare("SELECT ?1 AS v").bind(2), probe.env.DB.prepare("SELECT 3 AS v")]);
    expect(probe.log.map((s) => s.op)).toEqual(["d1.first", "r2.put", "d1.batch"]);
    expect(probe.log[2]?.detail).toBe("SELECT ?1 AS v ; SELECT 3 AS v");

    const faulty = faultyEnv(testEnv, { at: 2, mode: "error" });
    expect(await faulty.env.DB.prepare("SELECT 1 AS one").first("one")).toBe(1);
    await expect(faulty.env.OBJECTS.put("faults/harness-b", "b")).rejects.toBeInstanceOf(InjectedFault);
    expect(await testEnv.OBJECTS.head("faults/harness-b")).toBeNull(); // the failed write did not land
    expect(faulty.faulted?.op).toBe("r2.put");
    const [rows] = await faulty.env.DB.batch([faulty.env.DB.prepare("SELECT ?1 AS v").bind(7)]);
    expect(rows?.results).toEqual([{ v: 7 }]);
  });

  it("a plan by site faults the chosen occurrence of that call, wherever it falls in the order", async () => {
    const faulty = faultyEnv(testEnv, { site: { op: "d1.first", detail: "SELECT 1 AS one", occurrence: 2 }, mode: "error" });
    await faulty.env.OBJECTS.put("faults/harness-c", "c"); // an extra call before it shifts the numbers, not the site
    expect(await faulty.env.DB.prepare("SELECT 1 AS one").first("one")).toBe(1);
    expect(await faulty.env.DB.prepare("SELECT 2 AS two").first("two")).toBe(2);
    await expect(faulty.env.DB.prepare("SELECT 1 AS one").first()).rejects.toBeInstanceOf(InjectedFault);
    expect(faulty.faulted).toEqual({ n: 4, kind: "d1", op: "d1.first", detail: "SELECT 1 AS one" });
    expect(await faulty.env.DB.prepare("SELECT 1 AS one").first("one")).toBe(1); // the third is not faulted
  });

  it("carries drizzle's queries and batches (what the service's code runs)", async () => {
    const probe = faultyEnv(testEnv);
    const db = database(probe.env.DB);
    await db.select({ id: tenants.id }).from(tenants).limit(1);
    await db.batch([db.select({ id: tenants.id }).from(tenants).limit(1), db.select({ id: tenants.id }).from(tenants).limit(2)]);
    expect(probe.log.map((s) => s.op)).toEqual(["d1.raw", "d1.batch"]);
    const faulty = faultyEnv(testEnv, { at: 1 });
    // drizzle wraps a driver error in its own ("Failed query: …") with the original as the cause.
    const error = await database(faulty.env.DB)
      .select({ id: tenants.id })
      .from(tenants)
      .limit(1)
      .then(
        () => null,
        (e: unknown) => e as Error,
      );
    expect(error?.cause).toBeInstanceOf(InjectedFault);
  });

  it("crash-after lands the write, then nothing reaches a binding again", async () => {
    const faulty = faultyEnv(testEnv, { at: 1, mode: "crash-after", kinds: ["r2"] });
    await faulty.env.DB.prepare("SELECT 1").run(); // not counted (kinds), not faulted
    await expect(faulty.env.OBJECTS.put("faults/harness-c", "c")).rejects.toBeInstanceOf(InjectedFault);
    expect(await testEnv.OBJECTS.head("faults/harness-c")).not.toBeNull();
    expect(faulty.crashed).toBe(true);
    await expect(faulty.env.DB.prepare("SELECT 1").run()).rejects.toBeInstanceOf(InjectedFault);
    await expect(faulty.env.JOBS_QUEUE.send({})).rejects.toBeInstanceOf(InjectedFault);
  });

  it("crash-before stops the call itself", async () => {
    const faulty = faultyEnv(testEnv, { at: 1, mode: "crash-before" });
    await expect(faulty.env.OBJECTS.put("faults/harness-d", "d")).rejects.toBeInstanceOf(InjectedFault);
    expect(await testEnv.OBJECTS.head("faults/harness-d")).toBeNull();
    await expect(faulty.env.OBJECTS.get("faults/harness-d")).rejects.toBeInstanceOf(InjectedFault);
  });

  it("Durable Object calls: logged by binding and method; error, crash-before and crash-after as for storage", async () => {
    // A limit of 1 per minute in a bucket of its own: whether the faulted call charged it shows in the next take.
    const bucket = () => `faults-harness-${crypto.randomUUID()}`;
    const take = (env: typeof testEnv, name: string) => env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(name)).take(name, 1, 60, 1, 0);

    const probe = faultyEnv(testEnv);
    const name = bucket();
    expect((await take(probe.env, name)).allowed).toBe(true);
    expect(probe.log).toEqual([{ n: 1, kind: "do", op: "do.take", detail: "RATE_LIMITER.take" }]);

    for (const [mode, charged] of [
      ["error", false],
      ["crash-before", false],
      ["crash-after", true],
    ] as const) {
      const faulty = faultyEnv(testEnv, { at: 1, mode, kinds: ["do"] });
      const b = bucket();
      await expect(take(faulty.env, b), mode).rejects.toBeInstanceOf(InjectedFault);
      expect((await take(testEnv, b)).allowed, `${mode}: the object ${charged ? "took" : "never saw"} the call`).toBe(!charged);
      expect(faulty.crashed, mode).toBe(mode !== "error");
      if (mode === "error") expect((await take(faulty.env, bucket())).allowed).toBe(true);
      else await expect(take(faulty.env, bucket())).rejects.toBeInstanceOf(InjectedFault);
    }
  });
});
