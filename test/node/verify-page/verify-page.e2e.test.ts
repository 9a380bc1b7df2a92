/**
 * The public verify page (GET /verify) in a real browser: Debian's Chromium driven by playwright-core.
 *
 * - End to end: the REAL Worker bundle in bare Miniflare (test/support/worker.ts) signs sample.jpg through the
 *   HTTP API (upload, rcp_system_sign_only, download); the page, opened from the Worker, is given the signed file
 *   and a copy with one byte flipped near the end, and must show the verified and the tampered verdicts with
 *   their proves / does-not-prove lists. A screenshot goes to test-results/verify-page.png.
 * - Rendering: the same page (served with its real headers by a tiny local server) against stubbed
 *   POST /v1/verify answers: response text is never markup (XSS), a 429 shows its Retry-After, error envelopes
 *   show their message, the drop zone works from the keyboard and by drag and drop, and nothing overflows 320 px.
 *
 * Chromium is required (CI installs it in .ci/run): when /usr/bin/chromium is missing every test here FAILS.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { STATUS_CODES, STATUS_VOCABULARY } from "../../../src/verifications/vocabulary";
import { buildVerifyPage } from "../../../src/verify-page/page";
import { STATUS_TITLES } from "../../../src/verify-page/titles";
import { download, fixtureBytes, type SignedService, signAndWait, startSignedService, uploadAsset } from "../../support/svc-client";

const CHROMIUM = "/usr/bin/chromium";
const ROOT = join(import.meta.dirname, "..", "..", "..");
const ARTIFACTS = join(ROOT, "test-results");
const LAUNCH_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** What callbacks run in the page use (this project's Node typecheck has no DOM library). */
interface BrowserGlobals {
  document: any;
  DataTransfer: new () => { items: { add(file: File): void } };
}

let context: BrowserContext | undefined;
/** Why Chromium could not be started: every browser test then fails with it (never skips). */
let launchError: Error | undefined;
let userDataDir: string;
let scratch: string;
/** Console messages about CSP or Trusted Types, and uncaught page errors, per page. */
const violations = new Map<Page, string[]>();

async function newPage(viewport = { width: 900, height: 1000 }): Promise<Page> {
  if (!context) throw launchError ?? new Error("Chromium was not started");
  const page = await context.newPage();
  await page.setViewportSize(viewport);
  const seen: string[] = [];
  violations.set(page, seen);
  page.on("console", (m) => {
    if (/Content Security Policy|Trusted Type|Refused to/i.test(m.text())) seen.push(m.text());
  });
  page.on("pageerror", (e) => seen.push(`pageerror: ${e.message}`));
  return page;
}

afterEach(async () => {
  for (const [page, seen] of violations) {
    await page.close().catch(() => undefined);
    expect(seen, "CSP / Trusted Types violations or page errors").toEqual([]);
  }
  violations.clear();
});

beforeAll(async () => {
  userDataDir = mkdtempSync(join(tmpdir(), "svc-chromium-"));
  scratch = mkdtempSync(join(tmpdir(), "svc-verify-page-"));
  mkdirSync(ARTIFACTS, { recursive: true });
  if (!existsSync(CHROMIUM)) {
    launchError = new Error(
      `${CHROMIUM} is missing: the verify page browser tests need Debian's Chromium (apt-get install -y chromium; .ci/run installs it).`,
    );
    return;
  }
  try {
    context = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, headless: true, args: LAUNCH_ARGS });
  } catch (err) {
    launchError = new Error(`Chromium (${CHROMIUM}) did not start: ${(err as Error).message}`);
  }
}, 60_000);

