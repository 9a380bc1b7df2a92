/**
 * Exit codes by error class. Scripts branch on these, so they are part of the CLI's contract: a code never
 * changes meaning. HTTP statuses map to classes the way SPEC's client rules read them (401 fix the key, 403
 * scope or network, 404 not found, 409/422 conflict or contract mismatch, 429/503 retry later).
 */
export const EXIT = {
  ok: 0,
  /** Anything not classed below (a bug, an unexpected answer). */
  failure: 1,
  /** Bad command line: unknown command or flag, missing argument, malformed value. */
  usage: 2,
  /** No API key, or the service refused it: 401 (invalid, revoked, expired) or 403 (scope, network, deactivated). */
  auth: 3,
  /** The service answered 404 or 410, or a local file named on the command line does not exist. */
  notFound: 4,
  /** The service refused the request as it stands: 400, 402, 409, 413, 415, 422. */
  rejected: 5,
  /** Try again later: 429 (rate limited), 503 or another 5xx, after the client's own retries. */
  unavailable: 6,
  /** The service could not be reached (connection refused, DNS, TLS, timeout). */
  network: 7,
  /** Bytes or a signature did not check out: a download's SHA-256 or length, a webhook signature. */
  integrity: 8,
  /** A job ended without completing (failed, rejected, canceled, expired). */
  jobFailed: 9,
  /** Interrupted (Ctrl-C) before the command finished. */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The class of an HTTP error status. */
export function exitForStatus(status: number): ExitCode {
  if (status === 401 || status === 403) return EXIT.auth;
  if (status === 404 || status === 410) return EXIT.notFound;
  if (status === 429 || status >= 500) return EXIT.unavailable;
  if (status >= 400) return EXIT.rejected;
  return EXIT.failure;
}

/** An error the CLI reports in one line and ends with `code`; never carries a secret in its message. */
export class CliError extends Error {
  readonly exitCode: ExitCode;
  /** Further lines (a hint, a request id). */
  readonly details: string[];
  constructor(exitCode: ExitCode, message: string, details: string[] = []) {
    super(message);
    this.name = "CliError";
    this.exitCode = exitCode;
    this.details = details;
  }
}

export class UsageError extends CliError {
  constructor(message: string, details: string[] = []) {
    super(EXIT.usage, message, details);
    this.name = "UsageError";
  }
}

/** The table printed by `svc --help` (and the README): code, meaning. */
export const EXIT_TABLE: [number, string][] = [
  [EXIT.ok, "success"],
  [EXIT.failure, "unexpected failure"],
  [EXIT.usage, "usage: unknown command or flag, missing or malformed argument"],
  [EXIT.auth, "authentication: no API key, or 401/403 (invalid or revoked key, missing scope, network not allowed)"],
  [EXIT.notFound, "not found: 404/410, or a local file that does not exist"],
  [EXIT.rejected, "rejected: 400/402/409/413/415/422 (conflict, validation, payment)"],
  [EXIT.unavailable, "unavailable: 429 rate limited, 503 or other 5xx (after retries)"],
  [EXIT.network, "network: the service could not be reached"],
  [EXIT.integrity, "integrity: hash, length or webhook signature mismatch"],
  [EXIT.jobFailed, "job ended without completing (failed, rejected, canceled, expired)"],
  [EXIT.interrupted, "interrupted"],
];
