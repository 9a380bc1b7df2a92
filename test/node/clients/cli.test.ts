/**
 * The `svc` command line in-process (no service): argument parsing, configuration resolution (the dev key never
 * leaves its own address), secret redaction, colours, exit classes of every SDK error, and `svc webhooks verify`
 * against deliveries signed by the unmodified `standardwebhooks` library, including hostile ones.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SvcError, SvcIntegrityError, SvcJobError, SvcWebhookError } from "@svc/client";
import { Webhook } from "standardwebhooks";
import { afterAll, describe, expect, it } from "vitest";
import { parseArgs } from "../../../packages/cli/src/args.ts";
import { COMMANDS } from "../../../packages/cli/src/commands/index.ts";
import { parseEnvFile, redactSecrets, resolveConfig } from "../../../packages/cli/src/config.ts";
import { EXIT, exitForStatus, UsageError } from "../../../packages/cli/src/exit.ts";
import { main } from "../../../packages/cli/src/main.ts";
import { colorEnabled, progressBar } from "../../../packages/cli/src/output.ts";
import { toCliError } from "../../../packages/cli/src/sdk.ts";

const scratch = mkdtempSync(join(tmpdir(), "svc-cli-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs `svc …` in-process with captured output. */
async function svc(args: string[], env: Record<string, string> = {}, cwd = scratch) {
  let stdout = "";
  let stderr = "";
  const code = await main(args, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    env: { NO_COLOR: "1", SVC_API_BASE_URL: "http://127.0.0.1:9", ...env },
    cwd,
    signal: new AbortController().signal,
  });
  return { code, stdout, stderr };
}

describe("#21 svc argument parsing", () => {
  const flags = [
    { name: "out", short: "o", type: "string", description: "" },
    { name: "express", type: "boolean", description: "" },
    { name: "scope", type: "string", repeatable: true, description: "" },
  ] as const;
  const positionals = [{ name: "FILE", required: true, description: "" }];

  it("#21 reads --flag value, --flag=value, short flags, repeatable flags and -- ", () => {
    const p = parseArgs(["a.jpg", "--out", "d", "--express", "--scope=x", "--scope", "y"], flags, positionals);
    expect(p.flags).toMatchObject({ out: "d", express: true, scope: ["x", "y"] });
    expect(p.positionals).toEqual(["a.jpg"]);
    expect(parseArgs(["-o", "d", "--", "--weird-name.jpg"], flags, positionals).positionals).toEqual(["--weird-name.jpg"]);
  });

  it("#21 refuses unknown flags, missing values, values on booleans, repeats, missing and extra arguments", () => {
    for (const argv of [
      ["a", "--nope"],
      ["a", "--out"],
      ["a", "--express=1"],
      ["a", "--out", "x", "--out", "y"],
      [],
      ["a", "b"],
      ["a", "-z"],
    ])
      expect(() => parseArgs(argv, flags, positionals), argv.join(" ")).toThrow(UsageError);
    // --help wins over a missing argument.
    expect(parseArgs(["--help"], flags, positionals).flags.help).toBe(true);
  });

  it("#21 every command has a summary, and its help names its flags and exits 0", async () => {
    for (const cmd of COMMANDS) {
      expect(cmd.summary.length, cmd.path.join(" ")).toBeGreaterThan(10);
      const r = await svc([...cmd.path, "--help"]);
      expect(r.code, cmd.path.join(" ")).toBe(EXIT.ok);
      for (const f of cmd.flags) expect(r.stdout).toContain(`--${f.name}`);
    }
    expect((await svc([])).code).toBe(EXIT.usage);
    expect((await svc(["jobs"])).code).toBe(EXIT.usage);
    expect((await svc(["jobs", "--help"])).code).toBe(EXIT.ok);
    expect((await svc(["help", "sign"])).stdout).toContain("Usage: svc sign FILE");
    const unknown = await svc(["jobs", "frob"]);
    expect(unknown.code).toBe(EXIT.usage);
    expect(unknown.stderr).toContain('unknown command "jobs frob"');
  });

  it("#21 ids and numbers are checked before any request", async () => {
    expect((await svc(["jobs", "get", "job_x"], { SVC_API_KEY: "k" })).code).toBe(EXIT.usage);
    expect((await svc(["assets", "get", "ast_UPPERCASE0000000"], { SVC_API_KEY: "k" })).code).toBe(EXIT.usage);
    expect((await svc(["jobs", "list", "--limit", "0"], { SVC_API_KEY: "k" })).code).toBe(EXIT.usage);
    expect((await svc(["jobs", "list", "--limit", "1e3"], { SVC_API_KEY: "k" })).code).toBe(EXIT.usage);
    expect((await svc(["keys", "create", "--name", "x"], { SVC_API_KEY: "k" })).code).toBe(EXIT.usage);
    expect((await svc(["webhooks", "listen", "--forward", "ftp://x"], { SVC_API_KEY: "k" })).code).toBe(EXIT.usage);
  });
});

