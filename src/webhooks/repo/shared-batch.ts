/*
 * #19: one D1 round trip for the statements that a queue batch's endpoint runs issue at about the same time.
 * Each run claims and records its own rounds (repo/attempts.ts); with 20 endpoints in a batch those were 40 round
 * trips of a few statements each, and a D1 round trip costs far more than a statement (on local workerd ≈ 2 ms of
 * CPU against ≈ 0.1 ms per extra statement). A SharedBatch takes each caller's statements and sends them together:
 * at most one batch in flight; what is submitted meanwhile (or within `windowMs` of the first submission, or until
 * every run that joined is waiting) goes in the next, in submission order.
 * One D1 batch is one transaction: a caller's statements still run in order and all or none, and a statement that
 * fails fails every caller of that batch (each then retries its messages, as after any D1 failure).
 * A caller whose next submission depends on the last one (a run's claim after its record) submits through a lane:
 * once a lane's submission fails, its later ones are not sent but fail with it, as if they had been awaited in turn.
 */

/** What the engine's statements need of D1: prepare to build them, batch to run them. */
export type D1Batcher = Pick<D1Database, "prepare" | "batch">;

/** One caller's sequence of submissions: the first failure, once known, fails the rest unsent. */
interface Lane {
  failed?: { error: unknown };
}

interface Submission {
  statements: D1PreparedStatement[];
  lane?: Lane;
  resolve: (results: D1Result[]) => void;
  reject: (error: unknown) => void;
}

export class SharedBatch implements D1Batcher {
  private queued: Submission[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private sending = false;
  private members = 0;
  /** Round trips made and statements sent (the bench and tests read them). */
  readonly stats = { roundTrips: 0, statements: 0 };

  constructor(
    private readonly d1: D1Database,
    private readonly windowMs = 5,
  ) {}

  prepare(query: string): D1PreparedStatement {
    return this.d1.prepare(query);
  }

  /** A run taking part: once every member is waiting here, the batch goes without waiting for the window. */
  join(): () => void {
    this.members++;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.members--;
      this.maybeSend();
    };
  }

  /** A D1Batcher whose submissions are sent only while none of its earlier ones has failed. */
  lane(): D1Batcher {
    const lane: Lane = {};
    return { prepare: (query) => this.prepare(query), batch: (statements) => this.submit(statements, lane) };
  }

  batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    return this.submit(statements);
  }

  private submit<T = unknown>(statements: D1PreparedStatement[], lane?: Lane): Promise<D1Result<T>[]> {
    if (lane?.failed) return Promise.reject(lane.failed.error);
    if (statements.length === 0) return Promise.resolve([]);
    return new Promise<D1Result<T>[]>((resolve, reject) => {
      this.queued.push({ statements, lane, resolve: resolve as (r: D1Result[]) => void, reject });
      // While a batch is out, the pump sends this next when it returns; else within the window.
      if (!this.sending) this.timer ??= setTimeout(() => this.pump(), this.windowMs);
      this.maybeSend();
    });
  }

  private maybeSend(): void {
    if (!this.sending && this.queued.length > 0 && this.queued.length >= this.members) this.pump();
  }

  /** Sends what is queued, batch after batch until nothing is (so batches commit in submission order). */
  private pump(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.sending) return;
    this.sending = true;
    void (async () => {
      while (this.queued.length > 0) {
        // Submissions queued behind their lane's failure (made before it was known) fail with it, unsent.
        const taken: Submission[] = [];
        for (const s of this.queued) {
          if (s.lane?.failed) s.reject(s.lane.failed.error);
          else taken.push(s);
        }
        this.queued = [];
        if (taken.length === 0) continue;
        this.stats.roundTrips++;
        this.stats.statements += taken.reduce((n, s) => n + s.statements.length, 0);
        try {
          const results = await this.d1.batch(taken.flatMap((s) => s.statements));
          let at = 0;
          for (const s of taken) {
            s.resolve(results.slice(at, at + s.statements.length));
            at += s.statements.length;
          }
        } catch (error) {
          for (const s of taken) {
            if (s.lane) s.lane.failed ??= { error };
            s.reject(error);
          }
        }
      }
      this.sending = false;
    })();
  }
}
