import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { AuditDraft } from "../../../src/platform/audit";
import { api, createTenant, json, testEnv } from "../support/helpers";

function draft(action: string, detail: Record<string, unknown> | null = null): AuditDraft {
  return {
    action,
    outcome: "succeeded",
    actorKind: "service",
    actorId: null,
    credentialId: null,
    requestId: null,
    targetType: null,
    targetId: null,
    statusCode: null,
    detail,
  };
}

/** runInDurableObject, untyped: its generics over the AuditChain instance are too deep for the compiler. */
const inObject = runInDurableObject as unknown as <T>(stub: unknown, fn: (instance: any) => Promise<T>) => Promise<T>;

function chainOf(tenantId: string) {
  const ns = testEnv.AUDIT_CHAIN;
  return ns.get(ns.idFromName(`audit:${tenantId}`));
}

async function actions(key: string): Promise<string[]> {
  const page = await json(await api("/v1/governance/audit?limit=200&verify=true", { key }));
  expect(page.verification).toMatchObject({ intact: true, witness: "matches" });
  return page.items.map((e: any) => e.action).reverse();
}

describe("AuditChain failures stay with their own caller", () => {
  it("a bad draft coalesced with others rejects its own caller only", async () => {
    const { key, tenantId } = await createTenant();
    const results = await inObject(chainOf(tenantId), async (instance): Promise<string[]> => {
      // The first starts a write; the next two wait and are coalesced into one group.
      const first = instance.append(tenantId, [draft("test.first")]);
      const bad = instance.append(tenantId, [draft("test.bad", { n: 1n })]); // a BigInt: no JSON form
      const good = instance.append(tenantId, [draft("test.good")]);
      return Promise.allSettled([first, bad, good]).then((r) => r.map((x) => x.status));
    });
    expect(results).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const written = await actions(key);
    expect(written).toContain("test.first");
    expect(written).toContain("test.good");
    expect(written).not.toContain("test.bad");
  });

  it("a failed witness update after the entries are written does not reject their callers; the next write catches up", async () => {
    const { key, tenantId } = await createTenant();
    const outcome = await inObject(chainOf(tenantId), async (instance): Promise<string> => {
      const real = instance.ctx;
      const storage = real.storage;
      let failed = 0;
      Object.defineProperty(instance, "ctx", {
        configurable: true,
        value: {
          storage: {
            get: (k: string) => storage.get(k),
            put: async (k: string, v: unknown) => {
              if (k === "head" && failed++ === 0) throw new Error("storage unavailable (transient)");
              return storage.put(k, v);
            },
          },
        },
      });
      try {
        const first = await instance.append(tenantId, [draft("test.witness_lagging")]).then(
          () => "fulfilled",
          () => "rejected",
        );
        await instance.append(tenantId, [draft("test.witness_caught_up")]);
        return first;
      } finally {
        Object.defineProperty(instance, "ctx", { configurable: true, value: real });
      }
    });
    expect(outcome).toBe("fulfilled");
    expect((await actions(key)).slice(-2)).toEqual(["test.witness_lagging", "test.witness_caught_up"]);
  });
});
