import { describe, expect, it } from "vitest";
import { guardStorage, storageFailureOf } from "../../../src/db/storage-guard";
import { testEnv } from "../support/helpers";

const rejection = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e,
  );

/*
 * Review of the Durable Object fault work (#22) (#22 L2: "only transient failures may answer 503 retryable"). isStatementVerdict knows D1's
 * refusals only by SQLite result codes and a few phrases; D1's own deterministic refusals carry none of them, so
 * they are classified as outages and answered 503 svc.dependency.unavailable + Retry-After: a client is told to
 * retry a call that fails the same way every time.
 */
describe("review: D1's own deterministic refusals are not outages", () => {
  it("D1_COLUMN_NOTFOUND (first() of a column the row does not have) is a defect, not a retryable outage", async () => {
    const env = guardStorage({ ...testEnv });
    const error = await rejection(env.DB.prepare("SELECT 1 AS a").first("nope"));
    expect(String(error)).toMatch(/D1_COLUMN_NOTFOUND/);
    expect(storageFailureOf(error)).toBeNull();
  });

  it("a batch of no statements ('No SQL statements detected.') is a defect, not a retryable outage", async () => {
    const env = guardStorage({ ...testEnv });
    const error = await rejection(env.DB.batch([]));
    expect(String(error)).toMatch(/No SQL statements detected/);
    expect(storageFailureOf(error)).toBeNull();
  });
});
