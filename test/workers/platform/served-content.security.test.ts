import { createExecutionContext } from "cloudflare:test";
import { env as rawEnv } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { contextServices, createRouter } from "../../../src/platform/context";
import { onError } from "../../../src/platform/error-mapper";
import { contentDisposition, servedObjectHeaders } from "../../../src/platform/served-object";
import { storageRoutes } from "../../../src/storage/routes";
import { presign } from "../../../src/storage/signed-urls";
import { api, callUrl, createTenant, fixture, json, sha256HexOf, testEnv, uploadAsset, waitForJob } from "../support/helpers";

/*
 * Issue #13.5: content served from our origin. Every object the service serves (downloads, sidecars, previews,
 * reports, resolution-API manifests, the upload capability answers) carries nosniff and a sandbox CSP, and
 * downloads are attachments with a safe filename, so a signed HTML/SVG/XML file never runs on the API origin.
 */

const db = (rawEnv as unknown as { DB: D1Database }).DB;
const utf8 = (text: string) => new TextEncoder().encode(text);

/** A hostile page: if a browser ever renders it from the API origin, it runs with that origin's rights. */
const HOSTILE_HTML = utf8(
  "<!DOCTYPE html><html><body><script>fetch('/v1/api-keys').then(r=>r.text()).then(alert)</script></body></html>\n",
);
const HOSTILE_XML = utf8(
  '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><script>alert(document.domain)</script></html>\n',
);
const HOSTILE_FILENAME = "<script>alert(1)</script>.html";

interface Published {
  assetId: string;
  job: any;
  download: any;
  res: Response;
}

async function publish(key: string, bytes: Uint8Array, mediaType: string, recipeId: string, filename = "file"): Promise<Published> {
  const { assetId } = await uploadAsset(key, bytes, mediaType, filename);
  const started = await api("/v1/sign", {
    method: "POST",
    key,
    body: { asset_id: assetId, recipe_id: recipeId },
    headers: { "idempotency-key": crypto.randomUUID() },
  });
  expect(started.status, await started.clone().text()).toBe(202);
  const job = await waitForJob(key, (await json(started)).job_id, 60_000);
  expect(job.state, JSON.stringify(job)).toBe("completed");
  const download = await json(await api(`/v1/assets/${assetId}/download`, { method: "POST", key }));
  const res = await callUrl(download.url, { method: "GET", headers: download.headers });
  return { assetId, job, download, res };
}

/** The CSP directives of a response, by name (lower case), each with its value. */
function cspOf(res: Response): Map<string, string> {
  const header = res.headers.get("content-security-policy") ?? "";
  return new Map(
    header
      .split(";")
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...rest] = d.split(/\s+/);
        return [name!.toLowerCase(), rest.join(" ")] as [string, string];
      }),
  );
}

/** What every served object carries, whatever its type. */
function expectServedSafely(res: Response, what: string) {
  expect(res.headers.get("x-content-type-options"), `${what}: nosniff`).toBe("nosniff");
  const csp = cspOf(res);
  expect(csp.has("sandbox"), `${what}: CSP sandbox (${res.headers.get("content-security-policy")})`).toBe(true);
  expect(csp.get("sandbox"), `${what}: a sandbox without exceptions`).toBe("");
  expect(csp.get("default-src"), `${what}: default-src 'none'`).toBe("'none'");
}

function expectAttachment(res: Response, filename: string, what: string) {
  expect(res.headers.get("content-disposition"), `${what}: attachment`).toBe(`attachment; filename="${filename}"`);
}

let key: string;
let html: Published;

beforeAll(async () => {
  ({ key } = await createTenant());
  html = await publish(key, HOSTILE_HTML, "text/html", "rcp_private_sidecar_text_sign_only", HOSTILE_FILENAME);
}, 120_000);

