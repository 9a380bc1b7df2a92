// A Worker that uses @svc/client (bundled for the browser platform) to prove the core runs in workerd: an upload
// (Web Crypto SHA-256, Blob bodies, a retried PUT), a sign, and a webhook verification, all against the scripted
// Worker bound as SCRIPTED. POST / with { webhook: { body, headers, secret } }; answers what the client saw.
import { createSvcClient, SvcError, verifyWebhook } from "../../../packages/client/src/index";

interface Env {
  SCRIPTED: { fetch(request: Request): Promise<Response> };
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const input = (await request.json()) as { webhook: { body: string; headers: Record<string, string>; secret: string } };
    const client = createSvcClient({
      apiKey: "svc_live_inworker",
      baseUrl: "http://api.test",
      fetch: (r) => env.SCRIPTED.fetch(r),
      retry: { baseDelayMs: 5 },
    });
    const upload = await client.upload(new Uint8Array([1, 2, 3, 4]), { mediaType: "image/jpeg" });
    const sign = await client.sign({ assetId: upload.asset_id, recipeId: "rcp_system_sign_only" });
    const refused = await client.sign({ assetId: upload.asset_id }).catch((e: unknown) => e);
    const event = verifyWebhook(new TextEncoder().encode(input.webhook.body), new Headers(input.webhook.headers), input.webhook.secret);
    return Response.json({
      upload: upload.status,
      sign: sign.status,
      refused: refused instanceof SvcError ? { code: refused.code, status: refused.status } : String(refused),
      event: event.type,
    });
  },
};
