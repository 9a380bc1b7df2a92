import { describe, expect, it } from "vitest";
import { captureTrustOf } from "../../../src/capture/trust";
import { testEnv } from "../support/helpers";
import { TEST_TRUST_VERSION } from "./trust-fixture";

describe("capture trust snapshot (SVC_CAPTURE_TRUST)", () => {
  it("the test binding parses into the test CAs' snapshot, once per env object", () => {
    const load = captureTrustOf(testEnv);
    expect(load.status).toBe("ok");
    if (load.status !== "ok") return;
    expect(load.trust.version).toBe(TEST_TRUST_VERSION);
    expect(load.trust.appleRootsPem).toContain("BEGIN CERTIFICATE");
    expect(captureTrustOf(testEnv)).toBe(load);
  });

  it("absent, blank, not JSON, or not exactly an AttestationTrust: no snapshot", () => {
    expect(captureTrustOf({}).status).toBe("absent");
    expect(captureTrustOf({ SVC_CAPTURE_TRUST: "  " }).status).toBe("absent");
    expect(captureTrustOf({ SVC_CAPTURE_TRUST: "{" }).status).toBe("malformed");
    expect(captureTrustOf({ SVC_CAPTURE_TRUST: JSON.stringify({ apps: [] }) }).status).toBe("malformed");
    // A misspelt member is refused rather than silently ignored (a root that would never be used).
    expect(captureTrustOf({ SVC_CAPTURE_TRUST: JSON.stringify({ version: "v", apps: [], appleRootPem: "x" }) }).status).toBe("malformed");
    expect(captureTrustOf({ SVC_CAPTURE_TRUST: JSON.stringify({ version: "v", apps: [{ appleAppId: "A.b" }] }) }).status).toBe("ok");
  });
});
