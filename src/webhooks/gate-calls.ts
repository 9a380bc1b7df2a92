import type { Bindings } from "../env";

/** The endpoint's gate: one Durable Object per endpoint, named after it. */
export function gateOf(env: Bindings, endpointId: string) {
  return env.WEBHOOK_GATE.get(env.WEBHOOK_GATE.idFromName(endpointId));
}

/**
 * Frees leases, once more on a fresh stub when the first call fails: after the gate object restarts (a deploy, a
 * reset) a stub that reached the old instance is broken for good, and a release that never lands would hold the
 * endpoint's slots until its leases lapse (LEASE_MS), stalling every delivery to it. Releasing twice is harmless:
 * the gate skips lease ids it does not hold. A second failure is thrown (the leases then lapse on their own).
 */
export async function releaseLeases(
  env: Bindings,
  endpointId: string,
  gate: ReturnType<typeof gateOf>,
  leaseIds: readonly string[],
  unsent: readonly string[] = [],
): Promise<void> {
  try {
    await gate.releaseMany(leaseIds, unsent);
  } catch {
    await gateOf(env, endpointId).releaseMany(leaseIds, unsent);
  }
}
