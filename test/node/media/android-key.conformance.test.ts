import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ANDROID_KEY_VERIFIER_VERSION, createAndroidKeyVerifier } from "../../../src/media/attestation/android-key";
import {
  KEY_DESCRIPTION_OID,
  parseCertificate,
  parseKeyDescription,
  pemCertificates,
} from "../../../src/media/attestation/android-key-der";
import type { AttestationTrust, TrustedApp } from "../../../src/media/attestation/types";
import { fromBase64, hex } from "../../../src/platform/bytes";

// Real chains from test/fixtures/capture/android (see its README for source and licence of each file).
const DIR = join(import.meta.dirname, "..", "..", "fixtures", "capture", "android");
const read = (name: string) => readFileSync(join(DIR, name), "utf8");

interface Expected {
  attestationSecurityLevel: string;
  keyMintSecurityLevel: string;
  attestationChallengeBase64: string;
  rootOfTrust: { deviceLocked: boolean; verifiedBootState: string } | null;
  attestationApplicationId: { packages: { name: string; version: number }[]; signatures: string[] };
  osVersion: number | null;
  osPatchLevel: number | null;
  leafPublicKeySpkiSha256: string;
}
interface Vector {
  file: string;
  verifyAt: string | null;
  expectedResult: string;
  expected: Expected;
}
const index = JSON.parse(read("index.json")) as { chains: Vector[] };
const name = (v: Vector) => v.file.replace(/^chains\/|\.pem$/g, "");

// Google's current roots file: the 2022 RSA certificate and the EC CA1. Chains embedding the 2016/2019 RSA
// certificates must verify through the same KEY, which is what anchoring on keys (not certificates) means.
const GOOGLE_ROOTS_PEM = (JSON.parse(read("roots/roots.json")) as string[]).join("\n");
const trust = (extra: Partial<AttestationTrust> = {}): AttestationTrust => ({
  version: "t1",
  apps: [],
  googleRootsPem: GOOGLE_ROOTS_PEM,
  ...extra,
});

const LEVELS: Record<string, string> = { SOFTWARE: "software", TRUSTED_ENVIRONMENT: "tee", STRONG_BOX: "strongbox" };
const RANK = ["software", "tee", "strongbox"];
const b64 = (s: string) => fromBase64(s)!;
const verifier = createAndroidKeyVerifier();

function check(v: Vector, overrides: { statement?: string; now?: Date; trust?: AttestationTrust; challenge?: Uint8Array } = {}) {
  return verifier.verify({
    statement: overrides.statement ?? read(v.file),
    expectedChallenge: overrides.challenge ?? b64(v.expected.attestationChallengeBase64),
    trust: overrides.trust ?? trust(),
    now: overrides.now ?? new Date(v.verifyAt!),
  });
}

const valid = index.chains.filter((v) => v.expectedResult === "valid" || v.expectedResult === "valid-but-non-DER");
const vector = (n: string) => index.chains.find((v) => name(v) === n)!;

