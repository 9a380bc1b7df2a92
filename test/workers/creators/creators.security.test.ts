import { afterEach, describe, expect, it, vi } from "vitest";
import { ALL_SCOPES, type Scope } from "../../../src/platform/auth/scopes";
import { FORBIDDEN_SCOPE_DETAIL } from "../../../src/platform/errors";
import { addKey, api, createTenant, json, testEnv } from "../support/helpers";
import { CONSENT, enrol, enrolled, expectError, idem } from "./helpers";

type Op = { method: string; path: string; body?: unknown; scope: Scope };

function operations(id: string): Op[] {
  return [
    { method: "GET", path: "/v1/creator-disclosure-policy", scope: "creators:read" },
    { method: "PUT", path: "/v1/creator-disclosure-policy", body: { brand_name: "Other" }, scope: "creators:write" },
    { method: "GET", path: "/v1/creator-identities", scope: "creators:read" },
    { method: "POST", path: "/v1/creator-identities", body: { email: "scope@news.test", consent: CONSENT }, scope: "creators:write" },
    { method: "GET", path: `/v1/creator-identities/${id}`, scope: "creators:read" },
    { method: "GET", path: `/v1/creator-identities/${id}/disclosure`, scope: "creators:disclose" },
    { method: "POST", path: `/v1/creator-identities/${id}/withdraw`, scope: "creators:write" },
  ];
}

const call = (key: string, op: Op) => api(op.path, { method: op.method, key, body: op.body, headers: idem() });

describe("scopes", () => {
  it("each operation needs exactly its scope: reads creators:read, writes creators:write, the disclosure creators:disclose alone", async () => {
    const t = await createTenant();
    const ada = await enrolled(t.key, "ada@news.test", "Ada");
    for (const missing of ["creators:read", "creators:write", "creators:disclose"] as const) {
      const { key } = await addKey(t.tenantId, { scopes: ALL_SCOPES.filter((s) => s !== missing) });
      for (const op of operations(ada.creator_id)) {
        const res = await call(key, op);
        if (op.scope === missing) {
          expect(res.status, `${op.method} ${op.path} without ${missing}`).toBe(403);
          expect(await json(res)).toEqual({ detail: FORBIDDEN_SCOPE_DETAIL });
        } else expect(res.status, `${op.method} ${op.path} without ${missing}`).toBeLessThan(300);
      }
    }
    // creators:read and creators:write do not imply creators:disclose, nor the other way round.
    const { key: readWrite } = await addKey(t.tenantId, { scopes: ["creators:read", "creators:write"] });
    expect((await api(`/v1/creator-identities/${ada.creator_id}/disclosure`, { key: readWrite })).status).toBe(403);
    const { key: discloseOnly } = await addKey(t.tenantId, { scopes: ["creators:disclose"] });
    expect((await api(`/v1/creator-identities/${ada.creator_id}`, { key: discloseOnly })).status).toBe(403);
    expect(
      (await api(`/v1/creator-identities/${ada.creator_id}/withdraw`, { method: "POST", key: discloseOnly, headers: idem() })).status,
    ).toBe(403);
    expect((await api(`/v1/creator-identities/${ada.creator_id}/disclosure`, { key: discloseOnly })).status).toBe(200);
    // The withdraw refused above changed nothing.
    const fresh = await enrolled(t.key, "fresh@news.test");
    expect(
      (await api(`/v1/creator-identities/${fresh.creator_id}/withdraw`, { method: "POST", key: discloseOnly, headers: idem() })).status,
    ).toBe(403);
    expect((await json(await api(`/v1/creator-identities/${fresh.creator_id}`, { key: t.key }))).status).toBe("active");
  });
});

describe("tenancy", () => {
  it("another tenant's identity answers 404 everywhere (like an unknown id) and changes nothing; lists and policies are per tenant", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const ada = await enrolled(a.key, "ada@news.test", "Ada");
    await api("/v1/creator-disclosure-policy", { method: "PUT", key: a.key, body: { brand_name: "A brand" } });
    const unknown = await json(await api("/v1/creator-identities/crid_abcdefghij234567", { key: b.key }));
    for (const path of [
      `/v1/creator-identities/${ada.creator_id}`,
      `/v1/creator-identities/${ada.creator_id}/disclosure`,
      `/v1/creator-identities/${ada.creator_id}/disclosure?audience=public`,
    ]) {
      const body = await expectError(await api(path, { key: b.key }), 404, "svc.resource.not_found");
      expect(body.message).toBe(unknown.message);
    }
    await expectError(
      await api(`/v1/creator-identities/${ada.creator_id}/withdraw`, { method: "POST", key: b.key, headers: idem() }),
      404,
      "svc.resource.not_found",
    );
    expect((await json(await api(`/v1/creator-identities/${ada.creator_id}`, { key: a.key }))).status).toBe("active");
    expect((await json(await api("/v1/creator-identities", { key: b.key }))).items).toEqual([]);
    // The same e-mail in another tenant is another subject: a new identity, not a's.
    const bAda = await enrol(b.key, { email: "ada@news.test", name: "Ada" });
    expect(bAda.status).toBe(201);
    expect((await json(bAda)).creator_id).not.toBe(ada.creator_id);
    await api("/v1/creator-disclosure-policy", { method: "PUT", key: b.key, body: { brand_name: "B brand", console_disclosure: "none" } });
    expect((await json(await api("/v1/creator-disclosure-policy", { key: a.key }))).brand_name).toBe("A brand");
    expect((await json(await api(`/v1/creator-identities/${ada.creator_id}/disclosure`, { key: a.key }))).disclosure_state).toBe(
      "disclosed",
    );
  });
});

