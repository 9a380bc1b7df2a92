/*
 * The capture tests' own trust (test-only key material, generated once): a test CA standing in for Apple's App
 * Attestation root (with the intermediate's private key so tests can mint attestations), a test CA standing in for
 * Google's hardware attestation root, and one app's Play Integrity keys. vitest.config.ts installs
 * `captureTestTrustJson()` as the SVC_CAPTURE_TRUST binding, so the service verifies through its ordinary path.
 * Certificates are valid 2016-11-27 .. 2036-11-22.
 */

export const TEST_APPLE_APP_ID = "TEAM123456.com.example.capture";
export const TEST_ANDROID_PACKAGE = "com.example.capture";
/** SHA-256 of the test app signing certificate (lowercase hex). */
export const TEST_ANDROID_SIGNING_DIGEST = "a1".repeat(32);
export const TEST_TRUST_VERSION = "test-trust-2026-11-25";

export const CAPTURE_TEST_MATERIAL = {
  appleRootPem:
    "-----BEGIN CERTIFICATE-----\nMIIBkDCCARagAwIBAgIEBAyz0DAKBggqhkjOPQQDAzAnMSUwIwYDVQQDDBxUZXN0\nIEFwcCBBdHRlc3RhdGlvbiBSb290IENBMB4XDTE2MTEyNzAwMDAwMFoXDTM2MTEy\nMjAwMDAwMFowJzElMCMGA1UEAwwcVGVzdCBBcHAgQXR0ZXN0YXRpb24gUm9vdCBD\nQTB2MBAGByqGSM49AgEGBSuBBAAiA2IABAKrsxpvze/r3ryGTUI9rqC4HY09TA0g\n//rrL+MeMhQaB/aZDyNaDHWptWIufn3RX5iKI7Z0+A2zDRkuxndwK6U/26SxWWkA\nJwR8zHU6yIQqGIt/nw29Ui/vZh3jj44rmaMTMBEwDwYDVR0TAQH/BAUwAwEB/zAK\nBggqhkjOPQQDAwNoADBlAjEAucA4nYcOW8mVcF4xnFiyemLYrzw+gDCrq1u3swtq\nAuzpfMjFLwKcz5C3RLzyED2jAjAiWf+vRsIh2FNHDbF0T8312+/YJIC12GIzIXej\nQiIEkNkoTsrS/dOKDRyoOHhVwy8=\n-----END CERTIFICATE-----\n",
  appleIntermediatePem:
    "-----BEGIN CERTIFICATE-----\nMIIBjDCCAROgAwIBAgIEA2EcyjAKBggqhkjOPQQDAzAnMSUwIwYDVQQDDBxUZXN0\nIEFwcCBBdHRlc3RhdGlvbiBSb290IENBMB4XDTE2MTEyNzAwMDAwMFoXDTM2MTEy\nMjAwMDAwMFowJDEiMCAGA1UEAwwZVGVzdCBBcHAgQXR0ZXN0YXRpb24gQ0EgMTB2\nMBAGByqGSM49AgEGBSuBBAAiA2IABKsgXO3fwQiEVoYhZIkwUjef1LZQs/0WuzKO\nOiG2q5SolEFkH6PajFIS3TZmMOGtaJzUfS//J5IWZT+hU0jOIV8SGUeIikrRt/Qp\nLOBmGKAFSixD+yovSopcUQMOSRm3DKMTMBEwDwYDVR0TAQH/BAUwAwEB/zAKBggq\nhkjOPQQDAwNnADBkAjAxUkcdJCT1cxLvOEYE7QrT+YHZwjY0lLnOxv4MIfDmBsIN\ngdqxlGZ2GkKFEF1CX7ACMFLXwtIW58qyxtjODhQqvIEN0EzCOVyyaFQ8yJhalsco\n+ozjm0mBAfiO5fRvOL6lSg==\n-----END CERTIFICATE-----\n",
  appleIntermediateName: "Test App Attestation CA 1",
  appleIntermediateKeyPkcs8:
    "MIG2AgEAMBAGByqGSM49AgEGBSuBBAAiBIGeMIGbAgEBBDD1KiY6KagLhkdVbfR7gH6lo9Sikua927ny1rpIYGTYL/0xhEeax3RK0ksjwvjb1yChZANiAASrIFzt38EIhFaGIWSJMFI3n9S2ULP9FrsyjjohtquUqJRBZB+j2oxSEt02ZjDhrWic1H0v/yeSFmU/oVNIziFfEhlHiIpK0bf0KSzgZhigBUosQ/sqL0qKXFEDDkkZtww=",
  googleRootPem:
    "-----BEGIN CERTIFICATE-----\nMIIBcDCCARagAwIBAgICEAEwCgYIKoZIzj0EAwIwPzEUMBIGA1UECgwLVGVzdCBH\nb29nbGUxJzAlBgNVBAMMHlRlc3QgSGFyZHdhcmUgQXR0ZXN0YXRpb24gUm9vdDAi\nGA8yMDE2MTEyNzAwMDAwMFoYDzIwMzYxMTIyMDAwMDAwWjA/MRQwEgYDVQQKDAtU\nZXN0IEdvb2dsZTEnMCUGA1UEAwweVGVzdCBIYXJkd2FyZSBBdHRlc3RhdGlvbiBS\nb290MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEAskvePo1qZAphiIOURkOiJTM\nH29xYyr2nOe796VmDFE2MtfrZBwTLOvHGJ1pyQ7bh69dlj9tODEV5vOFxmx3HzAK\nBggqhkjOPQQDAgNIADBFAiBLQ+xq4jXvrIuHRs8TAFwfEyPNUJ/7exL/KOSSbDNw\nPgIhAJbBpyWpLT6DPTR50ZvhAeoHroCbxXU/ppodcYhJKFSi\n-----END CERTIFICATE-----\n",
  googleRootKeyPkcs8:
    "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg114xSk8WvEl/24pF2X5zCDpWN79Dsr4aPrjoXn/YU0qhRANCAAQCyS94+jWpkCmGIg5RGQ6IlMwfb3FjKvac57v3pWYMUTYy1+tkHBMs68cYnWnJDtuHr12WP204MRXm84XGbHcf",
  playDecryptionKeyBase64: "spAOCK0M51p6I9jqOek/7jlxnZadhJ2uUjCrIiE1WZw=",
  playVerificationKeyPem:
    "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEwuTJD03H1+lKUWtZPBIU+mro0GGu\n0NlcniKE9nKeBariGYG9l2ouF2eKkEroxFw/1HQBY8qcHrD0DMz0csa6+w==\n-----END PUBLIC KEY-----",
  playSigningKeyPkcs8:
    "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQglTxl5xLqGx76W5hBwUM+hQktVMPuXE+5gBs358wfyrGhRANCAATC5MkPTcfX6UpRa1k8EhT6aujQYa7Q2VyeIoT2cp4FquIZgb2Xai4XZ4qQSujEXD/UdAFjypwesPQMzPRyxrr7",
} as const;

/** The AttestationTrust JSON the workerd tests run under (SVC_CAPTURE_TRUST). */
export function captureTestTrustJson(): string {
  return JSON.stringify({
    version: TEST_TRUST_VERSION,
    apps: [
      {
        appleAppId: TEST_APPLE_APP_ID,
        appleAllowDevelopment: true,
        androidPackageName: TEST_ANDROID_PACKAGE,
        androidSigningCertDigests: [TEST_ANDROID_SIGNING_DIGEST],
        playIntegrityDecryptionKey: CAPTURE_TEST_MATERIAL.playDecryptionKeyBase64,
        playIntegrityVerificationKeyPem: CAPTURE_TEST_MATERIAL.playVerificationKeyPem,
      },
    ],
    appleRootsPem: CAPTURE_TEST_MATERIAL.appleRootPem,
    googleRootsPem: CAPTURE_TEST_MATERIAL.googleRootPem,
    androidRevocations: { version: "test-revocations-1", entries: {} },
  });
}
