/*
 * The Play Integrity verdict payload (the JSON inside the verified JWS), parsed leniently and decided strictly:
 * unknown members and new verdict labels pass through untouched, while every member the decision depends on must
 * have the documented type. Nothing here trusts the payload; callers reach it only after JWE decryption and JWS
 * verification (play-integrity.ts).
 */

/** The members of a verdict our decisions use, with Google's int64-as-string fields already converted. */
export interface PlayIntegrityVerdict {
  requestPackageName: string;
  /** requestDetails.timestampMillis: when Google made the verdict (server time), ms since the epoch. */
  timestampMillis: number;
  /** Classic requests echo `nonce`, standard requests echo `requestHash`; exactly one is present. */
  binding: { field: "nonce" | "requestHash"; value: string };
  appRecognitionVerdict: string;
  /** Set by Google only when the app verdict is not UNEVALUATED. */
  packageName: string | null;
  /** base64url SHA-256 digests of the signing certificates, as given. */
  certificateSha256Digests: string[];
  versionCode: number | null;
  /** Device labels as given; absent (proto3 JSON omits an empty list) means no label was met. */
  deviceRecognitionVerdict: string[];
  appLicensingVerdict: string | null;
  isTestingResponse: boolean;
}

/** Result of parsing: the verdict, or a fixed reason naming the malformed member (never echoing its value). */
export type PlayIntegrityParse = { ok: true; verdict: PlayIntegrityVerdict } | { ok: false; detail: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Google's int64 fields are JSON strings of decimal digits (proto3 JSON); a plain number is accepted too. Only
 * non-negative safe integers: a larger value cannot be compared exactly.
 */
function int64Of(value: unknown): number | null {
  if (typeof value === "number") return Number.isSafeInteger(value) && value >= 0 ? value : null;
  if (typeof value !== "string" || !/^(?:0|[1-9][0-9]{0,15})$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : null;
}

function stringListOf(value: unknown): string[] | null {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) return null;
  return [...value];
}

/**
 * Parses the verdict payload object (the bare verdict of a locally decrypted token, not the
 * `{"tokenPayloadExternal": …}` wrapper of Google's decodeIntegrityToken API). Invariant: `ok` only when
 * requestDetails (package, timestamp, exactly one of nonce / requestHash), appIntegrity.appRecognitionVerdict and a
 * deviceIntegrity object are present with their documented types, and every optional member used is well typed.
 */
export function parsePlayIntegrityVerdict(payload: unknown): PlayIntegrityParse {
  const fail = (detail: string): PlayIntegrityParse => ({ ok: false, detail });
  if (!isRecord(payload)) return fail("verdict is not a JSON object");

  const request = payload["requestDetails"];
  if (!isRecord(request)) return fail("verdict has no requestDetails");
  const requestPackageName = request["requestPackageName"];
  if (typeof requestPackageName !== "string" || requestPackageName === "") {
    return fail("requestDetails.requestPackageName missing");
  }
  const timestampMillis = int64Of(request["timestampMillis"]);
  if (timestampMillis === null) return fail("requestDetails.timestampMillis missing or malformed");
  const nonce = request["nonce"];
  const requestHash = request["requestHash"];
  if (nonce !== undefined && typeof nonce !== "string") return fail("requestDetails.nonce malformed");
  if (requestHash !== undefined && typeof requestHash !== "string") return fail("requestDetails.requestHash malformed");
  // A verdict answers one request type; both present would leave it open which one the app bound.
  if ((nonce === undefined) === (requestHash === undefined)) {
    return fail("requestDetails must carry exactly one of nonce and requestHash");
  }
  const binding =
    nonce !== undefined ? { field: "nonce" as const, value: nonce } : { field: "requestHash" as const, value: requestHash as string };

  const app = payload["appIntegrity"];
  if (!isRecord(app)) return fail("verdict has no appIntegrity");
  const appRecognitionVerdict = app["appRecognitionVerdict"];
  if (typeof appRecognitionVerdict !== "string" || appRecognitionVerdict === "") {
    return fail("appIntegrity.appRecognitionVerdict missing");
  }
  const packageName = app["packageName"];
  if (packageName !== undefined && (typeof packageName !== "string" || packageName === "")) {
    return fail("appIntegrity.packageName malformed");
  }
  const certificateSha256Digests = stringListOf(app["certificateSha256Digest"]);
  if (certificateSha256Digests === null) return fail("appIntegrity.certificateSha256Digest malformed");
  const versionCode = app["versionCode"] === undefined ? null : int64Of(app["versionCode"]);
  if (app["versionCode"] !== undefined && versionCode === null) return fail("appIntegrity.versionCode malformed");

  const device = payload["deviceIntegrity"];
  if (!isRecord(device)) return fail("verdict has no deviceIntegrity");
  const deviceRecognitionVerdict = stringListOf(device["deviceRecognitionVerdict"]);
  if (deviceRecognitionVerdict === null) return fail("deviceIntegrity.deviceRecognitionVerdict malformed");

  const account = payload["accountDetails"];
  if (account !== undefined && !isRecord(account)) return fail("accountDetails malformed");
  const licensing = isRecord(account) ? account["appLicensingVerdict"] : undefined;
  if (licensing !== undefined && typeof licensing !== "string") return fail("accountDetails.appLicensingVerdict malformed");

  const testing = payload["testingDetails"];
  if (testing !== undefined && !isRecord(testing)) return fail("testingDetails malformed");
  const isTesting = isRecord(testing) ? testing["isTestingResponse"] : undefined;
  if (isTesting !== undefined && typeof isTesting !== "boolean") return fail("testingDetails.isTestingResponse malformed");

  return {
    ok: true,
    verdict: {
      requestPackageName,
      timestampMillis,
      binding,
      appRecognitionVerdict,
      packageName: packageName ?? null,
      certificateSha256Digests,
      versionCode,
      deviceRecognitionVerdict,
      appLicensingVerdict: licensing ?? null,
      isTestingResponse: isTesting === true,
    },
  };
}
