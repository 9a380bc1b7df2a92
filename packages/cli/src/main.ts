import { COMMON_FLAGS, type FlagSpec, parseArgs, stringFlag } from "./args.ts";
import type { Command, Context } from "./command.ts";
import { COMMANDS } from "./commands/index.ts";
import { redactSecrets, resolveConfig } from "./config.ts";
import { CliError, EXIT, EXIT_TABLE, UsageError } from "./exit.ts";
import { colorEnabled, type Io, painter, safe } from "./output.ts";
import { toCliError } from "./sdk.ts";

export const VERSION = "0.1.0";

function flagLine(f: FlagSpec): [string, string] {
  const name = `${f.short ? `-${f.short}, ` : "    "}--${f.name}${f.type === "string" ? ` ${f.placeholder ?? "VALUE"}` : ""}`;
  return [name, f.description + (f.repeatable ? " (repeatable)" : "")];
}

function columns(rows: [string, string][], indent = "  "): string {
  const width = Math.max(...rows.map(([a]) => a.length));
  return rows.map(([a, b]) => `${indent}${a.padEnd(width)}  ${b}`).join("\n");
}

/** --help of one command. */
export function commandHelp(cmd: Command): string {
  const usage = [
    "svc",
    ...cmd.path,
    ...cmd.positionals.map((p) => (p.required ? p.name : `[${p.name}]`)),
    ...(cmd.flags.length ? ["[flags]"] : []),
  ].join(" ");
  const parts = [`${cmd.summary}\n`, `Usage: ${usage}`];
  if (cmd.description) parts.push(`\n${cmd.description.trim()}`);
  if (cmd.positionals.length) parts.push(`\nArguments:\n${columns(cmd.positionals.map((p) => [p.name, p.description]))}`);
  if (cmd.flags.length) parts.push(`\nFlags:\n${columns(cmd.flags.map(flagLine))}`);
  parts.push(`\nCommon flags:\n${columns(COMMON_FLAGS.map(flagLine))}`);
  if (cmd.examples?.length) parts.push(`\nExamples:\n${cmd.examples.map((e) => `  ${e}`).join("\n")}`);
  return `${parts.join("\n")}\n`;
}

/** Help of a group (`svc jobs`) or of the whole tool (prefix []). */
export function groupHelp(prefix: readonly string[]): string {
  const below = COMMANDS.filter((c) => prefix.every((p, i) => c.path[i] === p));
  const rows = below.map((c) => [c.path.join(" "), c.summary] as [string, string]);
  if (prefix.length > 0)
    return `Usage: svc ${prefix.join(" ")} <command> [flags]\n\nCommands:\n${columns(rows)}\n\nRun 'svc ${prefix.join(" ")} <command> --help' for a command's flags.\n`;
  return `svc ${VERSION}: sign and verify media with the svc provenance service.

Usage: svc <command> [arguments] [flags]

Commands:
${columns(rows)}

Configuration (environment):
  SVC_API_KEY       the API key (never printed). Default: the key in .svc/dev.env, used only with that file's address.
  SVC_API_BASE_URL  the service address. Default: .svc/dev.env (written by npm start), else http://127.0.0.1:8787.
  NO_COLOR          no colours (colours are only used on a terminal anyway).

Exit codes:
${columns(EXIT_TABLE.map(([c, m]) => [String(c), m]))}

Run 'svc <command> --help' for a command's flags and examples.
`;
}

/** Finds the longest command path that prefixes argv; returns it and the rest of the line. */
function lookup(argv: readonly string[]): { cmd: Command | null; rest: readonly string[]; prefix: string[] } {
  let best: Command | null = null;
  for (const c of COMMANDS) {
    if (c.path.every((p, i) => argv[i] === p) && (!best || c.path.length > best.path.length)) best = c;
  }
  if (best) return { cmd: best, rest: argv.slice(best.path.length), prefix: [...best.path] };
  const prefix: string[] = [];
  for (const word of argv) {
    if (word.startsWith("-")) break;
    const next = [...prefix, word];
    if (!COMMANDS.some((c) => next.every((p, i) => c.path[i] === p))) break;
    prefix.push(word);
  }
  return { cmd: null, rest: argv.slice(prefix.length), prefix };
}

