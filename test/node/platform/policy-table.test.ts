import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { OPERATION_POLICIES } from "../../../src/platform/auth/policy";

/**
 * Issue #14 wrote the policy table with one helper per kind of entry (bearer, oneTimeSecret, publicOrTenant…). The
 * table as it stood before, dumped to JSON, is the reference: every entry must be exactly what it was (same keys in
 * the same order, same fields, no field added even as undefined). A deliberate policy change updates the dump too (#15 added the creators operations, #16 the capture identity and admission ones).
 */
const before = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "fixtures", "operation-policies.json"), "utf8")) as Record<
  string,
  unknown
>;

describe("the operation policy table (#14: written shorter, unchanged)", () => {
  it("has the same operations, in the same order", () => {
    expect(Object.keys(OPERATION_POLICIES)).toEqual(Object.keys(before));
  });

  it.each(Object.keys(before))("%s: the same policy", (key) => {
    expect(OPERATION_POLICIES[key]).toStrictEqual(before[key]);
  });
});
