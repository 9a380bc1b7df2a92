import type { FlagSpec, Parsed, PositionalSpec } from "./args.ts";
import type { Config } from "./config.ts";
import type { Io, Style } from "./output.ts";

/** What a command runs with: its parsed line, the resolved configuration and its output helpers. */
export interface Context {
  readonly io: Io;
  readonly parsed: Parsed;
  readonly config: Config;
  /** --json: machine output on stdout, nothing else there. */
  readonly json: boolean;
  /** Styling for stdout (identity unless stdout is a colour terminal). */
  readonly paint: (style: Style, text: string) => string;
  /** Styling for stderr. */
  readonly paintErr: (style: Style, text: string) => string;
  out(text: string): void;
  /** A line on stderr; any API key in it is redacted. */
  err(text: string): void;
  /** The API key, or an auth error (exit 3) telling how to set one. */
  requireKey(): string;
}

/** One `svc` command: its place in the tree (`["jobs", "list"]`), its help and its action (returns the exit code). */
export interface Command {
  readonly path: readonly string[];
  readonly summary: string;
  /** Paragraphs printed by --help under the usage line. */
  readonly description?: string;
  readonly flags: readonly FlagSpec[];
  readonly positionals: readonly PositionalSpec[];
  readonly examples?: readonly string[];
  run(ctx: Context): Promise<number>;
}
