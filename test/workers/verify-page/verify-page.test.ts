import { describe, expect, it } from "vitest";
import { STATUS_CODES } from "../../../src/verifications/vocabulary";
import { STATUS_TITLES } from "../../../src/verify-page/titles";
import { api } from "../support/helpers";

/** `sha256-<base64>` of the UTF-8 text, as in a CSP source. */
async function cspHash(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return `sha256-${btoa(String.fromCharCode(...digest))}`;
}

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name!.toLowerCase(), sources]),
  );
}

async function getPage(headers: Record<string, string> = {}) {
  const res = await api("/verify", { headers });
  return { res, html: await res.text() };
}

describe("GET /verify (public verify page)", () => {
  it("answers one HTML document, anonymously, with the security headers", async () => {
    const { res, html } = await getPage();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html;\s*charset=utf-8$/i);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).toMatch(/<html lang="en">/);
    expect(html).toContain('<meta name="viewport" content="width=device-width,initial-scale=1">');
    expect(html.length, "one small document").toBeLessThan(40_000);
    // A credential is neither needed nor checked (auth: none), even a malformed one.
    expect((await api("/verify", { key: "svc_live_garbage" })).status).toBe(200);
  });

  it("has a strict CSP whose script and style hashes match the inline blocks exactly", async () => {
    const { res, html } = await getPage();
    const csp = res.headers.get("content-security-policy");
    expect(csp).toBeTruthy();
    const d = directives(csp!);
    expect(d.get("default-src")).toEqual(["'self'"]);
    expect(d.get("img-src")).toEqual(["'self'", "blob:", "data:"]);
    expect(d.get("object-src")).toEqual(["'none'"]);
    expect(d.get("base-uri")).toEqual(["'none'"]);
    expect(d.get("frame-ancestors")).toEqual(["'none'"]);
    expect(d.get("require-trusted-types-for")).toEqual(["'script'"]);
    const scriptSrc = d.get("script-src")!;
    expect(scriptSrc).toHaveLength(1);
    expect(scriptSrc.join(" ")).not.toMatch(/unsafe-inline|unsafe-eval|\*|https?:|data:/);
    expect(d.get("style-src")!.join(" ")).not.toMatch(/unsafe-inline|\*|https?:/);

    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(1);
    expect(scripts[0]![1]).toBe(""); // inline: no src, no type
    const styles = [...html.matchAll(/<style([^>]*)>([\s\S]*?)<\/style>/g)];
    expect(styles).toHaveLength(1);
    expect(scriptSrc[0]).toBe(`'${await cspHash(scripts[0]![2]!)}'`);
    expect(d.get("style-src")).toEqual([`'${await cspHash(styles[0]![2]!)}'`]);
    // No inline event handlers or style attributes, which the policy would block anyway.
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    expect(html).not.toMatch(/\sstyle\s*=/i);
  });

  it("makes no request to another origin: no absolute URL anywhere, no CSS import or url()", async () => {
    const { html } = await getPage();
    expect(html).not.toMatch(/https?:/i);
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    expect(style).not.toMatch(/@import|url\(|@font-face/i);
    const refs = [...html.matchAll(/\s(?:src|href|action|srcset|poster|formaction)\s*=\s*"([^"]*)"/gi)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(0);
    // Same-origin paths, fragments, and the empty data: favicon (which spares the browser a /favicon.ico request).
    for (const ref of refs) expect(ref, ref).toMatch(/^(\/(?!\/)|#|data:,$)/);
  });

  it("has the labelled file form, posting to /v1/verify, and a live region for the result", async () => {
    const { html } = await getPage();
    expect(html).toMatch(/<form id="verify-form" action="\/v1\/verify" method="post" enctype="multipart\/form-data"/);
    expect(html).toMatch(/<input id="file" name="file" type="file"[^>]*aria-labelledby="drop-title"/);
    expect(html).toMatch(/<label id="drop" class="drop" for="file">/);
    expect(html).toMatch(/<span id="drop-title"[^>]*>Drop a file here, or choose one<\/span>/);
    expect(html).toMatch(/<input id="manifest" name="manifest" type="file"/);
    expect(html).toMatch(/<label for="manifest">/);
    expect(html).toMatch(/<button id="submit" type="submit">Verify<\/button>/);
    expect(html).toMatch(/<div id="verdict"[^>]*role="status"[^>]*aria-live="polite"/);
    expect(html).toContain("Up to 25 MiB.");
  });

  it("ships a title for every status code, and renders response text only through textContent", async () => {
    const { html } = await getPage();
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    for (const code of STATUS_CODES) {
      expect(script, code).toContain(JSON.stringify(code));
      expect(script, code).toContain(JSON.stringify(STATUS_TITLES[code].title));
    }
    expect(script).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
  });

  it("is not an API operation: absent from the OpenAPI document", async () => {
    const doc = await (await api("/openapi.json")).json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(doc.paths)).not.toContain("/verify");
  });
});
