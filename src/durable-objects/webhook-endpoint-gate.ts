import { DurableObject } from "cloudflare:workers";
import { rateRoom, SEND_WITHIN_MS } from "./gate-window";

export interface GateConfig {
  maxConcurrency: number;
  ratePerMinute: number;
  /** A lease not released within this time is presumed dead (its Worker crashed) and frees its slot. */
  leaseMs: number;
}

export type GateDecision =
  /** `sendBy`: start the request by then, or ask for a fresh grant first (regrant). */
  { granted: true; leaseId: string; sendBy: number } | GateRefusal;

export type GateRefusal = { granted: false; reason: "concurrency" | "rate"; retryAfterMs: number };

/** Several leases granted in one call: each is one request's slot and rate grant, exactly as one `acquire`. */
export type GateBatchDecision = { granted: true; leases: { leaseId: string; sendBy: number }[] } | GateRefusal;

interface State {
  /** Grant times (ms) within the gate window, oldest first: the exact sliding-window rate log. */
  grants: number[];
  /** Lease id → expiry (ms). */
  leases: Record<string, number>;
  /** Lease id → the time of its grant in `grants` (absent in state stored before margins existed). */
  grantedAt?: Record<string, number>;
}

/**
 * One gate per webhook endpoint. Invariant: at most `maxConcurrency` unexpired leases exist at once and
 * at most `ratePerMinute` leases are granted in any window of 60 seconds plus the send margin (a sliding log, not
 * a bucket that would let a burst and a refill both land in one minute; the margin, see gate-window.ts, keeps
 * the limit true at the receiver, where arrivals lag grants), across every Worker instance, because every
 * delivery attempt to the endpoint acquires its lease here, and each decision is made on state updated before
 * any await. A caller may wait (bounded) for a slot instead of being refused: waiters are woken in arrival
 * order when a lease is released, so a busy endpoint is served without polling.
 */
