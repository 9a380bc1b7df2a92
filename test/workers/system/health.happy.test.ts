import { describe, expect, it } from "vitest";
import { api, json } from "../support/helpers";

describe("probes", () => {
  it("GET /healthz answers without probing dependencies", async () => {
    const res = await api("/healthz");
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ service: "svc", source_revision: "dev", status: "ok" });
    expect(res.headers.get("x-request-id")).toMatch(/^req_[a-z2-7]{16}$/);
  });

  it("GET /healthz/db runs a real query against D1", async () => {
    const res = await api("/healthz/db");
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ status: "ok" });
  });

  it("GET /readyz is ready when D1 answers and the secrets are configured", async () => {
    const res = await api("/readyz");
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ status: "ready" });
  });

  it("GET /readyz/governance reports each authority honestly (the reconciler has not run in this file: 503)", async () => {
    const res = await api("/readyz/governance");
    expect(res.status).toBe(503);
    expect(await json(res)).toEqual({
      capture_authority: true,
      commercial_authority: true,
      derived_index_reconciler: false,
      status: "not_ready",
    });
  });

  it("probes need no credential and ignore a bad one", async () => {
    const res = await api("/healthz", { key: "svc_live_garbage" });
    expect(res.status).toBe(200);
  });
});
