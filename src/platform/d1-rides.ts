/*
 * Reads that ride in a verification's next D1 batch (#19). A read that can wait for the verification's next round
 * trip (the development OCSP responder's revocation list) is queued here instead of making a round trip of its own;
 * the verification's next batch (its pixel-memo read) carries it, or `flush` sends what is queued alone.
 * Invariant: every queued read is answered or rejected once `send` or `flush` ran after it was queued, and the owner
 * of the rides calls `flush` before it awaits anything that waits on a queued read.
 */

export interface D1Rides {
  /** Queues `statement` for the next batch: resolves to its result, or rejects with that batch's failure. */
  ride(statement: D1PreparedStatement): Promise<D1Result>;
  /** Runs `statements` in one batch with every queued read: `statements`' own results, in order. */
  send(statements: D1PreparedStatement[]): Promise<D1Result[]>;
  /** Sends the queued reads alone (nothing when none is queued). */
  flush(): Promise<void>;
}

export function d1Rides(db: D1Database): D1Rides {
  let queued: { statement: D1PreparedStatement; resolve: (r: D1Result) => void; reject: (e: unknown) => void }[] = [];
  const send = async (statements: D1PreparedStatement[]): Promise<D1Result[]> => {
    const riders = queued;
    queued = [];
    if (riders.length === 0) return statements.length === 0 ? [] : db.batch(statements);
    try {
      const results = await db.batch([...statements, ...riders.map((r) => r.statement)]);
      riders.forEach((r, i) => {
        r.resolve(results[statements.length + i]!);
      });
      return results.slice(0, statements.length);
    } catch (error) {
      for (const r of riders) r.reject(error);
      throw error;
    }
  };
  return {
    ride: (statement) =>
      new Promise<D1Result>((resolve, reject) => {
        queued.push({ statement, resolve, reject });
      }),
    send,
    flush: async () => {
      // Only the riders see a failure of their own batch: they reject with it.
      await send([]).catch(() => undefined);
    },
  };
}
