import { resolve } from "node:path";
import { unwrap } from "@svc/client";
import { intFlag, stringFlag } from "../args.ts";
import type { Command } from "../command.ts";
import { EXIT } from "../exit.ts";
import { safe, table } from "../output.ts";
import { clientOf } from "../sdk.ts";
import { downloadInto } from "./delivery.ts";
import { checkId, jsonOut, PAGE_FLAGS, printNextCursor, when } from "./shared.ts";

export const assetsCommands: Command[] = [
  {
    path: ["assets", "list"],
    summary: "List assets, newest first",
    flags: [
      { name: "kind", type: "string", placeholder: "KIND", description: "image, audio, video, document, font, model or text." },
      { name: "status", type: "string", placeholder: "STATUS", description: "Only assets of this status (e.g. published)." },
      { name: "media", type: "string", placeholder: "TYPE", description: "Only this media type (e.g. image/jpeg)." },
      { name: "recipe", type: "string", placeholder: "RECIPE_ID", description: "Only assets published with this recipe." },
      { name: "from", type: "string", placeholder: "TIME", description: "Only assets created at or after this ISO 8601 time." },
      {
        name: "outcome",
        type: "string",
        placeholder: "OUTCOME",
        description: "Only assets with a verification of this outcome (valid, invalid, indeterminate, recovered).",
      },
      ...PAGE_FLAGS,
    ],
    positionals: [],
    examples: ["svc assets list --kind image --status published", "svc assets list --json"],
    async run(ctx) {
      const p = ctx.parsed;
      // Values pass as typed by the user; the service validates them (422 → exit 5 with the field named).
      const query = {
        kind: stringFlag(p, "kind"),
        status: stringFlag(p, "status"),
        media: stringFlag(p, "media"),
        recipe_id: stringFlag(p, "recipe"),
        from: stringFlag(p, "from"),
        verification_outcome: stringFlag(p, "outcome"),
        limit: intFlag(p, "limit", 1, 100),
        cursor: stringFlag(p, "cursor"),
      };
      const page = await unwrap(await clientOf(ctx).api.GET("/v1/assets", { params: { query: query as never } }));
      if (ctx.json) return jsonOut(ctx, page);
      if (page.items.length === 0) ctx.err("no assets");
      else
        ctx.out(
          table([
            ["ASSET", "STATUS", "KIND", "MEDIA TYPE", "CREATED"],
            ...page.items.map((a) => [a.asset_id, a.status, a.kind, a.media_type ?? "-", when(a.created_at)].map(safe)),
          ]),
        );
      ctx.err(ctx.paintErr("dim", `${page.total_count} matching`));
      printNextCursor(ctx, page.next_cursor, "svc assets list");
      return EXIT.ok;
    },
  },
  {
    path: ["assets", "get"],
    summary: "Show one asset and its publication",
    flags: [],
    positionals: [{ name: "ASSET_ID", required: true, description: "The asset (ast_…)." }],
    async run(ctx) {
      const id = checkId("asset", ctx.parsed.positionals[0]!);
      const asset = await unwrap(await clientOf(ctx).api.GET("/v1/assets/{asset_id}", { params: { path: { asset_id: id } } }));
      if (ctx.json) return jsonOut(ctx, asset);
      const rows: [string, string][] = [
        ["asset", asset.asset_id],
        ["status", asset.status],
        ["kind", asset.kind],
        ["media type", asset.media_type ?? "-"],
        ["created", when(asset.created_at)],
      ];
      if (asset.publication) {
        rows.push(
          ["publication", asset.publication.publication_id],
          ["job", asset.publication.job_id],
          ["recipe", asset.publication.recipe_id],
        );
      }
      ctx.out(table(rows.map((r) => r.map(safe))));
      return EXIT.ok;
    },
  },
  {
    path: ["assets", "download"],
    summary: "Download an asset's published file (and sidecar manifest), checking its SHA-256",
    flags: [
      { name: "out", short: "o", type: "string", placeholder: "DIR", description: "Directory to write into (default: the current one)." },
    ],
    positionals: [{ name: "ASSET_ID", required: true, description: "The asset (ast_…)." }],
    description:
      "The file is written under the download's own filename (asset id plus the container's extension); a sidecar manifest goes beside it as <filename>.c2pa. A hash or length mismatch writes nothing and exits 8.",
    examples: ["svc assets download ast_abcdefghij234567 --out signed/"],
    async run(ctx) {
      const id = checkId("asset", ctx.parsed.positionals[0]!);
      const saved = await downloadInto(ctx, id, resolve(ctx.io.cwd, stringFlag(ctx.parsed, "out") ?? "."));
      if (ctx.json) return jsonOut(ctx, saved);
      ctx.out(`${saved.path}\n${saved.sidecar ? `${saved.sidecar.path}\n` : ""}`);
      return EXIT.ok;
    },
  },
];