describe("#21 svc configuration", () => {
  const repo = join(scratch, "repo");
  mkdirSync(join(repo, ".svc"), { recursive: true });
  mkdirSync(join(repo, "sub", "dir"), { recursive: true });
  const devKey = `svc_live_${"d".repeat(52)}`;
  writeFileSync(join(repo, ".svc", "dev.env"), `SVC_API_BASE_URL=http://127.0.0.1:8899\nSVC_API_KEY=${devKey}\n`);

  it("#21 reads .svc/dev.env from the working directory upwards; the environment wins", () => {
    const c = resolveConfig({}, join(repo, "sub", "dir"));
    expect(c).toMatchObject({ baseUrl: "http://127.0.0.1:8899", apiKey: devKey, baseUrlSource: "dev.env", apiKeySource: "dev.env" });
    const e = resolveConfig({ SVC_API_KEY: "env-key", SVC_API_BASE_URL: "http://127.0.0.1:8899/" }, repo);
    expect(e).toMatchObject({ baseUrl: "http://127.0.0.1:8899", apiKey: "env-key", apiKeySource: "env" });
    expect(resolveConfig({}, repo, "http://127.0.0.1:8899").apiKey).toBe(devKey);
  });

  it("#21 never sends the dev key to another address", () => {
    expect(resolveConfig({ SVC_API_BASE_URL: "https://api.example.com" }, repo)).toMatchObject({
      apiKey: null,
      baseUrl: "https://api.example.com",
    });
    expect(resolveConfig({}, repo, "https://evil.example")).toMatchObject({ apiKey: null });
  });

  it("without a key because --base-url names another service than .svc/dev.env's, says so (not `run npm start`)", async () => {
    const r = await svc(["jobs", "list", "--base-url", "http://127.0.0.1:8898"], { SVC_API_BASE_URL: "" }, repo);
    expect(r.code).toBe(EXIT.auth);
    expect(r.stderr).toContain("used only with its own address, http://127.0.0.1:8899, not http://127.0.0.1:8898");
    expect(r.stderr).not.toContain("npm start");
    expect(r.stderr).not.toContain(devKey);
    expect(resolveConfig({}, repo).devEnvKeyHeldFor).toBeNull();
    expect(resolveConfig({ SVC_API_BASE_URL: "https://api.example.com" }, repo).devEnvKeyHeldFor).toBe("http://127.0.0.1:8899");
  });

  it("a malformed id is a usage error in plain English", async () => {
    const revoke = await svc(["keys", "revoke", "key_..."], { SVC_API_KEY: "k" });
    expect(revoke.code).toBe(EXIT.usage);
    expect(revoke.stderr).toContain('"key_..." is not an API key id');
    expect((await svc(["assets", "get", "ast_x"], { SVC_API_KEY: "k" })).stderr).toContain('"ast_x" is not an asset id');
  });

  it("#21 parses dotenv lines and ignores the rest", () => {
    expect(parseEnvFile("# c\nexport A=1\nB=\"two\"\nC='3'\nnot a line\n")).toEqual({ A: "1", B: "two", C: "3" });
  });

  it("#21 redacts any API key from messages", () => {
    expect(redactSecrets(`key ${devKey} and svc_live_abc`, null)).toBe("key svc_live_… and svc_live_…");
    expect(redactSecrets("custom-secret-123 leaked", "custom-secret-123")).toBe("… leaked");
  });

  it("#21 colours only on a terminal, never with NO_COLOR, TERM=dumb or --no-color", () => {
    expect(colorEnabled({ write() {}, isTTY: true }, {}, false)).toBe(true);
    expect(colorEnabled({ write() {} }, {}, false)).toBe(false);
    expect(colorEnabled({ write() {}, isTTY: true }, { NO_COLOR: "1" }, false)).toBe(false);
    expect(colorEnabled({ write() {}, isTTY: true }, { TERM: "dumb" }, false)).toBe(false);
    expect(colorEnabled({ write() {}, isTTY: true }, {}, true)).toBe(false);
  });

  it("#21 the progress bar draws in place on a terminal only, and ends at 100 %", () => {
    let tty = "";
    const bar = progressBar({ write: (t: string) => (tty += t), isTTY: true, columns: 80 }, "uploading a.jpg", 2048);
    bar.update(0);
    bar.update(2048);
    bar.finish();
    expect(tty).toContain("\r");
    expect(tty).toContain("100% 2.0 KiB/2.0 KiB");
    expect(tty.endsWith("\n")).toBe(true);
    let piped = "";
    const quiet = progressBar({ write: (t: string) => (piped += t) }, "uploading a.jpg", 2048);
    quiet.update(1024);
    quiet.finish();
    expect(piped).toBe("");
  });

  it("#21 without a key, keyed commands exit 3 before any request", async () => {
    const r = await svc(["jobs", "list"], {}, scratch);
    expect(r.code).toBe(EXIT.auth);
    expect(r.stderr).toContain("SVC_API_KEY");
  });
});