afterAll(async () => {
  await context?.close();
  for (const dir of [userDataDir, scratch]) if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Waits for a finished verdict card (a result or a problem, not the progress card) and returns its title. */
async function verdict(page: Page, timeout = 60_000): Promise<{ title: string; status: string | null; tone: string }> {
  const card = page.locator("#verdict .card:not(.busy)");
  await card.waitFor({ state: "visible", timeout });
  const title = page.locator("#verdict-title");
  expect(await title.isVisible()).toBe(true);
  const cls = (await card.getAttribute("class")) ?? "";
  return { title: await title.innerText(), status: await card.getAttribute("data-status"), tone: /tone-(\w+)/.exec(cls)?.[1] ?? "" };
}

async function listItems(page: Page, panel: string): Promise<string[]> {
  return page.locator(`#details .panel.${panel} li`).allInnerTexts();
}

async function noHorizontalOverflow(page: Page) {
  const { scroll, client, offenders } = await page.evaluate(() => {
    const doc = (globalThis as unknown as BrowserGlobals).document;
    const client: number = doc.documentElement.clientWidth;
    const offenders: string[] = [...doc.querySelectorAll("body *")]
      .filter((e: any) => e.getBoundingClientRect().right > client + 0.5)
      .map(
        (e: any) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ""}${e.className ? `.${String(e.className).replace(/ /g, ".")}` : ""}`,
      );
    return { scroll: doc.documentElement.scrollWidth as number, client, offenders };
  });
  expect(scroll, `page is ${scroll}px wide in a ${client}px viewport; too wide: ${offenders.slice(0, 8).join(", ")}`).toBeLessThanOrEqual(
    client,
  );
}

describe("verify page end to end (Worker bundle in Miniflare, Chromium)", () => {
  let svc: SignedService;
  let origin: string;
  let signedPath: string;
  let tamperedPath: string;

  beforeAll(async () => {
    svc = await startSignedService();
    origin = new URL(String(await svc.worker.mf.ready)).origin;
    const { assetId } = await uploadAsset(svc, fixtureBytes("sample.jpg"), "image/jpeg", "sample.jpg");
    const job = await signAndWait(svc, assetId, "rcp_system_sign_only");
    expect(job.state, JSON.stringify(job)).toBe("completed");
    const { bytes } = await download(svc, assetId);
    const tampered = bytes.slice();
    tampered[tampered.length - 10] = tampered[tampered.length - 10]! ^ 0x01; // image data, far from the manifest
    signedPath = join(scratch, "signed.jpg");
    tamperedPath = join(scratch, "tampered.jpg");
    writeFileSync(signedPath, bytes);
    writeFileSync(tamperedPath, tampered);
  }, 240_000);

  afterAll(async () => {
    await svc?.dispose();
  });

  it("serves the page from the Worker with its CSP, and the inline script runs under it", async () => {
    const page = await newPage();
    const res = await page.goto(`${origin}/verify`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()["content-security-policy"]).toMatch(/script-src 'sha256-/);
    await page.locator("#file").waitFor({ state: "attached" });
    expect(await page.locator("#verdict[aria-live=polite]").count()).toBe(1);
    // The script is live: submitting with no file answers in the live region.
    await page.locator("#submit").click();
    expect((await verdict(page)).title).toBe("Choose a file first");
  });

  it("a file signed here: the verified title, what it proves and does not prove, signer, claims, checks", async () => {
    const page = await newPage();
    await page.goto(`${origin}/verify`);
    await page.setInputFiles("#file", signedPath);
    const v = await verdict(page);
    expect(v.status).toBe("verified_manifest"); // rcp_system_sign_only: no watermark, no fingerprint registered
    expect(v.title).toBe(STATUS_TITLES.verified_manifest.title);
    expect(v.tone).toBe("good");
    expect(await page.locator("#verdict .card-text").innerText()).toBe(STATUS_VOCABULARY.verified_manifest.user_explanation);
    expect(await page.locator("#verdict .card-facts").innerText()).toMatch(/^Confidence \d+% · image\/jpeg · signed\.jpg$/);

    const proves = await listItems(page, "proves");
    expect(proves).toEqual(STATUS_VOCABULARY.verified_manifest.proves);
    expect(await listItems(page, "does-not-prove")).toEqual(STATUS_VOCABULARY.verified_manifest.does_not_prove);
    expect(await page.locator("#details .panel.signer").innerText()).toMatch(/Organization\s+svc dev/);
    expect(await page.locator("#details .panel.claims").innerText()).toMatch(/AI generated\s+No/);
    const signature = page.locator('#details tr[data-signal="c2pa_signature_valid"]');
    expect(await signature.getAttribute("data-state")).toBe("yes");
    expect(await signature.innerText()).toMatch(/Signature valid\s+✓?\s*Yes/);
    expect(await page.locator('#details tr[data-signal="signer_trusted"]').getAttribute("data-state")).toBe("yes");

    // C2PA details on demand.
    const tech = page.locator("#details details.tech");
    expect(await tech.getAttribute("open")).toBeNull();
    await tech.locator("summary").click();
    expect(await tech.innerText()).toMatch(/Manifest id\s+urn:c2pa:/);
    expect(await tech.locator("pre").innerText()).toContain("claimSignature.validated");

    await page.screenshot({ path: join(ARTIFACTS, "verify-page.png"), fullPage: true, animations: "disabled" });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.screenshot({ path: join(ARTIFACTS, "verify-page-dark.png"), fullPage: true, animations: "disabled" });
    await page.setViewportSize({ width: 320, height: 800 });
    await noHorizontalOverflow(page);
    await page.screenshot({ path: join(ARTIFACTS, "verify-page-320.png"), fullPage: true, animations: "disabled" });
  });

  it("the same file with one byte flipped near the end: the tampered title, nothing proved", async () => {
    const page = await newPage();
    await page.goto(`${origin}/verify`);
    await page.setInputFiles("#file", tamperedPath);
    const v = await verdict(page);
    expect(v.status).toBe("asset_tampered");
    expect(v.title).toBe(STATUS_TITLES.asset_tampered.title);
    expect(v.tone).toBe("bad");
    expect(await page.locator("#verdict .card-text").innerText()).toBe(STATUS_VOCABULARY.asset_tampered.user_explanation);
    expect(await listItems(page, "proves")).toEqual([]);
    expect(await page.locator("#details .panel.proves p").innerText()).toMatch(/^Nothing/);
    expect(await listItems(page, "does-not-prove")).toEqual(STATUS_VOCABULARY.asset_tampered.does_not_prove);
    await page.screenshot({ path: join(ARTIFACTS, "verify-page-tampered.png"), fullPage: true, animations: "disabled" });
  });
});

describe("verify page rendering against stubbed POST /v1/verify answers (Chromium)", () => {
  let server: Server;
  let origin: string;
  let filePath: string;

  beforeAll(async () => {
    const built = await buildVerifyPage({ maxBytes: 25 * 1024 * 1024 });
    server = createServer((req, res) => {
      if (req.method === "GET" && req.url === "/verify") {
        res.writeHead(200, built.headers).end(built.html);
        return;
      }
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ code: "svc.route.not_found", message: "Not here." }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    if (!address || typeof address === "string") throw new Error("no server address");
    origin = `http://127.0.0.1:${address.port}`;
    filePath = join(scratch, "photo.png");
    writeFileSync(filePath, fixtureBytes("sample.png"));
  });

  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  /** Opens the page with POST /v1/verify answered by `answer`; returns the page and the requests seen. */
  async function stubbed(
    answer: { status: number; headers?: Record<string, string>; body: unknown },
    viewport?: { width: number; height: number },
  ) {
    const page = await newPage(viewport);
    const requests: { method: string; contentType: string; authorization: string | null; cookie: string | null; body: string }[] = [];
    await page.route("**/v1/verify", async (route) => {
      const r = route.request();
      requests.push({
        method: r.method(),
        contentType: (await r.headerValue("content-type")) ?? "",
        authorization: await r.headerValue("authorization"),
        cookie: await r.headerValue("cookie"),
        body: r.postDataBuffer()?.toString("latin1") ?? "",
      });
      await route.fulfill({
        status: answer.status,
        headers: { "content-type": "application/json", ...answer.headers },
        body: JSON.stringify(answer.body),
      });
    });
    await page.goto(`${origin}/verify`);
    return { page, requests };
  }

  const hostile = `<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>`;
  const result = (over: Record<string, unknown> = {}) => ({
    status: "watermark_only",
    status_vocabulary_version: "svc.verification-status.v1",
    confidence: 0.82,
    signals: {
      c2pa_manifest_present: false,
      watermark_present: true,
      watermark_payload_valid: true,
      ocsp_status: "unavailable",
      future_signal: true,
    },
    claims: {
      origin: hostile,
      generator: "svc 0.1.0",
      model: null,
      ai_generated: null,
      ai_assisted: true,
      created_at: "2026-11-22T10:00:00Z",
    },
    matches: [
      {
        kind: "watermark",
        algorithm: "svc-wm-tiledss-1",
        publication_id: "pub_abcdefghij234567",
        manifest_id: `urn:c2pa:${"x".repeat(120)}`,
        distance: 0,
        score: 0.97,
      },
      { kind: "fingerprint", algorithm: "pdq", publication_id: "pub_zyxwvutsrq765432", manifest_id: null, distance: 12, score: 0.9 },
    ],
    related_publications: [
      {
        manifest_id: "urn:c2pa:related-elsewhere",
        published_at: "2026-11-20T09:30:00.000Z",
        kind: "fingerprint",
        algorithm: "iscc-image",
        distance: 0,
      },
    ],
    warnings: [hostile, "The anchor log was not checked: no anchor is configured."],
    developer_explanation: `status watermark_only; ${hostile}`,
    user_explanation: hostile,
    proves: [hostile],
    does_not_prove: ["That this copy is unchanged."],
    manifest_id: null,
    signer: {
      common_name: hostile,
      organization: null,
      issuer: "Example CA",
      serial_number: "5d47814b0ba2fa1e",
      not_after: "2027-11-22T00:00:00Z",
      timestamp: null,
      timestamp_authority: null,
    },
    media_type: "image/png",
    verification_id: null,
    ...over,
  });

  it("every status code gets its own title (no generic fallback)", () => {
    const titles = STATUS_CODES.map((c) => STATUS_TITLES[c].title);
    expect(new Set(titles).size).toBe(STATUS_CODES.length);
  });

  it("posts the file as multipart to /v1/verify without any credential", async () => {
    const { page, requests } = await stubbed({ status: 200, body: result() });
    await page.setInputFiles("#file", filePath);
    await verdict(page);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.method).toBe("POST");
    expect(requests[0]!.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(requests[0]!.authorization).toBeNull();
    expect(requests[0]!.cookie).toBeNull();
    expect(requests[0]!.body).toMatch(/Content-Disposition: form-data; name="file"; filename="photo.png"/);
  });

  it("renders hostile response text as text: no element, no script run (XSS)", async () => {
    const { page } = await stubbed({ status: 200, body: result() });
    await page.setInputFiles("#file", filePath);
    const v = await verdict(page);
    expect(v.title).toBe(STATUS_TITLES.watermark_only.title);
    expect(v.tone).toBe("info");
    expect(await page.locator("#verdict .card-text").innerText()).toBe(hostile);
    expect(await listItems(page, "proves")).toEqual([hostile]);
    expect(await page.locator("#details .panel.claims").innerText()).toContain(hostile);
    expect(await page.locator("#details .panel.signer").innerText()).toContain(hostile);
    expect(await listItems(page, "warnings")).toContain(hostile);
    await page.locator("#details details.tech summary").click();
    expect(await page.locator("#details details.tech pre").innerText()).toContain(hostile);
    // The only image on the page is the local preview of the chosen file (a blob: URL); no script ran.
    expect(await page.locator("#result img, #result script").count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as unknown as { __xss?: number }).__xss)).toBeUndefined();
    // Signals: yes / no / not checked / could not check, and unknown future signals still shown.
    const state = (signal: string) => page.locator(`#details tr[data-signal="${signal}"]`).getAttribute("data-state");
    expect(await state("watermark_present")).toBe("yes");
    expect(await state("c2pa_manifest_present")).toBe("no");
    expect(await state("signer_trusted")).toBe("na");
    // Without a manifest, manifest checks do not apply (#13.8): "Not applicable", never a red "No".
    expect(await state("ocsp_status")).toBe("na");
    expect(await state("future_signal")).toBe("yes");
    expect(await page.locator('#details tr[data-signal="signer_trusted"]').innerText()).toMatch(/Not applicable/);
    // Matches for recovered copies.
    const matches = await page.locator("#details .panel.matches").innerText();
    expect(matches).toMatch(/Invisible watermark/);
    expect(matches).toMatch(/Content fingerprint/);
    expect(matches).toMatch(/97%/);
    // Similar content elsewhere (#13.8): listed apart, for information.
    expect(await page.locator("#details .panel.related").innerText()).toMatch(/urn:c2pa:related-elsewhere[\s\S]*Content fingerprint/);
    await page.setViewportSize({ width: 320, height: 800 });
    await noHorizontalOverflow(page);
  });

  it("a 429 shows a friendly wait with its Retry-After, and disables Verify until then", async () => {
    const { page } = await stubbed({
      status: 429,
      headers: { "retry-after": "42" },
      body: {
        error: {
          code: "svc.ratelimit.exceeded",
          message: "At most 10 verifications per minute; retry in 42 s.",
          request_id: "req_abcdefghij234567",
        },
      },
    });
    await page.setInputFiles("#file", filePath);
    const v = await verdict(page);
    expect(v.title).toBe("Too many checks for now");
    expect(v.tone).toBe("warn");
    expect(await page.locator("#verdict .card-text").innerText()).toMatch(/wait 42 seconds/);
    expect(await page.locator("#details .retry").innerText()).toMatch(/try again in 4[12] seconds/);
    expect(await page.locator("#details").innerText()).toMatch(/HTTP 429, code svc\.ratelimit\.exceeded, request req_abcdefghij234567/);
    expect(await page.locator("#submit").isDisabled()).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, "verify-page-429.png") });
  });

  it("error envelopes show their message, flat or nested", async () => {
    const { page } = await stubbed({
      status: 415,
      body: { code: "svc.verify.unsupported_file_type", message: "The file is not one of the reviewed formats." },
    });
    await page.setInputFiles("#file", filePath);
    const v = await verdict(page);
    expect(v.title).toBe("This kind of file cannot be checked");
    expect(v.tone).toBe("error");
    expect(await page.locator("#verdict .card-text").innerText()).toBe("The file is not one of the reviewed formats.");

    const nested = await stubbed({ status: 500, body: { error: { code: "svc.internal", message: `Unexpected. ${hostile}` } } });
    await nested.page.setInputFiles("#file", filePath);
    expect((await verdict(nested.page)).title).toBe("Something went wrong on our side");
    expect(await nested.page.locator("#verdict .card-text").innerText()).toBe(`Unexpected. ${hostile}`);
  });

  it("the drop zone works from the keyboard (Tab, Space opens the picker) and by dropping a file", async () => {
    const { page, requests } = await stubbed({
      status: 200,
      body: result({ status: "no_provenance_found", proves: [], matches: [], claims: null, signer: null }),
    });
    // Listen first (Playwright then intercepts the picker), then reach the file input with Tab and open it with Space.
    const chooser = page.waitForEvent("filechooser", { timeout: 15_000 });
    await page.bringToFront();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => (globalThis as unknown as BrowserGlobals).document.activeElement?.id)).toBe("file");
    await page.keyboard.press("Space");
    await (await chooser).setFiles(filePath);
    expect((await verdict(page)).title).toBe(STATUS_TITLES.no_provenance_found.title);
    expect(await page.locator("#file-chosen").innerText()).toMatch(/photo\.png/);

    const dataTransfer = await page.evaluateHandle(() => {
      const dt = new (globalThis as unknown as BrowserGlobals).DataTransfer();
      dt.items.add(new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], "dropped.png", { type: "image/png" }));
      return dt;
    });
    await page.dispatchEvent("#drop", "drop", { dataTransfer });
    await page.locator("#verdict .card:not(.busy)").waitFor();
    await expect.poll(() => requests.length).toBe(2);
    expect(requests[1]!.body).toMatch(/filename="dropped\.png"/);
    expect(await page.locator("#file-chosen").innerText()).toMatch(/dropped\.png/);
  });
});