describe("Android key attestation: real vectors at their verifyAt", () => {
  it("covers every chain of the index", () => {
    expect(index.chains.length).toBe(31);
    expect(valid.length).toBe(23);
  });

  it.each(valid.map((v) => [name(v), v] as const))("%s verifies with the attested facts", async (_n, v) => {
    const result = await check(v);
    expect(result.status, JSON.stringify(result)).toBe("verified");
    if (result.status !== "verified") return;
    const f = result.facts;
    const e = v.expected;
    expect(result.verifier_version).toBe(ANDROID_KEY_VERIFIER_VERSION);
    expect(f.kind).toBe("hardware_key_attestation");
    expect(f.provider_class).toBe("android_key_attestation");
    expect(hex(f.challenge!)).toBe(hex(b64(e.attestationChallengeBase64)));
    const levels = [LEVELS[e.attestationSecurityLevel]!, LEVELS[e.keyMintSecurityLevel]!];
    expect(f.security_level).toBe(RANK[Math.min(...levels.map((l) => RANK.indexOf(l)))]);
    expect(f.boot).toEqual({
      state: (e.rootOfTrust?.verifiedBootState ?? "UNVERIFIED").toLowerCase(),
      device_locked: e.rootOfTrust?.deviceLocked ?? false,
    });
    expect(f.os_version).toBe(e.osVersion);
    expect(f.os_patch_level).toBe(e.osPatchLevel);
    expect(f.key_id).toBe(e.leafPublicKeySpkiSha256);
    expect(f.app_id).toBe(e.attestationApplicationId.packages[0]!.name);
    expect(f.app_version).toBe(e.attestationApplicationId.packages[0]!.version);
    expect(f.app_trusted).toBe(false); // no app configured
    expect(f.revoked).toBeNull(); // no list configured
    expect(f.counter).toBeNull();
  });

  it.each(valid.map((v) => [name(v), v] as const))(
    "%s: a flipped byte in the statement, a signature or a certificate is invalid",
    async (_n, v) => {
      const ders = pemCertificates(read(v.file));
      const leaf = parseCertificate(ders[0]!);
      const flip = (certIndex: number, at: (der: Uint8Array) => number) => {
        const copy = ders.map((d) => d.slice());
        const der = copy[certIndex]!;
        der[at(der)]! ^= 0x01;
        return toPem(copy);
      };
      // (1) the attested statement: a challenge byte inside the leaf's KeyDescription
      const kd = leaf.extensions.get(KEY_DESCRIPTION_OID)!;
      const challenge = parseKeyDescription(kd).attestationChallenge;
      const challengeAt = (der: Uint8Array) => indexOf(der, challenge);
      // (2) the leaf signature's last byte; (3) a byte in the middle of the intermediate certificate's body
      const cases = [flip(0, challengeAt), flip(0, (d) => d.length - 1), flip(1, (d) => Math.floor(d.length / 2))];
      for (const statement of cases) expect((await check(v, { statement })).status).toBe("invalid");
    },
  );

  it("reads deviceLocked TRUE encoded as 0x01 (non-DER, real device) as locked", async () => {
    const result = await check(vector("invalid-malformed_rot_device_locked"));
    expect(result.status === "verified" && result.facts.boot).toEqual({ state: "verified", device_locked: true });
  });

  it("accepts new KeyMint tags (405, 508, 724, 11): unknown tags are skipped, not refused", async () => {
    for (const n of [
      "tegu-sdk37-TEE_MAX_USAGE_COUNT",
      "tegu-sdk37-TEE_TRUSTED_CONF",
      "tokay-sdk37-TEE_MLDSA_RKP",
      "caiman-sdk36-TEE_EC_RKP",
    ]) {
      expect((await check(vector(n))).status, n).toBe("verified");
    }
  });

  it("rejects software-rooted chains (emulators, userdebug, custom ROM) as not trusted", async () => {
    const software = index.chains.filter((v) => v.expectedResult === "valid-only-if-software-root-allowed");
    expect(software.map(name).sort()).toEqual([
      "marlin-sdk29-TEE_EC_NONE",
      "marlin-sdk29-TEE_RSA_NONE",
      "warden-bq_aquaris",
      "warden-emulator_ec",
      "warden-emulator_rsa",
    ]);
    for (const v of software) {
      const result = await check(v);
      expect(result.status, name(v)).toBe("invalid");
      expect(result.status === "invalid" && result.detail).toMatch(/software attestation root/);
    }
  });

  it("rejects the edited leaf (tags out of order, broken signature) and the untrusted StrongBox root", async () => {
    const tags = await check(vector("invalid-tags_not_in_ascending_order"));
    expect(tags.status === "invalid" && tags.detail).toMatch(/certificate 0: signature/);
    const untrusted = await check(vector("gak-EC_StrongBox-untrusted-root"));
    expect(untrusted.status === "invalid" && untrusted.detail).toMatch(/issuer name|Google attestation root/);
  });

  it("rejects a leaf alone (the keiji vector) but parses its KeyDescription as upstream asserts", async () => {
    const pem = read("chains/keiji-leaf-only-dev.keiji.deviceintegrity.develop.pem");
    const v = vector("keiji-leaf-only-dev.keiji.deviceintegrity.develop");
    const result = await check(v, { now: new Date("2025-07-07T00:00:00Z") });
    expect(result.status === "invalid" && result.detail).toMatch(/chain of 1/);
    const kd = parseKeyDescription(parseCertificate(pemCertificates(pem)[0]!).extensions.get(KEY_DESCRIPTION_OID)!);
    expect(kd.attestationVersion).toBe(400);
    expect(hex(kd.attestationChallenge)).toBe("ed69eaf7d299a91e61f016f07222f82ad6e8dafc5eeb3ec55acc27cd44f8fc46");
    expect(kd.softwareEnforced.applicationId?.packages).toEqual([{ name: "dev.keiji.deviceintegrity.develop", version: 14 }]);
    expect(kd.softwareEnforced.applicationId?.signatureDigests.map(hex)).toEqual([
      "8483bb6c82661a529afe5cbd270fbcde864c93fda2005dc8321f8e1bb486991f",
    ]);
    expect(kd.hardwareEnforced.rootOfTrust?.deviceLocked).toBe(true);
  });

  it("binds to the expected challenge byte for byte", async () => {
    const v = vector("caiman-sdk36-TEE_EC_RKP");
    const wrong = b64(v.expected.attestationChallengeBase64);
    wrong[0]! ^= 0x20;
    const result = await check(v, { challenge: wrong });
    expect(result.status === "invalid" && result.detail).toMatch(/challenge/);
  });

  it("is unavailable without roots and invalid under roots of another key", async () => {
    const v = vector("akita-sdk34-TEE_EC_NONE");
    expect((await check(v, { trust: { version: "t0", apps: [] } })).status).toBe("unavailable");
    const ecOnly = (JSON.parse(read("roots/roots.json")) as string[])[1]!;
    expect((await check(v, { trust: trust({ googleRootsPem: ecOnly }) })).status).toBe("invalid");
  });
});

