import { describe, expect, it } from "vitest";
import { verifications } from "../../../src/db/schema";
import { insertVerification, type VerificationInsert } from "../../../src/verifications/repo";
import { recordingDb, reference, sqlOf } from "../../support/recording-d1";

/*
 * #19: a keyed verify's record is inserted by a statement built once per row shape (db/statements.ts). It must be
 * exactly drizzle's insert of the same row (SQL text and bound values, JSON columns encoded alike), whatever optional
 * fields the row leaves out, and a second row of the same shape must bind its own values.
 */

const full: VerificationInsert = {
  id: "ver_1",
  tenantId: "ten_1",
  subjectType: "uploaded_object",
  overall: "valid",
  assetId: null,
  jobId: null,
  objectId: null,
  policyVersion: null,
  sourceByteLength: 273_820,
  sourceMediaType: "image/jpeg",
  validationPath: "c2pa-fast",
  evidence: JSON.stringify({ warnings: ["w"], signals: { ocsp_status: "good" } }),
  status: "verified_manifest",
  statusVocabularyVersion: "1",
  manifestId: "urn:c2pa:1",
  createdAt: 1_700_000_000_000,
  validatedAt: 1_700_000_000_001,
};

describe("insertVerification (#19)", () => {
  it("binds drizzle's own insert for the same row, for rows of several shapes", async () => {
    const { manifestId: _m, validationPath: _v, ...sparse } = full;
    const rows: VerificationInsert[] = [
      full,
      { ...full, id: "ver_2", manifestId: null, overall: "invalid" },
      sparse,
      { ...sparse, id: "ver_3" },
    ];
    const { db, statements } = recordingDb();
    for (const row of rows) await insertVerification(db, row);
    expect(statements).toEqual(rows.map((row) => sqlOf(reference.insert(verifications).values(row))));
    expect(statements[1]!.params).toContain("ver_2");
    expect(statements[3]!.params).toContain("ver_3");
  });
});
