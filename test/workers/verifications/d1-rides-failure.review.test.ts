import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Bindings } from "../../../src/env";
import { imageServices } from "../../../src/media";
import { ensureC2paEngineLazily, revocationCheck } from "../../../src/verifications/verify-engines";
import { verifySubject } from "../../../src/verifications/verify-service";
import { createTenant, fixture } from "../support/helpers";
import { signedCopy } from "../support/verify-helpers";

/*
 * Review of b282ac0 (the development OCSP responder's revocation list read rides in the pixel-memo read's batch). When
 * the batch carrying the revocation list fails, the OCSP check must not answer "good" (a revoked certificate shown as
 * valid): the verification fails as a failed revocation-list read failed it before, and nothing waits for ever. With
 * and without the image pipeline (no memo read: the list goes alone, by flush).
 */

const db = (env as unknown as { DB: D1Database }).DB;

/** A D1 whose every batch (and lone read) carrying the revocation list fails, as a D1 outage would. */
function failingRevocations(): D1Database {
  const texts = new WeakMap<object, string>();
  const wrap = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const wrapped = new Proxy(statement, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (prop === "bind") return (...args: unknown[]) => wrap(value.apply(target, args), sql);
        if (sql.includes("dev_ocsp_revocations") && ["all", "first", "raw", "run"].includes(String(prop)))
          return () => Promise.reject(new Error("D1 unavailable (review)"));
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    texts.set(wrapped, sql);
    return wrapped;
  };
  return new Proxy(db, {
    get(target, prop) {
      if (prop === "prepare") return (sql: string) => wrap(target.prepare(sql), sql);
      if (prop === "batch")
        return (statements: D1PreparedStatement[]) =>
          statements.some((s) => texts.get(s)?.includes("dev_ocsp_revocations"))
            ? Promise.reject(new Error("D1 unavailable (review)"))
            : target.batch(statements);
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe("review b282ac0: a failed batch carrying the revocation list", () => {
  it("never answers OCSP good, and never hangs (with the memo read's batch, and alone)", async () => {
    const { key } = await createTenant();
    const { bytes } = await signedCopy(key, fixture("sample.jpg"), "image/jpeg");
    const plain = env as unknown as Bindings;
    const engine = await ensureC2paEngineLazily();
    const image = await imageServices();
    // Control: with D1 answering, the dev responder says good.
    const control = await verifySubject(
      plain,
      { ensureEngine: engine, image, revocation: revocationCheck(plain) },
      { bytes, mediaType: "image/jpeg" },
    );
    expect(control.signals.ocsp_status).toBe("good");

    const broken = { ...plain, DB: failingRevocations() } as Bindings;
    for (const services of [
      { ensureEngine: engine, image, revocation: revocationCheck(broken) },
      { ensureEngine: engine, image: null, revocation: revocationCheck(broken) },
    ]) {
      // Hang guard only.
      const outcome = await Promise.race([
        verifySubject(broken, services, { bytes, mediaType: "image/jpeg" }).then(
          (o) => ({ status: o.signals.ocsp_status ?? "absent" }),
          (e: unknown) => ({ status: `threw: ${String(e)}` }),
        ),
        new Promise<{ status: string }>((resolve) => setTimeout(() => resolve({ status: "hung" }), 120_000)),
      ]);
      expect(outcome.status).not.toBe("good");
      expect(outcome.status).not.toBe("hung");
    }
  }, 300_000);
});