describe("#21 svc exit classes", () => {
  const err = (status: number) =>
    new SvcError({
      status,
      code: status === 404 ? "svc.resource.not_found" : `http_${status}`,
      message: "m",
      request_id: "req_x",
      retryable: false,
    });

  it("#21 maps HTTP statuses and SDK errors to their classes", () => {
    const table: [number, number][] = [
      [400, EXIT.rejected],
      [401, EXIT.auth],
      [402, EXIT.rejected],
      [403, EXIT.auth],
      [404, EXIT.notFound],
      [409, EXIT.rejected],
      [410, EXIT.notFound],
      [413, EXIT.rejected],
      [415, EXIT.rejected],
      [422, EXIT.rejected],
      [429, EXIT.unavailable],
      [500, EXIT.unavailable],
      [502, EXIT.unavailable],
      [503, EXIT.unavailable],
    ];
    for (const [status, code] of table) {
      expect(exitForStatus(status), String(status)).toBe(code);
      expect(toCliError(err(status), { baseUrl: "", aborted: false }).exitCode, String(status)).toBe(code);
    }
    const ctx = { baseUrl: "http://x", aborted: false };
    expect(toCliError(err(404), ctx).details).toContain("request id: req_x");
    expect(toCliError(new SvcIntegrityError("file", { sha256: "a", byte_length: 1 }, { sha256: "b", byte_length: 1 }), ctx).exitCode).toBe(
      EXIT.integrity,
    );
    expect(toCliError(new SvcWebhookError("x"), ctx).exitCode).toBe(EXIT.integrity);
    expect(
      toCliError(new SvcJobError({ job_id: "job_x", state: "failed", error_code: "e", error_message: null } as never), ctx).exitCode,
    ).toBe(EXIT.jobFailed);
    const refused = Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNREFUSED" } });
    expect(toCliError(refused, ctx)).toMatchObject({ exitCode: EXIT.network, message: "cannot reach http://x (ECONNREFUSED)" });
    expect(toCliError(new Error("boom"), { baseUrl: "", aborted: true }).exitCode).toBe(EXIT.interrupted);
    expect(toCliError(new Error("boom"), ctx).exitCode).toBe(EXIT.failure);
  });

  it("#21 a missing file is 4, a directory 2", async () => {
    expect((await svc(["sign", join(scratch, "nope.jpg")], { SVC_API_KEY: "k" })).code).toBe(EXIT.notFound);
    expect((await svc(["verify", join(scratch, "nope.jpg")])).code).toBe(EXIT.notFound);
    expect((await svc(["verify", scratch])).code).toBe(EXIT.usage);
    writeFileSync(join(scratch, "file.unknownext"), "x");
    expect((await svc(["sign", join(scratch, "file.unknownext")], { SVC_API_KEY: "k" })).code).toBe(EXIT.usage);
  });

  it("#21 an unreachable service is 7 and the key is never printed, in text or --json", async () => {
    const key = `svc_live_${"k".repeat(52)}`;
    const r = await svc(["jobs", "list", "--json"], { SVC_API_KEY: key });
    expect(r.code).toBe(EXIT.network);
    expect(JSON.parse(r.stdout).error.exit_code).toBe(EXIT.network);
    expect(r.stdout + r.stderr).not.toContain(key);
  });
});

