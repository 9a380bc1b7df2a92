import type { Database } from "../db/client";
import { ApiError } from "../platform/errors";
import { type ApiKeyRow, updateControl } from "./repo";

/** What every versioned key control carries besides its own fields. */
export type Control = { version: number; updated_at: string | null };
/** The key row's columns that hold a versioned control (JSON). */
export type ControlColumn = "restrictions" | "signingProfile" | "retention";

/**
 * Replaces one versioned key control (restrictions, signing profile, retention): refuses a stale
 * `expected_version`, bumps the version, and writes only if nobody changed it since it was read (409 otherwise).
 */
export async function replaceControl<T extends Control>(
  db: Database,
  key: ApiKeyRow,
  column: ControlColumn,
  current: T,
  expectedVersion: number | undefined,
  fields: Omit<T, "version" | "updated_at">,
): Promise<T> {
  if (expectedVersion !== undefined && expectedVersion !== current.version) throw new ApiError("svc.api_keys.version_conflict");
  const next = { ...fields, version: current.version + 1, updated_at: new Date().toISOString() } as T;
  if (!(await updateControl(db, key.tenantId, key.id, column, key[column], JSON.stringify(next))))
    throw new ApiError("svc.api_keys.version_conflict");
  return next;
}
