import { z } from "@hono/zod-openapi";
import { idSchema } from "../../platform/ids";
import { Timestamp } from "../../platform/openapi";
import { NextCursorSchema } from "../../platform/pagination";

export const EXPORT_STATES = ["queued", "running", "completed", "failed", "expired"] as const;

/** Reason codes an export fails with (the record's `error_code`). */
export const EXPORT_FAILURES = {
  objectUnavailable: "svc.governance.export_object_unavailable",
  interrupted: "svc.governance.export_interrupted",
  signingUnavailable: "svc.governance.export_signing_unavailable",
  tooLarge: "svc.governance.export_too_large",
  /** A deletion of the tenant's data completed: a queued or running export fails, a completed one expires early. */
  endedByDeletion: "svc.governance.export_ended_by_deletion",
} as const;

const Hex64 = (description: string, example = "3b2c4e0b7a1d3c5e8f6a2b4d0c1e3f5a7b9d1c3e5f7a9b0d2c4e6f8a0b1c3d5e") =>
  z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .openapi({ description, example });

const NullableTimestamp = (description: string) => Timestamp(description).nullable();

export const ExportIdParams = z.object({
  export_id: idSchema("governanceExport", "Export id.").openapi({ param: { name: "export_id", in: "path" } }),
});

const DownloadSchema = z
  .object({
    url: z.string().url().openapi({
      description:
        "Presigned URL of the archive (R2's presigned origin; Worker-served only in development). The URL is the credential: never send the API key there. Minted anew on every read of the record.",
      example: "https://objects.example.com/t/tnt_abcdefghij234567/exports/gex_abcdefghij234567.tar?X-Amz-Signature=…",
    }),
    method: z.literal("GET").openapi({ description: "Always GET.", example: "GET" }),
    headers: z.record(z.string(), z.string()).openapi({ description: "Send exactly these headers (often none).", example: {} }),
    expires_at: Timestamp("The URL stops working at this instant (15 minutes after it was minted); read the export again for a new one."),
    filename: z.string().openapi({ description: "Suggested file name.", example: "gex_abcdefghij234567.tar" }),
    media_type: z.literal("application/x-tar").openapi({ description: "A POSIX ustar archive.", example: "application/x-tar" }),
  })
  .openapi("GovernanceExportDownload", { description: "Where to download the archive, while the export is `completed`." });

const SignatureSchema = z
  .object({
    format: z.literal("signed-note").openapi({
      description:
        "A signed note (c2sp.org/signed-note, ECDSA P-256 signature type 0x02) made with the transparency log's checkpoint key: the same key and format as the checkpoints of GET /v1/anchor/checkpoint, verifiable with `verifier_key` by any signed-note verifier.",
      example: "signed-note",
    }),
    key_name: z.string().openapi({ description: "The signing key's name (the log's origin).", example: "svc.example/manifest-log" }),
    verifier_key: z.string().openapi({
      description:
        "The public key in signed-note verifier form `<name>+<hex key id>+base64(0x02 ‖ SPKI)`: the `verifier_key` GET /v1/anchor/checkpoint publishes.",
      example: "svc.example/manifest-log+1a2b3c4d+AjBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABA…",
    }),
    note: z.string().openapi({
      description:
        "The note: text lines `svc-governance-export/v1`, export id, tenant id, `manifest.json`'s SHA-256 (hex), each ending in a newline; a blank line; the signature line (`— <key name> base64(key id ‖ DER ECDSA signature over SHA-256 of the text)`). Also in the archive as `manifest.sig`.",
      example: "svc-governance-export/v1\ngex_abcdefghij234567\ntnt_abcdefghij234567\n3b2c…\n\n— svc.example/manifest-log BASE64\n",
    }),
  })
  .openapi("GovernanceExportSignature", { description: "The service's signature over the manifest." });

