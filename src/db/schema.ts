import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/*
 * Metadata in D1. Every tenant-owned row carries `tenant_id`, and every query filters on it.
 * Times are integer milliseconds since the epoch (sortable, exact); the API renders them as ISO 8601.
 */

export const tenants = sqliteTable("tenants", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  contactEmail: text("contact_email"),
  status: text("status", { enum: ["active", "deactivated"] }).notNull().default("active"),
  createdAt: integer("created_at").notNull(),
});

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    name: text("name").notNull(),
    /** HMAC-SHA256(pepper, secret), lowercase hex. The secret itself is never stored. */
    secretHash: text("secret_hash").notNull(),
    /** First characters of the secret, safe to show so people can tell keys apart. */
    displayPrefix: text("display_prefix").notNull(),
    /** JSON array of scope names. */
    scopes: text("scopes").notNull(),
    status: text("status", { enum: ["active", "revoked"] }).notNull().default("active"),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at"),
    revokedAt: integer("revoked_at"),
    lastUsedAt: integer("last_used_at"),
    createdByKeyId: text("created_by_key_id"),
  },
  (t) => [
    uniqueIndex("api_keys_secret_hash_uq").on(t.secretHash),
    index("api_keys_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
  ],
);

/**
 * One row per (tenant, operation, Idempotency-Key). `in_flight` rows are locks with a lease
 * (`locked_until`); `completed` rows hold the response to replay until `expires_at`.
 */
export const idempotencyRecords = sqliteTable(
  "idempotency_records",
  {
    tenantId: text("tenant_id").notNull(),
    operation: text("operation").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    requestSha256: text("request_sha256").notNull(),
    state: text("state", { enum: ["in_flight", "completed"] }).notNull(),
    lockedUntil: integer("locked_until").notNull(),
    responseStatus: integer("response_status"),
    responseContentType: text("response_content_type"),
    responseBody: text("response_body"),
    /** True when the response carried a one-time secret: it was not stored and is never replayed. */
    secretWithheld: integer("secret_withheld", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.operation, t.idempotencyKey] }),
    index("idempotency_records_expires_idx").on(t.expiresAt),
  ],
);

