import type * as asn1js from "asn1js";
import { describe, expect, it } from "vitest";
import { createAndroidKeyVerifier } from "../../../src/media/attestation/android-key";
import type { AttestationResult, AttestationTrust } from "../../../src/media/attestation/types";
import { hex } from "../../../src/platform/bytes";
import {
  applicationIdEntry,
  CN,
  dn,
  int,
  KEY_DESCRIPTION_OID,
  keyDescription,
  mintCert,
  mintParty,
  O,
  type Party,
  rootOfTrustEntry,
  tagged,
  toPem,
} from "../../support/android-key-mint";

// A test CA stands in for Google's root key (configured as trust.googleRootsPem) and signs chains built here; the
// verifier checks them through its ordinary path. "Now" is fixed; the CA certificates live 2026-2030.
const NOW = new Date("2027-03-01T12:00:00Z");
const DAY = 86_400_000;
const CHALLENGE = new Uint8Array(32).map((_, i) => i * 7);
const SIGNER = new Uint8Array(32).fill(0xab);

const root = await mintParty();
const ROOT_NAME = dn([[CN, "Test Attestation Root"]]);
const rootDer = await mintCert({
  subject: ROOT_NAME,
  issuer: ROOT_NAME,
  subjectSpki: root.spki,
  issuerKey: root.keys.privateKey,
  notBefore: new Date("2026-01-01T00:00:00Z"),
  notAfter: new Date("2030-01-01T00:00:00Z"),
});
const trust: AttestationTrust = {
  version: "test",
  apps: [{ androidPackageName: "org.example.camera", androidSigningCertDigests: [hex(SIGNER)] }],
  googleRootsPem: toPem([rootDer]),
};

interface Options {
  intermediateName?: Uint8Array;
  intermediateValidity?: [Date, Date];
  leafIssuerName?: Uint8Array;
  intermediateExtensions?: { oid: string; value: Uint8Array }[];
  hardwareEnforced?: asn1js.BaseBlock[];
  softwareEnforced?: asn1js.BaseBlock[];
  attestationSecurityLevel?: number;
  withoutRoot?: boolean;
}

const FACTORY_NAME = dn([[CN, "Test TEE attestation key"]]);

async function chain(o: Options = {}): Promise<{ pem: string; leafParty: Party; leafDer: Uint8Array }> {
  const intermediate = await mintParty();
  const leafParty = await mintParty();
  const interName = o.intermediateName ?? FACTORY_NAME;
  const [nb, na] = o.intermediateValidity ?? [new Date("2026-01-01T00:00:00Z"), new Date("2029-01-01T00:00:00Z")];
  const interDer = await mintCert({
    subject: interName,
    issuer: ROOT_NAME,
    subjectSpki: intermediate.spki,
    issuerKey: root.keys.privateKey,
    notBefore: nb,
    notAfter: na,
    extensions: o.intermediateExtensions,
  });
  const kd = keyDescription({
    challenge: CHALLENGE,
    attestationSecurityLevel: o.attestationSecurityLevel,
    softwareEnforced: o.softwareEnforced ?? [applicationIdEntry([["org.example.camera", 42]], [SIGNER])],
    hardwareEnforced: o.hardwareEnforced ?? [rootOfTrustEntry(0, true), tagged(705, int(150000)), tagged(706, int(202701))],
  });
  // Leaf dates as devices write them (here inverted, like emulators): never checked.
  const leafDer = await mintCert({
    subject: dn([[CN, "Android Keystore Key"]]),
    issuer: o.leafIssuerName ?? interName,
    subjectSpki: leafParty.spki,
    issuerKey: intermediate.keys.privateKey,
    notBefore: new Date("2048-01-01T00:00:00Z"),
    notAfter: new Date("1970-01-01T00:00:00Z"),
    extensions: [{ oid: KEY_DESCRIPTION_OID, value: kd }],
  });
  const ders = o.withoutRoot ? [leafDer, interDer] : [leafDer, interDer, rootDer];
  return { pem: toPem(ders), leafParty, leafDer };
}

const verify = (statement: string, options: Parameters<typeof createAndroidKeyVerifier>[0] = {}, now = NOW): Promise<AttestationResult> =>
  createAndroidKeyVerifier(options).verify({ statement, expectedChallenge: CHALLENGE, trust, now });