describe("#21 svc webhooks verify", () => {
  const secret = `whsec_${Buffer.from("0123456789abcdef0123456789abcdef").toString("base64")}`;
  const wh = new Webhook(secret);
  const body = JSON.stringify({ id: "whevt_abcdefghij234567", type: "asset.signed", data: { asset_id: "ast_abcdefghij234567" } });

  function saved(name: string, at: Date, payload = body, id = "whevt_abcdefghij234567", signature?: string) {
    const headers = {
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": signature ?? wh.sign(id, at, payload),
    };
    const path = join(scratch, name);
    writeFileSync(path, JSON.stringify({ headers, body_base64: Buffer.from(payload).toString("base64") }));
    return path;
  }
  const env = { SVC_WEBHOOK_SECRET: secret };

  it("#21 accepts a fresh delivery signed by the library, and one of several rotated signatures", async () => {
    const ok = await svc(["webhooks", "verify", saved("ok.json", new Date())], env);
    expect(ok.code, ok.stdout + ok.stderr).toBe(EXIT.ok);
    expect(ok.stdout).toContain("valid asset.signed whevt_abcdefghij234567");
    const other = new Webhook(`whsec_${Buffer.from("another-secret-another-secret-!!").toString("base64")}`);
    const now = new Date();
    const rotated = `${other.sign("whevt_abcdefghij234567", now, body)} ${wh.sign("whevt_abcdefghij234567", now, body)}`;
    expect((await svc(["webhooks", "verify", saved("rot.json", now, body, undefined, rotated), "--json"], env)).code).toBe(EXIT.ok);
  });

  it("#21 refuses a changed body, another secret, a stale timestamp (unless --ignore-timestamp) with exit 8", async () => {
    const now = new Date();
    const changed = saved("changed.json", now, body.replace("ast_", "ast-"), undefined, wh.sign("whevt_abcdefghij234567", now, body));
    expect((await svc(["webhooks", "verify", changed], env)).code).toBe(EXIT.integrity);
    const otherSecret = { SVC_WEBHOOK_SECRET: `whsec_${Buffer.from("zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz").toString("base64")}` };
    expect((await svc(["webhooks", "verify", saved("o.json", now)], otherSecret)).code).toBe(EXIT.integrity);
    const stale = saved("stale.json", new Date(Date.now() - 3600_000));
    const r = await svc(["webhooks", "verify", stale, "--json"], env);
    expect(r.code).toBe(EXIT.integrity);
    expect(JSON.parse(r.stdout).valid).toBe(false);
    expect((await svc(["webhooks", "verify", stale, "--ignore-timestamp"], env)).code).toBe(EXIT.ok);
    // --ignore-timestamp still checks the signature.
    const staleChanged = saved(
      "sc.json",
      new Date(Date.now() - 3600_000),
      `${body} `,
      undefined,
      wh.sign("whevt_abcdefghij234567", new Date(Date.now() - 3600_000), body),
    );
    expect((await svc(["webhooks", "verify", staleChanged, "--ignore-timestamp"], env)).code).toBe(EXIT.integrity);
  });

  it("#21 hostile saved files and headers are clean refusals, never crashes", async () => {
    const cases: [string, string][] = [
      ["garbage.json", "\u0000\u0001not json"],
      ["array.json", "[]"],
      ["nobody.json", JSON.stringify({ headers: {} })],
      ["noheaders.json", JSON.stringify({ headers: {}, body_base64: "" })],
      [
        "hugets.json",
        JSON.stringify({
          headers: { "webhook-id": "x", "webhook-timestamp": "9".repeat(400), "webhook-signature": "v1,AAAA" },
          body_base64: "e30=",
        }),
      ],
      [
        "badsig.json",
        JSON.stringify({
          headers: { "webhook-id": "x", "webhook-timestamp": "1", "webhook-signature": "v1,!!!! v2,x ,,, v1" },
          body_base64: "e30=",
        }),
      ],
      [
        "notutf8.json",
        JSON.stringify({
          headers: { "webhook-id": "x", "webhook-timestamp": String(Math.floor(Date.now() / 1000)), "webhook-signature": "v1,AAAA" },
          body_base64: Buffer.from([0xff, 0xfe, 0x00]).toString("base64"),
        }),
      ],
    ];
    for (const [name, text] of cases) {
      writeFileSync(join(scratch, name), text);
      for (const extra of [[], ["--ignore-timestamp"]]) {
        const r = await svc(["webhooks", "verify", join(scratch, name), ...extra], env);
        expect([EXIT.usage, EXIT.integrity], `${name} ${extra.join(" ")}: ${r.stderr}`).toContain(r.code);
      }
    }
    // Headers and body as separate files: header lines or a JSON object.
    const now = new Date();
    writeFileSync(
      join(scratch, "h.txt"),
      `webhook-id: whevt_abcdefghij234567\nWebhook-Timestamp: ${Math.floor(now.getTime() / 1000)}\nwebhook-signature: ${wh.sign("whevt_abcdefghij234567", now, body)}\n`,
    );
    writeFileSync(join(scratch, "b.json"), body);
    expect((await svc(["webhooks", "verify", "--headers", join(scratch, "h.txt"), "--body", join(scratch, "b.json")], env)).code).toBe(
      EXIT.ok,
    );
    // No secret, or a secret that is not whsec_: usage.
    expect((await svc(["webhooks", "verify", join(scratch, "ok.json")])).code).toBe(EXIT.usage);
    expect((await svc(["webhooks", "verify", join(scratch, "ok.json")], { SVC_WEBHOOK_SECRET: "plain" })).code).toBe(EXIT.usage);
  });
});

