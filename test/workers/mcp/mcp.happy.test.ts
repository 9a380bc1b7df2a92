import { describe, expect, it } from "vitest";
import { MCP_TOOLS } from "../../../src/mcp/service";
import { api, createTenant, fixture, json, uploadAsset, waitForJob } from "../support/helpers";
import { signedCopy } from "../support/verify-helpers";
import { base64Of, callTool, connectClient, structured } from "./mcp-client";

describe("MCP server (POST /mcp, #21)", () => {
  it("the SDK's client lists the tools, with input schemas and annotations that mark the write", async () => {
    const { key } = await createTenant();
    const client = await connectClient({ Authorization: `Bearer ${key}` });
    expect(client.getServerVersion()).toMatchObject({ name: "svc" });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "get_capabilities",
      "verify_media",
      "get_verification",
      "list_recipes",
      "upload_file",
      "sign_asset",
      "get_job",
      "list_assets",
    ]);
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.sign_asset!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(byName.get_job!.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.verify_media!.inputSchema.properties).toHaveProperty("file_base64");
    expect(byName.sign_asset!.inputSchema.required).toEqual(["asset_id"]);
    for (const tool of MCP_TOOLS) expect(byName[tool.name]!.description).toContain(tool.scope);
    await client.ping();
    await client.close();
  });

  it("verify_media on a JPEG signed here: the verification status, stored and readable with get_verification", async () => {
    const { key } = await createTenant();
    const { bytes, assetId, job } = await signedCopy(key, fixture("sample.jpg"), "image/jpeg");
    const client = await connectClient({ Authorization: `Bearer ${key}` });

    const byBytes = await callTool(client, "verify_media", { file_base64: base64Of(bytes), file_name: "signed.jpg" });
    expect(byBytes.isError, JSON.stringify(byBytes)).toBeFalsy();
    const result = structured(byBytes);
    expect(result).toMatchObject({
      status: "verified_manifest",
      media_type: "image/jpeg",
      signals: { c2pa_manifest_present: true, c2pa_signature_valid: true },
    });
    expect(result.verification_id).toMatch(/^vfy_/);
    const text = (byBytes.content[0] as { text: string }).text;
    expect(text.split("\n")[0]).toMatch(/^status verified_manifest \(confidence 0\.\d+\): /);

    const stored = await callTool(client, "get_verification", { verification_id: result.verification_id });
    expect(structured(stored)).toMatchObject({
      verification_id: result.verification_id,
      state: "completed",
      result: { status: "verified_manifest" },
    });

    // The same file by its asset id, and the job that published it.
    const byAsset = await callTool(client, "verify_media", { asset_id: assetId });
    expect(structured(byAsset)).toMatchObject({ status: "verified_manifest" });
    expect(structured(await callTool(client, "get_job", { job_id: job.job_id }))).toMatchObject({ job_id: job.job_id, state: "completed" });
    const page = structured(await callTool(client, "list_assets", { limit: 5 }));
    expect(page.items.map((a: { asset_id: string }) => a.asset_id)).toContain(assetId);
    await client.close();
  });

  it("an unsigned file is verified too (no manifest), and an uploaded object asynchronously", async () => {
    const { key } = await createTenant();
    const client = await connectClient({ Authorization: `Bearer ${key}` });
    const plain = structured(await callTool(client, "verify_media", { file_base64: base64Of(fixture("sample.jpg")) }));
    expect(plain.status).toBe("no_provenance_found");
    const { objectId } = await uploadAsset(key, fixture("sample.jpg"), "image/jpeg");
    const queued = await callTool(client, "verify_media", { object_id: objectId });
    expect(structured(queued)).toMatchObject({ state: "queued", object_id: objectId });
    expect((queued.content[0] as { text: string }).text).toMatch(/read it with get_verification/);
    await client.close();
  });

  it("upload_file then sign_asset start a job (the REST operations' answers), readable with get_job; capabilities and recipes read", async () => {
    const { key } = await createTenant();
    const client = await connectClient({ Authorization: `Bearer ${key}` });
    const uploaded = await callTool(client, "upload_file", {
      file_base64: base64Of(fixture("sample.jpg")),
      media_type: "image/jpeg",
      file_name: "a.jpg",
    });
    expect(uploaded.isError, JSON.stringify(uploaded)).toBeFalsy();
    const assetId = structured(uploaded).asset_id as string;
    expect(assetId).toMatch(/^ast_/);
    expect(structured(uploaded).asset_object_id).toMatch(/^aob_/);
    const caps = structured(await callTool(client, "get_capabilities"));
    expect(caps.schema_version).toBe("svc.capability-discovery.v1");
    const recipes = structured(await callTool(client, "list_recipes"));
    expect(JSON.stringify(recipes)).toContain("rcp_system_sign_only");

    const idem = crypto.randomUUID();
    const started = await callTool(client, "sign_asset", { asset_id: assetId, recipe_id: "rcp_system_sign_only", idempotency_key: idem });
    expect(started.isError, JSON.stringify(started)).toBeFalsy();
    const jobId = structured(started).job_id as string;
    expect(jobId).toMatch(/^job_/);
    // A retry with the same idempotency key is the same job, not a second one.
    const again = await callTool(client, "sign_asset", { asset_id: assetId, recipe_id: "rcp_system_sign_only", idempotency_key: idem });
    expect(structured(again).job_id).toBe(jobId);
    const done = await waitForJob(key, jobId, 60_000);
    expect(done.state).toBe("completed");
    expect(structured(await callTool(client, "get_job", { job_id: jobId }))).toMatchObject({ state: "completed" });
    // The REST API sees the same job; the signed asset verifies through MCP.
    expect((await json(await api(`/v1/jobs/${jobId}`, { key }))).job_id).toBe(jobId);
    expect(structured(await callTool(client, "verify_media", { asset_id: assetId }))).toMatchObject({ status: "verified_manifest" });
    // A lying media type is the REST refusal (the bytes are a JPEG), as a tool error.
    const lie = await callTool(client, "upload_file", { file_base64: base64Of(fixture("sample.jpg")), media_type: "image/png" });
    expect(lie.isError).toBe(true);
    expect(structured(lie).http_status).toBeGreaterThanOrEqual(400);
    await client.close();
  });
});
