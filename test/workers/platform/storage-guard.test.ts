import { describe, expect, it } from "vitest";
import { database } from "../../../src/db/client";
import { tenants } from "../../../src/db/schema";
import { guardStorage, storageFailureOf } from "../../../src/db/storage-guard";
import { faultyEnv, InjectedFault } from "../support/faults";
import { testEnv } from "../support/helpers";

const rejection = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e,
  );

// #22: what the error mapper answers 503 for. Keyed on where an error came from (a guarded binding call), not its text.
describe("storage guard", () => {
  it("a binding call's rejection is a storage failure, through drizzle's wrapping too; other errors are not", async () => {
    const faulty = faultyEnv(testEnv, { at: 1 });
    const env = guardStorage(faulty.env);
    expect(guardStorage(faulty.env)).toBe(env); // one guarded env per env: per-env caches keep working
    expect(guardStorage(env)).toBe(env);
    const error = await rejection(database(env.DB).select({ id: tenants.id }).from(tenants).limit(1));
    expect((error as Error).cause).toBeInstanceOf(InjectedFault);
    expect(storageFailureOf(error)).toEqual({ binding: "d1", op: "raw" });
    // The same error not thrown by a guarded call, or any other error: not a storage failure.
    expect(storageFailureOf(new InjectedFault({ n: 1, kind: "d1", op: "d1.raw", detail: "" }))).toBeNull();
    expect(storageFailureOf(new TypeError("boom"))).toBeNull();
    expect(storageFailureOf("text")).toBeNull();
  });

  it("R2 and queue rejections are storage failures", async () => {
    const r2 = guardStorage(faultyEnv(testEnv, { at: 1, kinds: ["r2"] }).env);
    expect(storageFailureOf(await rejection(r2.OBJECTS.put("guard/x", "x")))).toEqual({ binding: "r2", op: "put" });
    const queue = guardStorage(faultyEnv(testEnv, { at: 1, kinds: ["queue"] }).env);
    expect(storageFailureOf(await rejection(queue.JOBS_QUEUE.send({})))).toEqual({ binding: "queue", op: "send" });
  });

  it("SQLite's verdict on a statement (constraint, syntax, unknown table) is the database answering, not an outage", async () => {
    const env = guardStorage({ ...testEnv });
    const syntax = await rejection(env.DB.prepare("SELEC 1").run());
    expect(syntax).toBeInstanceOf(Error);
    expect(storageFailureOf(syntax)).toBeNull();
    expect(storageFailureOf(await rejection(env.DB.prepare("SELECT * FROM no_such_table").all()))).toBeNull();
    const id = `ten_guard${Date.now()}`;
    const insert = () =>
      env.DB.prepare("INSERT INTO tenants (id, name, contact_email, status, created_at) VALUES (?, 'g', 'g@example.test', 'active', 1)")
        .bind(id)
        .run();
    await insert();
    const unique = await rejection(insert());
    expect(String(unique)).toMatch(/UNIQUE constraint failed/); // the original error, message intact, for code that reads it
    expect(storageFailureOf(unique)).toBeNull();
    // A healthy guarded batch and statement work as the binding's own.
    const [a, b] = await env.DB.batch([env.DB.prepare("SELECT ?1 AS v").bind(1), env.DB.prepare("SELECT 2 AS v")]);
    expect([a?.results, b?.results]).toEqual([[{ v: 1 }], [{ v: 2 }]]);
  });
});