export const GovernanceExportSchema = z
  .object({
    export_id: idSchema("governanceExport", "Export id."),
    state: z.enum(EXPORT_STATES).openapi({
      description:
        "`queued` → `running` → `completed` (archive ready) or `failed` (see `error_code`; nothing half-sealed is ever offered); `completed` → `expired` when the archive is deleted (7 days after completion, or at once when a deletion of the tenant's data completes: `error_code` says so).",
      example: "completed",
    }),
    requested_at: Timestamp("When the export was requested."),
    requested_by: z
      .object({
        kind: z.string().openapi({ description: "Actor kind, as in the audit log (`api_key`, `console_user`).", example: "api_key" }),
        id: z.string().nullable().openapi({ description: "The requesting key or user id.", example: "key_abcdefghij234567" }),
      })
      .openapi({ description: "Who asked for it." }),
    as_of: Timestamp(
      "The snapshot time: every record of the tenant created at or before it is in the archive, none created after. Rows that change (an asset's status, a key's last use) are read as they stand when the archive is sealed.",
    ),
    audit_head: z
      .object({
        seq: z.number().int().openapi({ description: "The last audit entry in the archive.", example: 42 }),
        hash: Hex64("That entry's hash: the archive's audit chain ends exactly here."),
      })
      .nullable()
      .openapi({ description: "The audit chain's head at `as_of`; null when the log was empty." }),
    started_at: NullableTimestamp("When the current or last attempt started; null while queued for the first time."),
    completed_at: NullableTimestamp("When it completed or failed; null before."),
    expires_at: NullableTimestamp("When the archive is deleted (completed exports); null otherwise."),
    counts: z
      .record(z.string(), z.number().int())
      .nullable()
      .openapi({
        description:
          "Rows per record kind (`assets`, `jobs`, `audit`, …), plus `objects` (stored objects whose bytes are included) and `objects_omitted` (objects whose bytes retention already deleted). Null until completed.",
        example: { assets: 12, jobs: 12, audit: 40, objects: 24, objects_omitted: 0 },
      }),
    file_count: z.number().int().nullable().openapi({ description: "Members of the archive, manifest included.", example: 61 }),
    bytes: z.number().int().nullable().openapi({ description: "Archive length in bytes; null until completed.", example: 1843200 }),
    archive_sha256: Hex64("SHA-256 (hex) of the whole archive as downloaded; null until completed.").nullable(),
    manifest_sha256: Hex64(
      "SHA-256 (hex) of the archive's `manifest.json`, the text the signature covers; null until completed.",
    ).nullable(),
    signature: SignatureSchema.nullable().openapi({ description: "The signature over the manifest; null until completed." }),
    download: DownloadSchema.nullable().openapi({
      description:
        "The archive's download, while `completed`; else null (also null while downloads are not configured in this deployment).",
    }),
    error_code: z.string().nullable().openapi({
      description:
        "Why it failed: `svc.governance.export_object_unavailable` (a stored object's bytes could not be read or did not match their hash), `svc.governance.export_interrupted` (three attempts did not finish), `svc.governance.export_signing_unavailable` (no signing key configured), `svc.governance.export_too_large` (an object of 8 GiB or more, an archive beyond R2's 10,000 parts of 5 MiB, or more than about 900,000 records: see the export's description), `svc.governance.export_ended_by_deletion` (a deletion of the tenant's data completed: a queued or running export fails with it, and an `expired` export whose archive was deleted early carries it). Null otherwise.",
      example: null,
    }),
    attempts: z
      .number()
      .int()
      .openapi({ description: "Attempts started (an interrupted attempt restarts from the beginning).", example: 1 }),
  })
  .openapi("GovernanceExport", {
    description:
      "An export of everything the tenant has as of one instant, as one signed POSIX ustar archive: `records/<kind>/NNNNNN.jsonl` (rows as stored, column names as in the database, at most 1,000 per file; every record of the tenant, console users, legal holds, deletions, exports and feedback included; API-key secret hashes, webhook secrets, share token hashes, challenge hashes, sealed creator fields, users' e-mail fields, the tenant's contact address and feedback's sealed message are omitted, so no e-mail, name or feedback text appears), `objects/<object id>` (each stored object's bytes; objects retention already deleted are counted in `objects_omitted`), `manifest.json` (`format` `svc.governance-export.v1`, `export_id`, `tenant_id`, `as_of`, `audit_head`, `files`: `{path, size, sha256}` of every member but itself and the signature, `counts`) and `manifest.sig` (the signed note over the manifest's SHA-256). Exact version: D1 has no snapshot spanning many queries, so the version is fixed by time — rows created at or before `as_of` and audit entries up to `audit_head`; rows that change are read as they stand when the archive is sealed, and a row deleted in between is absent. Ceiling: one export reads at most about 900,000 records (rows of every kind plus stored objects; each D1 query reads 1,000, within Workers' 1,000 D1 queries per invocation); a larger tenant's export fails with `svc.governance.export_too_large`.",
  });

export const GovernanceExportPageSchema = z
  .object({
    items: z.array(GovernanceExportSchema).openapi({ description: "Exports, newest first." }),
    next_cursor: NextCursorSchema,
  })
  .openapi("GovernanceExportPage");