function detail(r: AttestationResult): string {
  return r.status === "verified" ? "verified" : `${r.status}: ${r.detail}`;
}

describe("Android key attestation: minted chains (test CA as the configured root)", () => {
  it("verifies a well-formed chain and reports what it attests", async () => {
    const r = await verify((await chain()).pem);
    expect(r.status, detail(r)).toBe("verified");
    if (r.status !== "verified") return;
    expect(r.facts).toMatchObject({
      app_id: "org.example.camera",
      app_trusted: true,
      app_version: 42,
      security_level: "tee",
      boot: { state: "verified", device_locked: true },
      os_version: 150000,
      os_patch_level: 202701,
      revoked: null,
    });
  });

  it("verifies a chain that omits the root certificate (anchored by the key that signed the last certificate)", async () => {
    expect(detail(await verify((await chain({ withoutRoot: true })).pem))).toBe("verified");
  });

  it("skips unknown and out-of-order tags but refuses a known tag twice", async () => {
    const unknown = [tagged(9999, int(1)), tagged(706, int(202701)), rootOfTrustEntry(0, true), tagged(11, int(3))];
    expect(detail(await verify((await chain({ hardwareEnforced: unknown })).pem))).toBe("verified");
    const twice = [rootOfTrustEntry(0, true), rootOfTrustEntry(2, false)];
    expect(detail(await verify((await chain({ hardwareEnforced: twice })).pem))).toMatch(/invalid: .*tag 704 repeated/);
  });

  it("treats an absent RootOfTrust as unverified and unlocked; a hardware key ignores one in softwareEnforced", async () => {
    const none = await verify((await chain({ hardwareEnforced: [] })).pem);
    expect(none.status === "verified" && none.facts.boot).toEqual({ state: "unverified", device_locked: false });
    // softwareEnforced is the OS's word: it cannot claim a verified, locked boot for a TEE key.
    const sw = await verify((await chain({ hardwareEnforced: [], softwareEnforced: [rootOfTrustEntry(0, true)] })).pem);
    expect(sw.status === "verified" && sw.facts.boot).toEqual({ state: "unverified", device_locked: false });
  });

  it("refuses unknown enumerations (security level, boot state)", async () => {
    expect(detail(await verify((await chain({ attestationSecurityLevel: 7 })).pem))).toMatch(/invalid: .*security level/);
    expect(detail(await verify((await chain({ hardwareEnforced: [rootOfTrustEntry(9, true)] })).pem))).toMatch(
      /invalid: .*verifiedBootState/,
    );
  });

  it("reports software security level when a hardware-rooted chain says the key is in software", async () => {
    const r = await verify((await chain({ attestationSecurityLevel: 0 })).pem);
    expect(r.status === "verified" && r.facts.security_level).toBe("software");
  });

  it("refuses a leaf whose issuer name is not the next certificate's subject", async () => {
    const r = await verify((await chain({ leafIssuerName: dn([[CN, "Someone else"]]) })).pem);
    expect(detail(r)).toMatch(/invalid: certificate 0: issuer name/);
  });

  it("refuses a chain signed by another CA of the same name", async () => {
    const impostor = await mintParty();
    const forged = await mintCert({
      subject: ROOT_NAME,
      issuer: ROOT_NAME,
      subjectSpki: impostor.spki,
      issuerKey: impostor.keys.privateKey,
      notBefore: new Date("2026-01-01T00:00:00Z"),
      notAfter: new Date("2030-01-01T00:00:00Z"),
    });
    const { pem } = await chain();
    const swapped = pem.slice(0, pem.lastIndexOf("-----BEGIN CERTIFICATE-----")) + toPem([forged]);
    expect(detail(await verify(swapped))).toMatch(/invalid: .*(signature|root key)/);
  });

  it("refuses a KeyDescription above the leaf (an attested key minting its own leaf)", async () => {
    const { leafParty, leafDer } = await chain();
    const forgedKd = keyDescription({ challenge: CHALLENGE, hardwareEnforced: [rootOfTrustEntry(0, true)] });
    const attacker = await mintParty();
    const forgedLeaf = await mintCert({
      subject: dn([[CN, "Forged"]]),
      issuer: dn([[CN, "Android Keystore Key"]]),
      subjectSpki: attacker.spki,
      issuerKey: leafParty.keys.privateKey,
      notBefore: new Date("2026-01-01T00:00:00Z"),
      notAfter: new Date("2030-01-01T00:00:00Z"),
      extensions: [{ oid: KEY_DESCRIPTION_OID, value: forgedKd }],
    });
    const { pem } = await chain();
    const original = pem.split(/(?=-----BEGIN CERTIFICATE-----)/);
    const statement = toPem([forgedLeaf, leafDer]) + original.slice(1).join("");
    expect(detail(await verify(statement))).toMatch(/invalid: a certificate above the leaf/);
  });

  it("refuses a leaf without the extension, a wrong challenge, text outside PEM blocks and garbage", async () => {
    const { pem } = await chain();
    const r = await createAndroidKeyVerifier().verify({ statement: pem, expectedChallenge: new Uint8Array(32), trust, now: NOW });
    expect(detail(r)).toMatch(/invalid: attestation challenge/);
    expect(detail(await verify(`${pem}\nhello`))).toMatch(/invalid: PEM/);
    expect(detail(await verify("not a chain"))).toMatch(/invalid/);
    expect(detail(await verify("-----BEGIN CERTIFICATE-----\nMAA=\n-----END CERTIFICATE-----\n".repeat(2)))).toMatch(/invalid/);
    const inter = await mintParty();
    const bare = await mintCert({
      subject: dn([[CN, "Android Keystore Key"]]),
      issuer: ROOT_NAME,
      subjectSpki: inter.spki,
      issuerKey: root.keys.privateKey,
      notBefore: new Date("2026-01-01T00:00:00Z"),
      notAfter: new Date("2030-01-01T00:00:00Z"),
    });
    expect(detail(await verify(toPem([bare, rootDer])))).toMatch(/invalid: leaf has no key attestation extension/);
  });

  it("applies the expiry policy: factory intermediates may be expired under google, never under strict; remote ones never", async () => {
    const expired: [Date, Date] = [new Date("2026-01-01T00:00:00Z"), new Date(NOW.getTime() - DAY)];
    const factory = (await chain({ intermediateValidity: expired })).pem;
    expect(detail(await verify(factory))).toBe("verified");
    expect(detail(await verify(factory, { expiry: "strict" }))).toMatch(/invalid: certificate 1: expired/);
    const remote = (
      await chain({
        intermediateValidity: expired,
        intermediateName: dn([
          [O, "Google LLC"],
          [CN, "Droid CA3"],
        ]),
      })
    ).pem;
    expect(detail(await verify(remote))).toMatch(/invalid: certificate 1: expired/);
    const future: [Date, Date] = [new Date(NOW.getTime() + DAY), new Date("2029-01-01T00:00:00Z")];
    expect(detail(await verify((await chain({ intermediateValidity: future })).pem))).toMatch(/invalid: certificate 1: not yet valid/);
    // The anchor certificate's own dates do not matter: the key is what is trusted.
    expect(detail(await verify(factory, {}, new Date("2031-06-01T00:00:00Z")))).toBe("verified");
  });

  it("refuses a certificate whose outer signature algorithm differs from the signed one", async () => {
    const { pem } = await chain();
    const ders = pem
      .split(/(?=-----BEGIN CERTIFICATE-----)/)
      .map((b) => new Uint8Array(Buffer.from(b.replace(/-----[A-Z ]+-----|\s/g, ""), "base64")));
    const leaf = ders[0]!;
    const ecdsaSha256 = Buffer.from("06082a8648ce3d040302", "hex");
    const at = Buffer.from(leaf).lastIndexOf(ecdsaSha256);
    leaf[at + ecdsaSha256.length - 1] = 0x03; // outer algorithm → ecdsa-with-SHA384
    expect(detail(await verify(toPem(ders)))).toMatch(/invalid: certificate: signature algorithm differs/);
  });

  it("never throws and never verifies when the configured roots are unreadable", async () => {
    const { pem } = await chain();
    const r = await createAndroidKeyVerifier().verify({
      statement: pem,
      expectedChallenge: CHALLENGE,
      trust: { ...trust, googleRootsPem: "junk" },
      now: NOW,
    });
    expect(r.status).toBe("unavailable");
    expect(detail(await verify(pem, {}, new Date(Number.NaN)))).toMatch(/invalid: no valid verification time/);
  });
});