describe("Android key attestation: expiry policy, both ways", () => {
  const sony = vector("sony-xperia10-iii-sdk33-TEE_EC");
  it("factory chain with expired intermediates (Sony, 2016 chain at 2026-06-04): google policy accepts, strict refuses", async () => {
    expect((await check(sony)).status).toBe("verified");
    const strict = await createAndroidKeyVerifier({ expiry: "strict" }).verify({
      statement: read(sony.file),
      expectedChallenge: b64(sony.expected.attestationChallengeBase64),
      trust: trust(),
      now: new Date(sony.verifyAt!),
    });
    expect(strict.status === "invalid" && strict.detail).toMatch(/expired/);
  });

  it("remotely provisioned chain (akita, Droid CA3 lived 4 weeks) is refused once expired under either policy", async () => {
    const akita = vector("akita-sdk34-TEE_EC_NONE");
    const late = new Date("2025-01-01T00:00:00Z");
    const result = await check(akita, { now: late });
    expect(result.status === "invalid" && result.detail).toMatch(/expired/);
  });

  it("no certificate above the leaf may be used before it starts", async () => {
    const result = await check(vector("tegu-sdk36-TEE_EC_2026_ROOT"), { now: new Date("2026-01-01T00:00:00Z") });
    expect(result.status === "invalid" && result.detail).toMatch(/not yet valid/);
  });
});

describe("Android key attestation: app identity and revocation", () => {
  const pixel6 = vector("warden-pixel6");
  const digestHex = hex(b64("NLl2LE1skNSEMZQMV73nMUJYsmQg7+Fqx/cnTw0zCtU="));
  const app = (p: Partial<TrustedApp>): TrustedApp => ({
    androidPackageName: "at.asitplus.attestation_client",
    androidSigningCertDigests: [digestHex],
    ...p,
  });

  it("trusts the app only when package and every signing digest match a configured app", async () => {
    const facts = async (apps: TrustedApp[]) => {
      const r = await check(pixel6, { trust: trust({ apps }) });
      if (r.status !== "verified") throw new Error(JSON.stringify(r));
      return r.facts;
    };
    expect((await facts([app({})])).app_trusted).toBe(true);
    expect((await facts([app({ androidSigningCertDigests: [digestHex.toUpperCase()] })])).app_trusted).toBe(true);
    expect((await facts([app({ androidSigningCertDigests: ["00".repeat(32)] })])).app_trusted).toBe(false);
    expect((await facts([app({ androidSigningCertDigests: [] })])).app_trusted).toBe(false);
    expect((await facts([app({ androidPackageName: "at.asitplus.other" })])).app_trusted).toBe(false);
    expect((await facts([app({})])).app_id).toBe("at.asitplus.attestation_client");
  });

  it("keys the status list by lowercase hex serial (Google's sample list and its suspended intermediate)", async () => {
    const sample = JSON.parse(read("revocation/status-sample.json")) as { entries: Record<string, { status: string }> };
    const suspended = parseCertificate(pemCertificates(read("revocation/suspended-intermediate-cc66e9a93713b6e643b26c15879786f7.pem"))[0]!);
    expect(suspended.serialHex).toBe("cc66e9a93713b6e643b26c15879786f7");
    expect(sample.entries[suspended.serialHex]?.status).toBe("SUSPENDED");
  });

  it("reports revoked when any certificate of the chain is listed, false when none is, null without a list", async () => {
    const ders = pemCertificates(read(pixel6.file)).map(parseCertificate);
    const sample = JSON.parse(read("revocation/status-sample.json")) as { entries: Record<string, { status: string }> };
    const listed = { version: "r1", entries: { ...sample.entries, [ders[2]!.serialHex]: { status: "REVOKED", reason: "KEY_COMPROMISE" } } };
    const revoked = await check(pixel6, { trust: trust({ androidRevocations: listed }) });
    expect(revoked.status === "verified" && revoked.facts.revoked).toBe(true);
    const casing = { version: "r2", entries: { [`00${ders[1]!.serialHex.toUpperCase()}`]: { status: "SUSPENDED" } } };
    const cased = await check(pixel6, { trust: trust({ androidRevocations: casing }) });
    expect(cased.status === "verified" && cased.facts.revoked).toBe(true);
    const clean = await check(pixel6, { trust: trust({ androidRevocations: { version: "r0", entries: sample.entries } }) });
    expect(clean.status === "verified" && clean.facts.revoked).toBe(false);
  });
});

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i + needle.length - 1;
  }
  throw new Error("needle not found");
}

function toPem(ders: Uint8Array[]): string {
  return ders.map((d) => `-----BEGIN CERTIFICATE-----\n${Buffer.from(d).toString("base64")}\n-----END CERTIFICATE-----\n`).join("");
}
