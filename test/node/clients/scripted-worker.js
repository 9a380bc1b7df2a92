// A Worker that answers from a script the test sets: POST /__script with a JSON array of answers ({ status,
// headers, body }, or `raw` for a body sent as is); every other request takes the next answer (or 404 when none is
// left) and is recorded (method, path, headers, arrival time); GET /__log returns the record. State lives in
// module scope: Miniflare runs one isolate.
let script = [];
let log = [];

export default {
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === "/__script") {
      script = await request.json();
      log = [];
      return new Response("ok");
    }
    if (url.pathname === "/__log") return Response.json(log);
    const headers = {};
    for (const [k, v] of request.headers) headers[k] = v;
    const body = request.body ? await request.text() : "";
    log.push({ method: request.method, host: url.host, path: url.pathname, headers, body, at: Date.now() });
    const next = script.shift();
    if (!next)
      return Response.json(
        { code: "svc.route.not_found", message: "script exhausted", request_id: "req_none", retryable: false },
        { status: 404 },
      );
    return new Response(next.raw ?? (next.body === undefined ? null : JSON.stringify(next.body)), {
      status: next.status,
      headers: { "content-type": "application/json", ...(next.headers ?? {}) },
    });
  },
};