describe("#13.5 content served from our origin", () => {
  it("#13.5 a signed HTML download is an attachment with nosniff and a sandbox CSP", async () => {
    const { res, download, assetId } = html;
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(HOSTILE_HTML);
    expect(res.headers.get("content-type")).toBe("text/html");
    expect(download.filename).toBe(`${assetId}.html`);
    expectAttachment(res, `${assetId}.html`, "html download");
    expectServedSafely(res, "html download");
  });

  it("#13.5 the sidecar manifest of a download is an attachment with nosniff and a sandbox CSP", async () => {
    const { download, assetId } = html;
    const res = await callUrl(download.sidecar_manifest.url, { method: "GET", headers: download.sidecar_manifest.headers });
    expect(res.status).toBe(200);
    expect(await sha256HexOf(new Uint8Array(await res.arrayBuffer()))).toBe(download.sidecar_manifest.sha256);
    expect(res.headers.get("content-type")).toBe("application/c2pa");
    expectAttachment(res, `${assetId}.html.c2pa`, "sidecar");
    expectServedSafely(res, "sidecar");
  });

  it("#13.5 signed SVG and XML downloads are attachments with nosniff and a sandbox CSP", async () => {
    const svg = await publish(key, fixture("sample.svg"), "image/svg+xml", "rcp_system_structural_sign_only");
    expect(svg.res.status).toBe(200);
    expect(svg.res.headers.get("content-type")).toBe("image/svg+xml");
    expectAttachment(svg.res, `${svg.assetId}.svg`, "svg download");
    expectServedSafely(svg.res, "svg download");

    for (const mediaType of ["application/xml", "application/xhtml+xml"]) {
      const xml = await publish(key, HOSTILE_XML, mediaType, "rcp_private_sidecar_text_sign_only");
      expect(xml.res.status).toBe(200);
      expect(xml.res.headers.get("content-type")).toBe(mediaType);
      expectAttachment(xml.res, xml.download.filename, `${mediaType} download`);
      expectServedSafely(xml.res, `${mediaType} download`);
    }
  });

  it("#13.5 upload capability answers carry nosniff and a sandbox CSP", async () => {
    const bytes = utf8("plain text\n");
    const created = await json(
      await api("/v1/uploads", {
        method: "POST",
        key,
        body: { byte_length: bytes.length, declared_media_type: "text/plain", mode: "single", sha256: await sha256HexOf(bytes) },
      }),
    );
    const put = await callUrl(created.upload.url, { method: created.upload.method, headers: created.upload.headers, body: bytes });
    expect(put.status).toBe(200);
    expectServedSafely(put, "upload PUT");
  });

  it("#13.5 previews are inline JPEGs with nosniff and a sandbox CSP", async () => {
    const jpeg = await publish(key, fixture("sample.jpg"), "image/jpeg", "rcp_system_sign_only");
    const created = await api(`/v1/assets/${jpeg.assetId}/preview`, { method: "POST", key });
    expect(created.status, await created.clone().text()).toBe(200);
    const preview = await json(created);
    const res = await callUrl(preview.url, { method: "GET", headers: preview.headers });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/jpeg");
    expect(res.headers.get("content-disposition") ?? "inline").toMatch(/^inline\b/);
    expectServedSafely(res, "preview");
  });

  it("#13.5 reports carry nosniff and a sandbox CSP, and never reflect uploaded content unescaped", async () => {
    // The publication-time check of the hostile HTML: its manifest title is the customer's file name.
    const created = await api(`/v1/verification-evidence/${html.job.result.verification_id}/reports`, {
      method: "POST",
      key,
      headers: { "idempotency-key": crypto.randomUUID() },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const report = await json(created);
    for (const format of ["html", "json"] as const) {
      const res = await api(report.formats[format].url, { key });
      expect(res.status).toBe(200);
      expectServedSafely(res, `report ${format}`);
      const text = await res.text();
      if (format === "html") {
        expect(text).not.toContain(HOSTILE_FILENAME);
        expect(text).not.toMatch(/<script/i);
        // Its own style is allowed by hash only: no 'unsafe-inline'.
        expect(cspOf(res).get("style-src")).toMatch(/^'sha256-[A-Za-z0-9+/]{43}='$/);
      }
    }
  });

  it("#13.5 resolution-API manifests carry nosniff and a sandbox CSP and are attachments", async () => {
    const receipt = await json(await api(`/v1/receipts/${html.job.result.receipt_id}`, { key }));
    const manifestId = receipt.evidence.manifest?.active_manifest_label as string;
    expect(manifestId).toMatch(/^urn:/);
    for (const query of ["", "?returnActiveManifest=true"]) {
      const res = await api(`/v1/soft-binding-resolution/manifests/${encodeURIComponent(manifestId)}${query}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/c2pa");
      expect(res.headers.get("content-disposition")).toMatch(/^attachment\b/);
      expectServedSafely(res, `resolution manifest${query}`);
    }
  });

  it("#13.5 a stored filename with CR/LF, quotes and non-ASCII gives one safe Content-Disposition header", async () => {
    const asset = await json(await api(`/v1/assets/${html.assetId}`, { key }));
    const objectId = asset.publication.object_id as string;
    const evil = 'a"b\\c\r\nSet-Cookie: stolen=1; x="\u00e9t\u00e9 \u{1F600}/../.html';
    await db.prepare("UPDATE objects SET filename = ? WHERE id = ?").bind(evil, objectId).run();
    const download = await json(await api(`/v1/assets/${html.assetId}/download`, { method: "POST", key }));
    const res = await callUrl(download.url, { method: "GET", headers: download.headers });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get("set-cookie")).toBeNull();
    const disposition = res.headers.get("content-disposition")!;
    expect(disposition).not.toMatch(/[\r\n\u0000-\u001f\u007f]/);
    // attachment; filename="<ASCII fallback, no quote or backslash>"; filename*=UTF-8''<RFC 5987 attr-chars and %XX>
    const shape = /^attachment; filename="([\x20-\x7e]*)"; filename\*=UTF-8''((?:[A-Za-z0-9!#$&+\-.^_`|~]|%[0-9A-F]{2})+)$/;
    const m = shape.exec(disposition);
    expect(m, disposition).not.toBeNull();
    const [, fallback, encoded] = m!;
    expect(fallback).not.toMatch(/["\\]/);
    const decoded = decodeURIComponent(encoded!);
    expect(decoded).toContain("\u00e9t\u00e9");
    expect(decoded).not.toMatch(/[\r\n"\\/\u0000-\u001f]/);
    expectServedSafely(res, "download with a hostile filename");
  });

  it("#13.5 production serves downloads from the R2 presigned origin as attachments, never from the API origin", async () => {
    const r2 = {
      ...testEnv,
      SVC_ENVIRONMENT: "production",
      SVC_R2_S3_ENDPOINT: "https://accountid.r2.cloudflarestorage.com",
      SVC_R2_ACCESS_KEY_ID: "AKIDEXAMPLE",
      SVC_R2_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
      SVC_R2_BUCKET: "svc-objects",
    } as unknown as typeof testEnv;
    const request = {
      method: "GET" as const,
      key: "t/ten_x/o/aob_y",
      workerPath: "/storage/objects/aob_y",
      expiresAt: Date.now() + 900_000,
      byteLength: null,
      headers: {},
      served: { mediaType: "text/html", filename: "ast_x.html", disposition: "inline" as const },
    };
    const signed = new URL((await presign(r2, "https://api.example", request)).url);
    expect(signed.origin).toBe("https://accountid.r2.cloudflarestorage.com");
    // R2 answers with the stored type and an attachment (an inline request for an active type is refused).
    expect(signed.searchParams.get("response-content-type")).toBe("text/html");
    expect(signed.searchParams.get("response-content-disposition")).toBe('attachment; filename="ast_x.html"');
    expect(signed.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);

    // Without R2's credentials, production refuses to mint a download on the API origin, and the API origin refuses to serve one.
    const noR2 = { ...testEnv, SVC_ENVIRONMENT: "production" } as unknown as typeof testEnv;
    await expect(presign(noR2, "https://api.example", request)).rejects.toMatchObject({ code: "svc.dependency.unavailable" });
    const { assetId } = html;
    const download = await json(await api(`/v1/assets/${assetId}/download`, { method: "POST", key }));
    const target = new URL(download.url);
    // The storage router alone, behind the context middleware app.ts puts in front of every route (c.var.db).
    const storage = createRouter();
    storage.use("*", contextServices);
    storage.route("/", storageRoutes());
    storage.onError(onError);
    const production = { ...testEnv, SVC_ENVIRONMENT: "production" };
    const refused = await storage.fetch(
      new Request(`http://svc.test${target.pathname}${target.search}`),
      production,
      createExecutionContext(),
    );
    expect(refused.status).toBe(403);
    expect((await json(refused)).code).toBe("svc.storage.capability_invalid");
    // The same capability is served in development.
    const served = await storage.fetch(new Request(`http://svc.test${target.pathname}${target.search}`), testEnv, createExecutionContext());
    expect(served.status).toBe(200);
  });

  it("#13.5 Content-Disposition is RFC 6266 with an RFC 5987 filename*, and active types are never inline", () => {
    expect(contentDisposition("attachment", "ast_x.jpg")).toBe('attachment; filename="ast_x.jpg"');
    expect(contentDisposition("attachment", null)).toBe("attachment");
    expect(contentDisposition("attachment", "\r\n..")).toBe('attachment; filename="__.."');
    // Nothing usable left: no filename parameter at all.
    expect(contentDisposition("attachment", "...")).toBe("attachment");
    expect(contentDisposition("inline", "r\u00e9sum\u00e9 (1)'*.txt")).toBe(
      `inline; filename="r_sum_ (1)'*.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%281%29%27%2A.txt`,
    );
    expect(contentDisposition("attachment", "\u{1F600}.png")).toBe(`attachment; filename="_.png"; filename*=UTF-8''%F0%9F%98%80.png`);
    expect(contentDisposition("attachment", "a".repeat(300)).length).toBeLessThan(240);
    for (const mediaType of [
      "text/html",
      "text/html; charset=utf-8",
      "image/svg+xml",
      "application/xml",
      "text/xml",
      "application/xhtml+xml",
      "application/pdf",
      "text/javascript",
      "application/octet-stream",
      "application/c2pa",
    ]) {
      const headers = servedObjectHeaders({ mediaType, filename: "f", disposition: "inline" });
      expect(headers["Content-Disposition"], mediaType).toBe('attachment; filename="f"');
      expect(headers["X-Content-Type-Options"]).toBe("nosniff");
      expect(headers["Content-Security-Policy"]).toBe("sandbox; default-src 'none'");
    }
    expect(servedObjectHeaders({ mediaType: "image/jpeg", disposition: "inline" })["Content-Disposition"]).toBe("inline");
  });

  it("#13.5 every API answer, JSON and error envelopes included, carries nosniff", async () => {
    for (const res of [
      await api("/v1/capabilities", { key }),
      await api("/v1/assets/ast_doesnotexist0000", { key }),
      await api("/v1/nope"),
      await api("/healthz"),
    ]) {
      expect(res.headers.get("x-content-type-options"), String(res.url)).toBe("nosniff");
    }
  });
});