export class WebhookEndpointGate extends DurableObject<Env> {
  private state: State = { grants: [], leases: {} };
  private waiters: (() => void)[] = [];
  /** The state changed and is not written yet (a call that writes once for several changes, before its reply). */
  private dirty = false;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      const stored = await ctx.storage.get<State>("state");
      if (stored && Array.isArray(stored.grants)) this.state = stored;
    });
  }

  /** Writes the state, not awaited: the output gate holds the reply until the write is durable. */
  private write(): void {
    this.dirty = false;
    void this.ctx.storage.put("state", this.state);
  }

  /** Drops the leases expired at `now` (their slots are free); answers how many remain, all unexpired. */
  private expire(now: number): number {
    const grantedAt = (this.state.grantedAt ??= {});
    let active = 0;
    for (const id in this.state.leases) {
      if (this.state.leases[id]! > now) {
        active++;
        continue;
      }
      delete this.state.leases[id];
      delete grantedAt[id];
    }
    return active;
  }

  /**
   * Decides a new lease, or (`renewing`) a fresh grant for a held lease whose first grant went unused. `active`: the
   * unexpired leases at `now`, when the caller has just counted them (acquireMany's further grants at the same
   * `now`, #19: each re-scanned every lease, O(n²) per call); otherwise they are expired and counted here.
   */
  private decide(config: GateConfig, now: number, renewing?: string, persist = true, active?: number): GateDecision {
    const live = active ?? this.expire(now);
    const grantedAt = this.state.grantedAt!;
    const grants = this.state.grants;
    if (renewing !== undefined) {
      if (this.state.leases[renewing] === undefined) return { granted: false, reason: "concurrency", retryAfterMs: 1000 };
      // Its first grant was never sent: it leaves the log (a renewal takes a new place, never two).
      const unused = grantedAt[renewing];
      const at = unused === undefined ? -1 : grants.indexOf(unused);
      if (at >= 0) grants.splice(at, 1);
      delete grantedAt[renewing];
    } else if (live >= config.maxConcurrency) {
      return { granted: false, reason: "concurrency", retryAfterMs: Math.max(1, Math.min(...Object.values(this.state.leases)) - now) };
    }
    const room = rateRoom(grants, now, config.ratePerMinute);
    if (!room.room) return { granted: false, reason: "rate", retryAfterMs: room.retryAfterMs };
    const leaseId = renewing ?? crypto.randomUUID();
    grants.push(now);
    grantedAt[leaseId] = now;
    if (renewing === undefined) this.state.leases[leaseId] = now + config.leaseMs;
    // `persist` false: the caller writes once for several changes (acquireMany), before its reply.
    if (persist) this.write();
    else this.dirty = true;
    return { granted: true, leaseId, sendBy: now + SEND_WITHIN_MS };
  }

  /** Grants a lease now, or within `maxWaitMs` (default: no wait), or says when to come back. */
  async acquire(config: GateConfig, maxWaitMs = 0): Promise<GateDecision> {
    return this.waitFor(config, maxWaitMs);
  }

  /**
   * Up to `want` leases in one round trip (a run of deliveries to this endpoint): waits like `acquire` for the
   * first, then takes as many more as concurrency and rate allow at that moment, each decided like a lone acquire.
   * `release`: leases held until now (the run's previous round), freed first.
   */
  async acquireMany(
    config: GateConfig,
    want: number,
    maxWaitMs = 0,
    release?: { leaseIds: readonly string[]; unsent?: readonly string[] },
  ): Promise<GateBatchDecision> {
    // The state is written once per call, not once for the release, once for the first grant and once for the rest
    // (#19: with a rate log of hundreds of grants, copying it was the gate's main cost); a wait writes first.
    // The previous round's leases, freed in this same round trip before deciding.
    if (release) await this.free(release.leaseIds, release.unsent ?? [], false);
    const first = await this.waitFor(config, maxWaitMs, undefined, true);
    if (!first.granted) {
      if (this.dirty) this.write();
      return first;
    }
    const leases = [{ leaseId: first.leaseId, sendBy: first.sendBy }];
    const now = Date.now();
    // Expired once at `now`; each grant below adds one unexpired lease (decide at the same `now` would count the same).
    let active = this.expire(now);
    while (leases.length < want) {
      const next = this.decide(config, now, undefined, false, active);
      if (!next.granted) break;
      active++;
      leases.push({ leaseId: next.leaseId, sendBy: next.sendBy });
    }
    if (this.dirty) this.write();
    return { granted: true, leases };
  }

  /**
   * For a sender that could not start its request by `sendBy`: a fresh grant for its lease, now or within
   * `maxWaitMs`, so the request still counts where it arrives. Refused: do not send on this lease.
   */
  async regrant(leaseId: string, config: GateConfig, maxWaitMs = 0): Promise<GateDecision> {
    return this.waitFor(config, maxWaitMs, leaseId);
  }

  /** `defer`: a grant is not written here (the caller writes before its reply); what changed is written before a wait. */
  private async waitFor(config: GateConfig, maxWaitMs: number, renewing?: string, defer = false): Promise<GateDecision> {
    const started = Date.now();
    for (let round = 0; round < 10_000; round++) {
      const now = Date.now();
      const decision = this.decide(config, now, renewing, !defer);
      if (decision.granted) return decision;
      // A renewal whose lease is gone has nothing to wait for.
      if (renewing !== undefined && decision.reason === "concurrency") return decision;
      const remaining = started + maxWaitMs - now;
      // A full rate window cannot free up sooner than its oldest grant leaves; a busy slot can, at any release.
      if (remaining <= 0 || (decision.reason === "rate" && decision.retryAfterMs > remaining)) return decision;
      if (this.dirty) this.write();
      // Woken by a release (concurrency) or when the bucket has room again (rate), whichever comes first.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(wake, Math.min(decision.retryAfterMs, remaining));
        const waiters = this.waiters;
        function wake() {
          clearTimeout(timer);
          const i = waiters.indexOf(wake);
          if (i >= 0) waiters.splice(i, 1);
          resolve();
        }
        if (decision.reason === "concurrency") waiters.push(wake);
      });
    }
    return { granted: false, reason: "concurrency", retryAfterMs: 1000 };
  }

  async release(leaseId: string): Promise<void> {
    return this.releaseMany([leaseId]);
  }

  /**
   * Frees leases in one round trip. `unsent` names those whose request was never started (their delivery was
   * claimed elsewhere meanwhile): their grants leave the rate log, as a regrant's unused grant does.
   */
  async releaseMany(leaseIds: readonly string[], unsent: readonly string[] = []): Promise<void> {
    return this.free(leaseIds, unsent, true);
  }

  /** releaseMany; `persist` false: the caller writes (acquireMany, once for the release and its grants). */
  private async free(leaseIds: readonly string[], unsent: readonly string[], persist: boolean): Promise<void> {
    const grantedAt = this.state.grantedAt ?? {};
    let freed = 0;
    for (const leaseId of leaseIds) {
      if (this.state.leases[leaseId] === undefined) continue;
      if (unsent.includes(leaseId) && grantedAt[leaseId] !== undefined) {
        const at = this.state.grants.indexOf(grantedAt[leaseId]!);
        if (at >= 0) this.state.grants.splice(at, 1);
      }
      delete this.state.leases[leaseId];
      delete grantedAt[leaseId];
      freed++;
    }
    if (freed === 0) return;
    if (persist) this.write();
    else this.dirty = true;
    for (let i = 0; i < freed; i++) this.waiters.shift()?.();
  }

  async inFlight(): Promise<number> {
    const now = Date.now();
    return Object.values(this.state.leases).filter((t) => t > now).length;
  }
}
