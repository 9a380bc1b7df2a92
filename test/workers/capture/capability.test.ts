import { createExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../../src/index";
import { api, createTenant, json, testEnv } from "../support/helpers";

let key: string;
beforeAll(async () => {
  ({ key } = await createTenant());
});

const capabilitiesWith = async (env: Record<string, unknown>) =>
  (
    await json(
      await worker.fetch(
        new Request("http://svc.test/v1/capabilities", { headers: { authorization: `Bearer ${key}` } }),
        { ...testEnv, ...env } as never,
        createExecutionContext(),
      ),
    )
  ).capture;

describe("capability discovery states capture honestly (#16)", () => {
  it("the test trust snapshot offers all three attestation kinds", async () => {
    expect((await json(await api("/v1/capabilities", { key }))).capture).toEqual({
      available: true,
      attestation_kinds: ["app_attest", "play_integrity", "hardware_key_attestation"],
      reason: null,
    });
  });

  it("no snapshot, a malformed one, or one trusting no app: unavailable with the reason", async () => {
    expect(await capabilitiesWith({ SVC_CAPTURE_TRUST: undefined })).toEqual({
      available: false,
      attestation_kinds: [],
      reason: "not_configured",
    });
    expect(await capabilitiesWith({ SVC_CAPTURE_TRUST: "{not json" })).toEqual({
      available: false,
      attestation_kinds: [],
      reason: "configuration_invalid",
    });
    expect(await capabilitiesWith({ SVC_CAPTURE_TRUST: JSON.stringify({ version: "v", apps: [] }) })).toEqual({
      available: false,
      attestation_kinds: [],
      reason: "no_trusted_apps",
    });
  });

  it("Android key attestation is offered only with a revocation list", async () => {
    const trust = JSON.parse(testEnv.SVC_CAPTURE_TRUST!);
    delete trust.androidRevocations;
    expect((await capabilitiesWith({ SVC_CAPTURE_TRUST: JSON.stringify(trust) })).attestation_kinds).toEqual([
      "app_attest",
      "play_integrity",
    ]);
  });
});