/**
 * Runs one command line and returns the exit code; never throws. Errors are one line on stderr (with the
 * request id when the service gave one); with --json they are also a JSON object on stdout.
 */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  const plain = painter(colorEnabled(io.stderr, io.env, argv.includes("--no-color")));
  const wantsJson = argv.includes("--json");
  const fail = (e: unknown, apiKey: string | null, baseUrl = ""): number => {
    const err = toCliError(e, { baseUrl, aborted: io.signal.aborted });
    const code = err.exitCode;
    // An unexpected error shows its stack when SVC_DEBUG is set; every line passes the redaction.
    const unexpected = code === EXIT.failure && !(e instanceof CliError) && e instanceof Error && io.env.SVC_DEBUG ? `\n${e.stack}` : "";
    // messages carry the service's own text (an error envelope's message): safe() before they reach the terminal
    const message = redactSecrets(err.message + unexpected, apiKey);
    const details = err.details.map((d) => safe(redactSecrets(d, apiKey)));
    io.stderr.write(`${plain("red", "error:")} ${safe(message)}\n${details.map((d) => `  ${d}\n`).join("")}`);
    if (wantsJson) {
      const extra = err as unknown as { status?: number; code?: string | null; requestId?: string | null } | null;
      io.stdout.write(
        `${JSON.stringify({ error: { message, exit_code: code, status: extra?.status ?? null, code: extra?.code ?? null, request_id: extra?.requestId ?? null } })}\n`,
      );
    }
    return code;
  };

  if (argv.length === 0 || argv[0] === "help" || ((argv[0] === "--help" || argv[0] === "-h") && argv.length === 1)) {
    const topic = argv[0] === "help" ? lookup(argv.slice(1)) : null;
    if (topic?.cmd) io.stdout.write(commandHelp(topic.cmd));
    else io.stdout.write(groupHelp(topic?.prefix ?? []));
    return argv.length === 0 ? EXIT.usage : EXIT.ok;
  }
  if (argv[0] === "--version" || argv[0] === "version") {
    io.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  const { cmd, rest, prefix } = lookup(argv);
  if (!cmd) {
    if (prefix.length > 0 && (rest.length === 0 || rest.includes("--help") || rest.includes("-h"))) {
      io.stdout.write(groupHelp(prefix));
      return rest.length === 0 ? EXIT.usage : EXIT.ok;
    }
    const word = rest[0] ?? "";
    return fail(
      new UsageError(`unknown command ${JSON.stringify([...prefix, word].join(" "))}`, [
        `run 'svc ${prefix.length ? `${prefix.join(" ")} ` : ""}--help' for the commands`,
      ]),
      null,
    );
  }
  let apiKey: string | null = null;
  let baseUrl = "";
  try {
    const parsed = parseArgs(rest, cmd.flags, cmd.positionals);
    if (parsed.flags.help) {
      io.stdout.write(commandHelp(cmd));
      return EXIT.ok;
    }
    const config = resolveConfig(io.env, io.cwd, stringFlag(parsed, "base-url"));
    apiKey = config.apiKey;
    baseUrl = config.baseUrl;
    const noColor = parsed.flags["no-color"] === true;
    const errPaint = painter(colorEnabled(io.stderr, io.env, noColor));
    const ctx: Context = {
      io,
      parsed,
      config,
      json: parsed.flags.json === true,
      paint: painter(colorEnabled(io.stdout, io.env, noColor) && parsed.flags.json !== true),
      paintErr: errPaint,
      out: (text) => io.stdout.write(text),
      err: (text) => io.stderr.write(`${redactSecrets(text, config.apiKey)}\n`),
      requireKey() {
        if (config.apiKey) return config.apiKey;
        throw new CliError(
          EXIT.auth,
          "no API key",
          config.devEnvKeyHeldFor
            ? [
                `the key in .svc/dev.env is used only with its own address, ${config.devEnvKeyHeldFor}, not ${config.baseUrl}: set SVC_API_KEY for that service, or drop --base-url / SVC_API_BASE_URL`,
              ]
            : ["set SVC_API_KEY, or run `npm start` in the repository (it writes .svc/dev.env, which svc reads)"],
        );
      },
    };
    return await cmd.run(ctx);
  } catch (e) {
    return fail(e, apiKey, baseUrl);
  }
}