// Distinctive personal data, searched for in every form it could leak in.
const EMAIL = "Zelda.Quill-Tx@Harbour-Gazette.ORG";
const NAME = "Zelda Quillfeather";
// Each holds letters beyond a-f, so no hex digest (commitments, hashes) can contain one by chance.
const NEEDLES = ["zelda", "quill", "harbour-gazette"];

function leaks(text: string): string[] {
  const lower = text.toLowerCase();
  return NEEDLES.filter((n) => lower.includes(n));
}

describe("personal data at rest and in logs", () => {
  afterEach(() => vi.restoreAllMocks());

  it("no column of any table, no log line and no request-log row holds the e-mail or name", async () => {
    const lines: string[] = [];
    for (const level of ["log", "info", "warn", "error", "debug"] as const)
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(" ")));
    const t = await createTenant();
    const created = await enrolled(t.key, EMAIL, NAME);
    expect((await enrol(t.key, { email: EMAIL.toLowerCase(), name: NAME })).status).toBe(200);
    await expectError(await enrol(t.key, { email: `${"z".repeat(320)}${EMAIL}`, name: NAME }), 422, "svc.request.invalid");
    const disclosed = await json(await api(`/v1/creator-identities/${created.creator_id}/disclosure`, { key: t.key }));
    expect(disclosed.end_user).toEqual({ name: NAME, email: EMAIL.toLowerCase() });
    await api(`/v1/creator-identities/${created.creator_id}/disclosure?audience=public`, { key: t.key });
    await api(`/v1/creator-identities/${created.creator_id}/withdraw`, { method: "POST", key: t.key, headers: idem() });

    // Request logs are written after the response (waitUntil): wait for all six.
    await vi.waitFor(
      async () => {
        const n = await testEnv.DB.prepare("SELECT COUNT(*) AS n FROM api_request_logs WHERE tenant_id = ?")
          .bind(t.tenantId)
          .first<{ n: number }>();
        expect(n!.n).toBeGreaterThanOrEqual(6);
      },
      { timeout: 60_000, interval: 50 }, // a poll: returns once they are there; 5 s was thin on a loaded machine
    );
    const tables = await testEnv.DB.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
    ).all<{
      name: string;
    }>();
    let cells = 0;
    for (const { name } of tables.results) {
      const rows = await testEnv.DB.prepare(`SELECT * FROM "${name}"`).all<Record<string, unknown>>();
      for (const row of rows.results)
        for (const [column, value] of Object.entries(row)) {
          cells++;
          const text = value instanceof ArrayBuffer ? new TextDecoder().decode(value) : String(value);
          expect(leaks(text), `${name}.${column}`).toEqual([]);
        }
    }
    expect(cells).toBeGreaterThan(20);
    const identity = await testEnv.DB.prepare("SELECT * FROM creator_identities WHERE id = ?")
      .bind(created.creator_id)
      .first<Record<string, unknown>>();
    expect(identity!.email_sealed).toEqual(expect.any(String));
    expect(identity!.name_sealed).toEqual(expect.any(String));
    expect(identity!.email_lookup).toMatch(/^[0-9a-f]{64}$/);
    expect(leaks(lines.join("\n"))).toEqual([]);
  });

  it("a sealed value moved to another field, record or tenant does not open (AAD): the disclosure is `unavailable`", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const ada = await enrolled(t.key, "ada@news.test", "Ada");
    const bo = await enrolled(t.key, "bo@news.test", "Bo");
    const cy = await enrolled(other.key, "cy@news.test", "Cy");
    const state = async (id: string) => (await json(await api(`/v1/creator-identities/${id}/disclosure`, { key: t.key }))).disclosure_state;
    const db = testEnv.DB;
    const row = (id: string) => db.prepare("SELECT * FROM creator_identities WHERE id = ?").bind(id).first<Record<string, string>>();
    const [adaRow, boRow, cyRow] = [await row(ada.creator_id), await row(bo.creator_id), await row(cy.creator_id)];
    const set = (id: string, column: string, value: string) =>
      db.prepare(`UPDATE creator_identities SET ${column} = ? WHERE id = ?`).bind(value, id).run();

    // Another record's e-mail (same tenant, same data key).
    await set(ada.creator_id, "email_sealed", boRow!.email_sealed!);
    expect(await state(ada.creator_id)).toBe("unavailable");
    await set(ada.creator_id, "email_sealed", adaRow!.email_sealed!);
    expect(await state(ada.creator_id)).toBe("disclosed");
    // The record's own name in its e-mail column.
    await set(ada.creator_id, "email_sealed", adaRow!.name_sealed!);
    expect(await state(ada.creator_id)).toBe("unavailable");
    await set(ada.creator_id, "email_sealed", adaRow!.email_sealed!);
    // Another tenant's sealed values and data key.
    await set(ada.creator_id, "name_sealed", cyRow!.name_sealed!);
    expect(await state(ada.creator_id)).toBe("unavailable");
    await set(ada.creator_id, "data_key_id", cyRow!.data_key_id!);
    expect(await state(ada.creator_id)).toBe("unavailable");
    // Another tenant's wrapped data key copied over this tenant's.
    await set(ada.creator_id, "name_sealed", adaRow!.name_sealed!);
    await set(ada.creator_id, "data_key_id", adaRow!.data_key_id!);
    expect(await state(ada.creator_id)).toBe("disclosed");
    const wrapped = await db
      .prepare("SELECT wrapped FROM tenant_data_keys WHERE id = ?")
      .bind(cyRow!.data_key_id)
      .first<{ wrapped: string }>();
    await db.prepare("UPDATE tenant_data_keys SET wrapped = ? WHERE id = ?").bind(wrapped!.wrapped, adaRow!.data_key_id).run();
    expect(await state(ada.creator_id)).toBe("unavailable");
  });
});
