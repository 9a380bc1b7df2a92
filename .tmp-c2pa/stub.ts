export default { fetch: () => new Response("stub") };
