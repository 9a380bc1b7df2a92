import { unwrap } from "@svc/client";
import { intFlag, listFlag, stringFlag } from "../args.ts";
import type { Command } from "../command.ts";
import { EXIT, UsageError } from "../exit.ts";
import { safe, table } from "../output.ts";
import { clientOf } from "../sdk.ts";
import { checkId, jsonOut, PAGE_FLAGS, printNextCursor, when } from "./shared.ts";

export const keysCommands: Command[] = [
  {
    path: ["keys", "list"],
    summary: "List API keys (never their secrets)",
    flags: [...PAGE_FLAGS],
    positionals: [],
    async run(ctx) {
      const query = { limit: intFlag(ctx.parsed, "limit", 1, 100), cursor: stringFlag(ctx.parsed, "cursor") };
      const page = await unwrap(await clientOf(ctx).api.GET("/v1/api-keys", { params: { query } }));
      if (ctx.json) return jsonOut(ctx, page);
      ctx.out(
        table([
          ["KEY", "NAME", "STATUS", "PREFIX", "SCOPES", "LAST USED"],
          ...page.items.map((k) =>
            [k.api_key_id, k.name, k.status, k.display_prefix, String(k.scopes.length), when(k.last_used_at)].map(safe),
          ),
        ]),
      );
      printNextCursor(ctx, page.next_cursor, "svc keys list");
      return EXIT.ok;
    },
  },
  {
    path: ["keys", "scopes"],
    summary: "List the scopes a key can hold",
    flags: [],
    positionals: [],
    async run(ctx) {
      const res = await unwrap(await clientOf(ctx).api.GET("/v1/api-keys/scopes"));
      if (ctx.json) return jsonOut(ctx, res);
      ctx.out(table(res.scopes.map((s) => [s.scope, s.description].map(safe))));
      return EXIT.ok;
    },
  },
  {
    path: ["keys", "create"],
    summary: "Create an API key (its secret is printed once)",
    flags: [
      { name: "name", type: "string", placeholder: "NAME", description: "A label for the key (required)." },
      {
        name: "scope",
        type: "string",
        placeholder: "SCOPE",
        repeatable: true,
        description: "A scope to grant; comma list or repeated (required; see svc keys scopes).",
      },
      { name: "expires-at", type: "string", placeholder: "TIME", description: "ISO 8601 expiry (default: the calling key's own)." },
    ],
    positionals: [],
    description:
      "Prints the new secret on stdout, alone on its line (or as `secret` with --json), and nothing else there: pipe it into your secret store. It cannot be shown again. The new key holds at most the calling key's scopes.",
    examples: ["svc keys create --name ci --scope uploads:write,sign:write,jobs:read,assets:read > ci.key"],
    async run(ctx) {
      const name = stringFlag(ctx.parsed, "name");
      const scopes = listFlag(ctx.parsed, "scope");
      if (!name) throw new UsageError("--name is required");
      if (!scopes?.length) throw new UsageError("at least one --scope is required (see svc keys scopes)");
      const expires = stringFlag(ctx.parsed, "expires-at");
      // One Idempotency-Key for this logical write; the SDK resends it unchanged on its retries.
      const body = { name, scopes: scopes as never, ...(expires ? { expires_at: expires } : {}) };
      const issued = await unwrap(
        await clientOf(ctx).api.POST("/v1/api-keys", { body, params: { header: { "idempotency-key": crypto.randomUUID() } } }),
      );
      if (ctx.json) return jsonOut(ctx, issued);
      ctx.err(`created ${safe(issued.api_key.api_key_id)} (${safe(issued.api_key.scopes.join(", "))}); the secret below is shown once:`);
      ctx.out(`${issued.secret}\n`);
      return EXIT.ok;
    },
  },
  {
    path: ["keys", "revoke"],
    summary: "Revoke an API key",
    flags: [],
    positionals: [{ name: "KEY_ID", required: true, description: "The key (key_…)." }],
    description:
      "Its next request answers 401 (every instance refuses it within 15 seconds). The record stays readable with status revoked.",
    async run(ctx) {
      const id = checkId("api key", ctx.parsed.positionals[0]!);
      const key = await unwrap(
        await clientOf(ctx).api.DELETE("/v1/api-keys/{api_key_id}", {
          params: { path: { api_key_id: id }, header: { "idempotency-key": crypto.randomUUID() } },
        }),
      );
      if (ctx.json) return jsonOut(ctx, key);
      ctx.out(`${safe(key.api_key_id)} ${ctx.paint("red", safe(key.status))}\n`);
      return EXIT.ok;
    },
  },
];