describe("svc verify and a sidecar manifest", () => {
  it("sends FILE.c2pa beside a local file as its sidecar manifest (as svc sign writes it), and says so", async () => {
    const bodies: string[] = [];
    const server = createServer((req, res) => {
      let body = "";
      req.setEncoding("latin1");
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        bodies.push(body);
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ status: "verified_manifest", confidence: 0.9, user_explanation: "ok", warnings: [] }));
      });
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    try {
      const env = { SVC_API_KEY: "k", SVC_API_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
      const dir = join(scratch, "sidecar");
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "ast_abcdefghij234567.pdf"), "%PDF-1.4 signed");
      writeFileSync(join(dir, "ast_abcdefghij234567.pdf.c2pa"), "MANIFEST-STORE-BYTES");
      writeFileSync(join(dir, "alone.pdf"), "%PDF-1.4 alone");
      const beside = await svc(["verify", "sidecar/ast_abcdefghij234567.pdf", "--json"], env);
      expect(beside.code).toBe(EXIT.ok);
      expect(bodies[0]).toContain('name="manifest"');
      expect(bodies[0]).toContain("MANIFEST-STORE-BYTES");
      expect(beside.stderr).toContain("using the sidecar manifest beside it: sidecar/ast_abcdefghij234567.pdf.c2pa");
      const alone = await svc(["verify", "sidecar/alone.pdf", "--json"], env);
      expect(alone.code).toBe(EXIT.ok);
      expect(bodies[1]).not.toContain('name="manifest"');
      expect(alone.stderr).toBe("");
    } finally {
      await new Promise<void>((ok) => server.close(() => ok()));
    }
  });
});
