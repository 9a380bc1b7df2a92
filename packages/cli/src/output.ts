/** A writable stream as the CLI uses it (process.stdout / process.stderr, or a test's buffer). */
export interface Stream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/** The process around a command: its streams, environment and working directory (injected so tests can run it in-process). */
export interface Io {
  readonly stdout: Stream;
  readonly stderr: Stream;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Aborted on Ctrl-C / SIGTERM: long commands (watch, listen) stop and clean up. */
  readonly signal: AbortSignal;
}

const CODES = { bold: [1, 22], dim: [2, 22], red: [31, 39], green: [32, 39], yellow: [33, 39], cyan: [36, 39] } as const;
export type Style = keyof typeof CODES;

/** Colours only on a terminal, and never when NO_COLOR is set (https://no-color.org) or TERM is dumb. */
export function colorEnabled(stream: Stream, env: Io["env"], noColorFlag: boolean): boolean {
  if (noColorFlag || (env.NO_COLOR !== undefined && env.NO_COLOR !== "") || env.TERM === "dumb") return false;
  return stream.isTTY === true;
}

/** Styling for one stream: identity when colours are off. */
export function painter(enabled: boolean): (style: Style, text: string) => string {
  return (style, text) => (enabled ? `\u001b[${CODES[style][0]}m${text}\u001b[${CODES[style][1]}m` : text);
}

/** Byte counts for people: 1.2 MiB. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

/**
 * A progress bar on a terminal (redrawn in place on stderr), nothing otherwise: piped output stays clean.
 * `update` is cheap to call often; it redraws at most every 100 ms.
 */
export function progressBar(stream: Stream, label: string, total: number): { update(done: number): void; finish(): void } {
  if (!stream.isTTY || total <= 0) return { update() {}, finish() {} };
  let last = 0;
  let shown = -1;
  const draw = (done: number) => {
    const width = Math.max(10, Math.min(40, (stream.columns ?? 80) - label.length - 30));
    const ratio = Math.min(1, done / total);
    const filled = Math.round(ratio * width);
    stream.write(
      `\r${label} [${"#".repeat(filled)}${".".repeat(width - filled)}] ${String(Math.floor(ratio * 100)).padStart(3)}% ${formatBytes(done)}/${formatBytes(total)}\u001b[K`,
    );
  };
  return {
    update(done) {
      const now = Date.now();
      if (done < total && now - last < 100) return;
      last = now;
      if (done === shown) return;
      shown = done;
      draw(done);
    },
    finish() {
      if (shown !== total) draw(total);
      stream.write("\n");
    },
  };
}

/** Aligned columns for list output; the last column is not padded. */
export function table(rows: readonly (readonly string[])[]): string {
  if (rows.length === 0) return "";
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? "").length)));
  return `${rows.map((r) => r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]!))).join("  ")).join("\n")}\n`;
}

/** JSON for --json output: two-space indent, one trailing newline. */
export function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * A string the service returned (often written by a signer or another user) made safe to print on a terminal:
 * ESC sequences (CSI, OSC, other ESC-introduced ones) are removed, and every other C0 control but \n, DEL and C1
 * controls (U+0080–U+009F, e.g. the one-byte CSI U+009B) become U+FFFD, so it cannot move the cursor, set the
 * window title or write the clipboard. Non-strings become "" (null, undefined) or their String().
 */
export function safe(value: unknown): string {
  if (value === null || value === undefined) return "";
  return (
    String(value)
      // OSC / DCS / SOS / PM / APC strings, ended by BEL or ST (ESC \) or by the end of the text.
      .replace(/\u001b[\]PX^_][^\u0007\u001b]*(?:\u0007|\u001b\\)?/g, "")
      // CSI sequences and two-character ESC sequences.
      .replace(/\u001b\[[0-?]*[ -/]*[@-~]?/g, "")
      .replace(/\u001b[ -~]?/g, "")
      .replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, "\ufffd")
  );
}
