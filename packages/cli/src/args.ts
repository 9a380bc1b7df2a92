import { UsageError } from "./exit.ts";

/** One flag of a command. Boolean flags take no value; string flags take one (`--out DIR` or `--out=DIR`). */
export interface FlagSpec {
  readonly name: string;
  readonly short?: string;
  readonly type: "boolean" | "string";
  readonly description: string;
  /** Shown in help for string flags (`--out DIR`). */
  readonly placeholder?: string;
  /** A string flag that may be given several times (values collected in order). */
  readonly repeatable?: boolean;
}

export interface PositionalSpec {
  readonly name: string;
  readonly description: string;
  readonly required: boolean;
}

/** What a command received: its flags by name (booleans true when given) and its positionals in order. */
export interface Parsed {
  readonly flags: Readonly<Record<string, string | boolean | string[] | undefined>>;
  readonly positionals: readonly string[];
}

/** Flags every command accepts. */
export const COMMON_FLAGS: readonly FlagSpec[] = [
  { name: "help", short: "h", type: "boolean", description: "Show this help." },
  { name: "json", type: "boolean", description: "Print machine-readable JSON on stdout." },
  {
    name: "base-url",
    type: "string",
    placeholder: "URL",
    description: "The service address (default: SVC_API_BASE_URL, else .svc/dev.env, else http://127.0.0.1:8787).",
  },
  { name: "no-color", type: "boolean", description: "No colours (also NO_COLOR=1; colours are only used on a terminal)." },
];

/**
 * Parses `argv` against a command's flags and positionals. Unknown flags, missing values and missing or extra
 * positionals are usage errors; `--` ends the flags. `--help` short-circuits the positional checks so help
 * works whatever else is on the line.
 */
export function parseArgs(argv: readonly string[], flags: readonly FlagSpec[], positionals: readonly PositionalSpec[]): Parsed {
  const all = [...COMMON_FLAGS, ...flags];
  const byName = new Map(all.map((f) => [f.name, f]));
  const byShort = new Map(all.filter((f) => f.short).map((f) => [f.short!, f]));
  const values: Record<string, string | boolean | string[] | undefined> = {};
  const rest: string[] = [];
  let flagsDone = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (flagsDone || arg === "-" || !arg.startsWith("-")) {
      rest.push(arg);
      continue;
    }
    if (arg === "--") {
      flagsDone = true;
      continue;
    }
    let spec: FlagSpec | undefined;
    let inline: string | undefined;
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      inline = eq === -1 ? undefined : arg.slice(eq + 1);
      spec = byName.get(name);
    } else if (arg.length === 2) {
      spec = byShort.get(arg.slice(1));
    }
    if (!spec) throw new UsageError(`unknown flag ${JSON.stringify(arg.split("=")[0])}`);
    if (spec.type === "boolean") {
      if (inline !== undefined) throw new UsageError(`--${spec.name} takes no value`);
      values[spec.name] = true;
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new UsageError(`--${spec.name} needs a value (${spec.placeholder ?? "VALUE"})`);
    if (spec.repeatable) values[spec.name] = [...((values[spec.name] as string[] | undefined) ?? []), value];
    else if (values[spec.name] !== undefined) throw new UsageError(`--${spec.name} given twice`);
    else values[spec.name] = value;
  }
  if (values.help) return { flags: values, positionals: rest };
  const required = positionals.filter((p) => p.required).length;
  if (rest.length < required) throw new UsageError(`missing ${positionals[rest.length]!.name}`);
  if (rest.length > positionals.length) throw new UsageError(`unexpected argument ${JSON.stringify(rest[positionals.length])}`);
  return { flags: values, positionals: rest };
}

/** A string flag's value, or undefined. */
export function stringFlag(parsed: Parsed, name: string): string | undefined {
  const v = parsed.flags[name];
  return typeof v === "string" ? v : undefined;
}

/** A positive integer flag within [min, max], or the default. */
export function intFlag(parsed: Parsed, name: string, min: number, max: number, fallback?: number): number | undefined {
  const raw = stringFlag(parsed, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new UsageError(`--${name} must be a whole number`);
  const n = Number(raw);
  if (n < min || n > max) throw new UsageError(`--${name} must be between ${min} and ${max}`);
  return n;
}

/** A flag given as a comma list and/or several times: `--events a,b --events c`. */
export function listFlag(parsed: Parsed, name: string): string[] | undefined {
  const v = parsed.flags[name];
  if (v === undefined || typeof v === "boolean") return undefined;
  const items = (Array.isArray(v) ? v : [v]).flatMap((s) => s.split(",")).map((s) => s.trim());
  return items.filter((s) => s.length > 0);
}
