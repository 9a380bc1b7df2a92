export interface ScriptEntry {
  tenantId: string;
  seq: number;
  id: string;
  occurredAt: number;
  action: string;
  outcome: "succeeded";
  actorKind: "operator";
  actorId: string;
  credentialId: null;
  requestId: null;
  targetType: "legal_hold";
  targetId: string;
  statusCode: null;
  detail: string;
  prevHash: string;
  hash: string;
}
export type Exec = (sql: string) => Promise<Record<string, unknown>[]>;
export const GENESIS_HASH: string;
export const AUDIT_HASH_VERSION: string;
export function sql(value: string | number | null | undefined): string;
export function entryHash(entry: Omit<ScriptEntry, "hash"> | Record<string, unknown>): string;
export function canonicalDetail(detail: Record<string, unknown>): string;
export function operatorEntry(
  head: { seq: number; hash: string } | null,
  options: {
    tenantId: string;
    action: string;
    operator: string;
    holdId: string;
    detail: Record<string, unknown>;
    now?: number;
    id?: string;
  },
): ScriptEntry;
export function insertEntrySql(entry: ScriptEntry): string;
export class UsageError extends Error {}
export function placeHold(
  exec: Exec,
  options: { tenant: string; asset?: string | null; reason: string; by: string; now?: number },
): Promise<{ holdId: string; scope: "account" | "asset"; asset: string | null; auditSeq: number }>;
export function releaseHold(
  exec: Exec,
  options: { hold: string; by: string; now?: number },
): Promise<{ holdId: string; tenantId: string; auditSeq: number }>;
export function listHolds(exec: Exec, options: { tenant: string }): Promise<Record<string, unknown>[]>;
export function parseArgs(argv: string[]): { command: string | undefined; options: Record<string, string | boolean> };
