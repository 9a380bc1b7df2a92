/*
 * The rate rule of the webhook endpoint gate, pure (no Durable Object), so it can be reasoned about and tested.
 *
 * A customer measures `rate_limit_per_minute` where the requests arrive: at the receiver. The gate decides when
 * leases are granted, and a request reaches the receiver some time after its grant (the claim, the destination
 * check, signing, the connection). Grants 60 s apart can therefore arrive less than 60 s apart: with a 60-second
 * window, a window's first grants sent late and the next window's first grants sent promptly put more than the
 * limit into one minute at the receiver. So the gate counts grants over 60 s plus SEND_MARGIN_MS, and the sender
 * keeps its side of the bargain: it starts the request within SEND_WITHIN_MS of the grant, or asks the gate for
 * a fresh grant first (WebhookEndpointGate.regrant). With every request reaching the receiver within
 * TRANSIT_ALLOWANCE_MS of being sent, any 60 seconds at the receiver see at most `rate_limit_per_minute`
 * requests: arrivals in [t, t + 60 s) were granted in (t − SEND_MARGIN_MS, t + 60 s), one gate window.
 * The cost: a saturated endpoint receives at most rate × 60 / 65 per minute (about 8% below the limit).
 */

/** The customer's unit: requests per 60 seconds. */
export const RATE_WINDOW_MS = 60_000;
/** A grant must be used (the request started) within this; later, the sender asks for a fresh grant. */
export const SEND_WITHIN_MS = 3_000;
/** What the promise allows a request from being sent to reaching the receiver (connection and transit). */
export const TRANSIT_ALLOWANCE_MS = 2_000;
/** The largest delay from grant to arrival the promise covers. */
export const SEND_MARGIN_MS = SEND_WITHIN_MS + TRANSIT_ALLOWANCE_MS;
/** The window the gate counts grants over. */
export const GATE_WINDOW_MS = RATE_WINDOW_MS + SEND_MARGIN_MS;

export type RateRoom = { room: true } | { room: false; retryAfterMs: number };

/**
 * Whether one more grant fits at `now`, given the grant times `grants` (ascending; entries that left the window
 * are removed from the array). Refused: when the grant that frees a place leaves the window.
 */
export function rateRoom(grants: number[], now: number, ratePerMinute: number): RateRoom {
  while (grants.length > 0 && grants[0]! <= now - GATE_WINDOW_MS) grants.shift();
  if (grants.length < ratePerMinute) return { room: true };
  // The grant that frees a place is the one `ratePerMinute` back (the limit may have been lowered since).
  const freeing = grants[grants.length - ratePerMinute]!;
  return { room: false, retryAfterMs: Math.max(1, freeing + GATE_WINDOW_MS - now) };
}
