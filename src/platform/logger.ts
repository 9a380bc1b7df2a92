/**
 * The one structured logger: every line is a single JSON object `{ level, event, ...fields }` on the console, which
 * Workers Logs and `wrangler tail` index by field. `event` is a short stable phrase ("enqueue failed"), fields carry
 * ids and error text. Never pass personal data or secrets (key material, emails, filenames, request bodies): ids
 * and codes only.
 */
export interface Logger {
  info(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
  error(event: string, fields?: LogFields): void;
}

export type LogFields = Record<string, unknown>;

type Level = "info" | "warn" | "error";

function write(level: Level, event: string, fields: LogFields = {}): void {
  const line = JSON.stringify({ level, event, ...fields }, (_key, value) => (value instanceof Error ? String(value) : value));
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}

/** The logger for code with no request at hand (queue consumers, cron sweeps, Durable Objects). */
export const log: Logger = {
  info: (event, fields) => write("info", event, fields),
  warn: (event, fields) => write("warn", event, fields),
  error: (event, fields) => write("error", event, fields),
};

/** A logger whose every line carries `fields` (e.g. the request id). */
export function withFields(base: LogFields): Logger {
  return {
    info: (event, fields) => write("info", event, { ...base, ...fields }),
    warn: (event, fields) => write("warn", event, { ...base, ...fields }),
    error: (event, fields) => write("error", event, { ...base, ...fields }),
  };
}
