// `npm run ops:legal-hold -- <command> [options]`: the operator's path for legal holds (tenants cannot place or
// release them). Runs SQL through `wrangler d1 execute` against the local development database (default, the
// `dev` environment of wrangler.toml) or, with --remote, the deployed one (--env NAME picks a wrangler environment).
//
//   place   --tenant ten_… [--asset ast_…] --reason "Matter 2026-117" --by "ops.alice"
//   release --hold lgh_… --by "ops.bob"
//   list    --tenant ten_…
//
// Every place and release is appended to the tenant's audit chain (`legal_hold.placed` / `legal_hold.released`,
// actor `operator`, actor id = --by), hashed exactly as the service hashes its entries.
import { QUIET_ENV, wrangler } from "./lib/dev.mjs";
import { listHolds, parseArgs, placeHold, releaseHold, UsageError } from "./lib/legal-hold.mjs";

const USAGE = `usage: npm run ops:legal-hold -- place --tenant TEN [--asset AST] --reason TEXT --by NAME [--remote] [--env NAME]
       npm run ops:legal-hold -- release --hold LGH --by NAME [--remote] [--env NAME]
       npm run ops:legal-hold -- list --tenant TEN [--remote] [--env NAME]`;

function runner({ remote = false, env }) {
  const where = remote ? ["--remote", ...(env ? ["--env", env] : [])] : ["--local", "--env", env ?? "dev"];
  return async (command) => {
    const out = wrangler(["d1", "execute", "DB", ...where, "--json", "--command", command], { env: QUIET_ENV });
    const parsed = JSON.parse(out);
    return parsed[parsed.length - 1]?.results ?? [];
  };
}

try {
  const { command, options } = parseArgs(process.argv.slice(2));
  const exec = runner(options);
  if (command === "place") {
    const placed = await placeHold(exec, { tenant: options.tenant, asset: options.asset ?? null, reason: options.reason, by: options.by });
    console.log(JSON.stringify({ placed: placed.holdId, scope: placed.scope, asset_id: placed.asset, audit_seq: placed.auditSeq }));
  } else if (command === "release") {
    const released = await releaseHold(exec, { hold: options.hold, by: options.by });
    console.log(JSON.stringify({ released: released.holdId, tenant_id: released.tenantId, audit_seq: released.auditSeq }));
  } else if (command === "list") {
    for (const row of await listHolds(exec, { tenant: options.tenant })) console.log(JSON.stringify(row));
  } else {
    throw new UsageError(command ? `unknown command ${command}` : "no command");
  }
} catch (error) {
  if (error instanceof UsageError) {
    console.error(`svc: ${error.message}\n${USAGE}`);
    process.exit(2);
  }
  console.error(`svc: ${error?.stderr ?? error?.message ?? error}`);
  process.exit(1);
}
