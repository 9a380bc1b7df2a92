/**
 * A D1 binding seen through a proxy: every statement bound is reported (its SQL, its values and the bound statement),
 * and every batch after it ran. Tests use it to read which statements a lookup sends, or to act at the moment a
 * given batch has run. The binding's behaviour is unchanged.
 */
export function observedD1(
  db: D1Database,
  hooks: {
    onBind?: (sql: string, binds: unknown[], bound: D1PreparedStatement) => void;
    afterBatch?: (statements: D1PreparedStatement[]) => void;
  },
): D1Database {
  return new Proxy(db, {
    get(target, prop) {
      if (prop === "prepare")
        return (sql: string) => {
          const prepared = target.prepare(sql);
          return new Proxy(prepared, {
            get(p, name) {
              if (name === "bind")
                return (...binds: unknown[]) => {
                  const bound = p.bind(...binds);
                  hooks.onBind?.(sql, binds, bound);
                  return bound;
                };
              const value = Reflect.get(p, name);
              return typeof value === "function" ? value.bind(p) : value;
            },
          });
        };
      if (prop === "batch" && hooks.afterBatch)
        return async (statements: D1PreparedStatement[]) => {
          const results = await target.batch(statements);
          hooks.afterBatch?.(statements);
          return results;
        };
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** A D1 whose bound statements are recorded (SQL and values) in order. */
export function recordingD1(db: D1Database): { d1: D1Database; statements: { sql: string; binds: unknown[] }[] } {
  const statements: { sql: string; binds: unknown[] }[] = [];
  return { d1: observedD1(db, { onBind: (sql, binds) => statements.push({ sql, binds }) }), statements };
}
