import { DurableObject } from "cloudflare:workers";

export interface GateConfig {
  maxConcurrency: number;
  ratePerMinute: number;
  /** A lease not released within this time is presumed dead (its Worker crashed) and frees its slot. */
  leaseMs: number;
}

export type GateDecision =
  | { granted: true; leaseId: string }
  | { granted: false; reason: "concurrency" | "rate"; retryAfterMs: number };

interface State {
  /** Grant times (ms) within the last minute, oldest first: the exact sliding-window rate log. */
  grants: number[];
  leases: Record<string, number>;
}

const WINDOW_MS = 60_000;

/**
 * One gate per webhook endpoint. Invariant: at most `maxConcurrency` unexpired leases exist at once and
 * at most `ratePerMinute` leases are granted in any 60-second window (a sliding log, not a bucket that would
 * let a burst and a refill both land in one minute), across every Worker instance, because every
 * delivery attempt to the endpoint acquires its lease here, and each decision is made on state updated before
 * any await. A caller may wait (bounded) for a slot instead of being refused: waiters are woken in arrival
 * order when a lease is released, so a busy endpoint is served without polling.
 */
export class WebhookEndpointGate extends DurableObject<Env> {
  private state: State = { grants: [], leases: {} };
  private waiters: (() => void)[] = [];

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      const stored = await ctx.storage.get<State>("state");
      if (stored && Array.isArray(stored.grants)) this.state = stored;
    });
  }

  private decide(config: GateConfig, now: number): GateDecision {
    for (const [id, expiresAt] of Object.entries(this.state.leases)) if (expiresAt <= now) delete this.state.leases[id];
    const active = Object.values(this.state.leases);
    if (active.length >= config.maxConcurrency) {
      return { granted: false, reason: "concurrency", retryAfterMs: Math.max(1, Math.min(...active) - now) };
    }
    const grants = this.state.grants;
    while (grants.length > 0 && grants[0]! <= now - WINDOW_MS) grants.shift();
    if (grants.length >= config.ratePerMinute) {
      // The grant that frees a slot is the one `ratePerMinute` back (the limit may have been lowered since).
      const freeing = grants[grants.length - config.ratePerMinute]!;
      return { granted: false, reason: "rate", retryAfterMs: Math.max(1, freeing + WINDOW_MS - now) };
    }
    const leaseId = crypto.randomUUID();
    grants.push(now);
    this.state.leases[leaseId] = now + config.leaseMs;
    // Not awaited: the output gate holds the reply until the write is durable.
    void this.ctx.storage.put("state", this.state);
    return { granted: true, leaseId };
  }

  /** Grants a lease now, or within `maxWaitMs` (default: no wait), or says when to come back. */
  async acquire(config: GateConfig, maxWaitMs = 0): Promise<GateDecision> {
    const started = Date.now();
    for (let round = 0; round < 10_000; round++) {
      const now = Date.now();
      const decision = this.decide(config, now);
      if (decision.granted) return decision;
      const remaining = started + maxWaitMs - now;
      // A full rate window cannot free up sooner than its oldest grant leaves; a busy slot can, at any release.
      if (remaining <= 0 || (decision.reason === "rate" && decision.retryAfterMs > remaining)) return decision;
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
    if (this.state.leases[leaseId] === undefined) return;
    delete this.state.leases[leaseId];
    void this.ctx.storage.put("state", this.state);
    this.waiters.shift()?.();
  }

  async inFlight(): Promise<number> {
    const now = Date.now();
    return Object.values(this.state.leases).filter((t) => t > now).length;
  }
}
