import { DurableObject } from "cloudflare:workers";
import { type BucketState, EMPTY_BUCKET, leakyBucket } from "./leaky-bucket";

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
  rate: BucketState;
  leases: Record<string, number>;
}

/**
 * One gate per webhook endpoint. Invariant: at most `maxConcurrency` unexpired leases exist at once and
 * at most `ratePerMinute` leases are granted per minute, across every Worker instance, because every
 * delivery attempt to the endpoint acquires its lease here.
 */
export class WebhookEndpointGate extends DurableObject<Env> {
  private state: State = { rate: EMPTY_BUCKET, leases: {} };

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      this.state = (await ctx.storage.get<State>("state")) ?? this.state;
    });
  }

  async acquire(config: GateConfig): Promise<GateDecision> {
    const now = Date.now();
    for (const [id, expiresAt] of Object.entries(this.state.leases)) if (expiresAt <= now) delete this.state.leases[id];
    const active = Object.values(this.state.leases);
    if (active.length >= config.maxConcurrency) {
      return { granted: false, reason: "concurrency", retryAfterMs: Math.max(1, Math.min(...active) - now) };
    }
    const rate = leakyBucket(this.state.rate, now, config.ratePerMinute, 60_000);
    if (!rate.allowed) return { granted: false, reason: "rate", retryAfterMs: rate.retryAfterMs };
    const leaseId = crypto.randomUUID();
    this.state.rate = rate.state;
    this.state.leases[leaseId] = now + config.leaseMs;
    void this.ctx.storage.put("state", this.state);
    return { granted: true, leaseId };
  }

  async release(leaseId: string): Promise<void> {
    if (this.state.leases[leaseId] === undefined) return;
    delete this.state.leases[leaseId];
    void this.ctx.storage.put("state", this.state);
  }

  async inFlight(): Promise<number> {
    const now = Date.now();
    return Object.values(this.state.leases).filter((t) => t > now).length;
  }
}
