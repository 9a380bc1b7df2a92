import type { AppContext } from "../platform/context";
import { principalOf } from "../platform/context";
import { ApiError } from "../platform/errors";
import { grantOf, type KeyGrant } from "./authority";
import type { ApiKeyRow } from "./repo";
import { authorityOver } from "./service";

/**
 * Refuses (403 `svc.api_keys.outranks_caller`) unless the calling key covers every target: the key acted on, and
 * whatever that key would become or also affects (a successor; new restrictions). Every mutating API-key operation
 * calls it before it changes anything.
 */
export async function requireAuthorityOver(c: AppContext, targets: (ApiKeyRow | KeyGrant)[]): Promise<void> {
  const grants = targets.map((t) => ("secretHash" in t ? grantOf(t) : t));
  const decision = await authorityOver(c.var.db, principalOf(c), grants);
  if (!decision.covered) throw new ApiError("svc.api_keys.outranks_caller", `The calling key may not manage this key: ${decision.detail}.`);
}
