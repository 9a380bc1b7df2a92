import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Bindings } from "../../../src/env";
import { imageServices } from "../../../src/media";
import { d1Rides } from "../../../src/platform/d1-rides";
import { ensureC2paEngineLazily, revocationCheck } from "../../../src/verifications/verify-engines";
import { verifySubject } from "../../../src/verifications/verify-service";
import { createTenant, fixture } from "../support/helpers";
import { observedD1 } from "../support/observed-d1";
import { signedCopy } from "../support/verify-helpers";

/* #19: reads that ride in a verification's next D1 batch (d1-rides.ts). */

const db = (env as unknown as { DB: D1Database }).DB;
const one = (n: number) => db.prepare("SELECT ? AS n").bind(n);

describe("d1Rides", () => {
  it("a queued read is answered by the next batch, with the batch's own results apart; flush sends the rest alone", async () => {
    const rides = d1Rides(db);
    const first = rides.ride(one(1));
    const second = rides.ride(one(2));
    const own = await rides.send([one(10), one(11)]);
    expect(own.map((r) => (r.results[0] as { n: number }).n)).toEqual([10, 11]);
    expect(((await first).results[0] as { n: number }).n).toBe(1);
    expect(((await second).results[0] as { n: number }).n).toBe(2);
    const later = rides.ride(one(3));
    await rides.flush();
    expect(((await later).results[0] as { n: number }).n).toBe(3);
    await rides.flush(); // nothing queued: nothing sent
    expect(await rides.send([])).toEqual([]);
  });

  it("a failed batch rejects its riders and its sender (no read is left waiting)", async () => {
    const rides = d1Rides(db);
    const rider = rides.ride(one(1));
    rider.catch(() => {});
    await expect(rides.send([db.prepare("SELECT * FROM no_such_table_here")])).rejects.toThrow();
    await expect(rider).rejects.toThrow();
    const alone = rides.ride(db.prepare("SELECT * FROM no_such_table_here"));
    alone.catch(() => {});
    await rides.flush(); // flush itself does not throw: the rider does
    await expect(alone).rejects.toThrow();
  });

  it("a keyed verification's revocation list read (dev responder) rides in the pixel-memo read's batch: same OCSP answer", async () => {
    const { key } = await createTenant();
    const { bytes } = await signedCopy(key, fixture("sample.jpg"), "image/jpeg");
    const alone: string[] = [];
    const batches: string[][] = [];
    const texts = new WeakMap<object, string>();
    const d1 = observedD1(db, {
      onBind: (sql, _binds, bound) => texts.set(bound, sql),
      afterBatch: (statements) => batches.push(statements.map((s) => texts.get(s) ?? "?")),
    });
    const counted = new Proxy(d1, {
      get(target, prop) {
        if (prop === "prepare")
          return (sql: string) => {
            const p = target.prepare(sql);
            const prepared = new Proxy(p, {
              get(s, name) {
                if (name === "bind") return (...b: unknown[]) => s.bind(...b);
                if (name === "first" || name === "all" || name === "raw" || name === "run") alone.push(sql);
                const v = Reflect.get(s, name);
                return typeof v === "function" ? v.bind(s) : v;
              },
            });
            texts.set(prepared, sql); // a statement sent without bind()
            return prepared;
          };
        const v = Reflect.get(target, prop);
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    const observed = { ...(env as unknown as Bindings), DB: counted } as Bindings;
    const services = { ensureEngine: await ensureC2paEngineLazily(), image: await imageServices(), revocation: revocationCheck(observed) };
    const outcome = await verifySubject(observed, services, { bytes, mediaType: "image/jpeg" });
    expect(outcome.signals.ocsp_status).toBe("good");
    const memoBatch = batches.find((b) => b.some((s) => s.includes("FROM verify_pixel_memos")));
    expect(memoBatch, JSON.stringify(batches)).toBeDefined();
    expect(memoBatch!.some((s) => s.includes("dev_ocsp_revocations"))).toBe(true);
    expect(alone.filter((s) => s.includes("dev_ocsp_revocations"))).toEqual([]);
  }, 240_000);
});
