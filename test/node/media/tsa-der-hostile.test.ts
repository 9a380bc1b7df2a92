/**
 * #19 review: hostile TimeStampResp encodings. The strict DER reader (der.ts) must refuse non-DER and ambiguous
 * encodings without throwing, and a response must get the same verdict whether the strict reader or the asn1js
 * reader (its BER twin) reads it: a TSA (or someone on the path) must not get past the strict reader with a token
 * the asn1js/pkijs reading refused.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { type DevPki, mintDevPki } from "../../../src/dev/pki";
import { respondTimestamp } from "../../../src/dev/tsa-responder";
import { childrenOf, encodingOf, octetString, readTlv, sequence, setOf, smallInteger, type Tlv, tlv } from "../../../src/media/c2pa/der";
import { buildTimeStampRequest, extractTimeStampToken, type TimeStampRequest } from "../../../src/media/c2pa/tsa";

let pki: DevPki;
beforeAll(async () => {
  pki = await mintDevPki();
});
const creds = () => ({ chainPem: pki.tsaChainPem, keyPkcs8Pem: pki.tsaKeyPkcs8Pem });
const data = new TextEncoder().encode("countersignature data");

/** The same element with an indefinite (BER) outer length: only the asn1js reader reads it. */
function indefinite(element: Uint8Array): Uint8Array {
  const t = readTlv(element, 0)!;
  const out = new Uint8Array(2 + (t.end - t.start) + 2);
  out.set([element[0]!, 0x80]);
  out.set(element.subarray(t.start, t.end), 2);
  return out;
}

const kids = (b: Uint8Array, t: Tlv) => childrenOf(b, t)!;

/**
 * The response with its SignedData's fields passed through `edit` (re-encoded in DER around them), and its TSTInfo's
 * fields passed through `editTst`.
 */
function rebuilt(
  response: Uint8Array,
  edit: (fields: Uint8Array[]) => Uint8Array[],
  editTst: (fields: Uint8Array[]) => Uint8Array[] = (f) => f,
): Uint8Array {
  const b = response;
  const [statusInfo, contentInfo] = kids(b, readTlv(b, 0)!);
  const [ctype, explicit] = kids(b, contentInfo!);
  const sd = kids(b, kids(b, explicit!)[0]!);
  const fields = sd.map((t) => encodingOf(b, t));
  const [eType, eExplicit] = kids(b, sd[2]!);
  const eOctets = kids(b, eExplicit!)[0]!;
  const tstTop = readTlv(b, eOctets.start, eOctets.end)!;
  const tst = kids(b, tstTop).map((t) => encodingOf(b, t));
  fields[2] = sequence(encodingOf(b, eType!), tlv(0xa0, octetString(sequence(...editTst(tst)))));
  return sequence(encodingOf(b, statusInfo!), sequence(encodingOf(b, ctype!), tlv(0xa0, sequence(...edit(fields)))));
}

/** "ok" or the error text, for the strict (DER) and the asn1js (BER) reading of the same response. */
function verdicts(response: Uint8Array, request: TimeStampRequest): [string, string] {
  const run = (r: Uint8Array) => {
    try {
      extractTimeStampToken(r, request);
      return "ok";
    } catch (error) {
      return error instanceof Error ? "refused" : "threw a non-Error";
    }
  };
  return [run(response), run(indefinite(response))];
}

describe("hostile TimeStampResp encodings (tsa.ts strict reader)", () => {
  it("rebuilding the dev response unchanged gives the same bytes, accepted by both readers", async () => {
    const request = await buildTimeStampRequest(data);
    const response = await respondTimestamp(request.der, creds(), new Date());
    expect(rebuilt(response, (f) => f)).toEqual(response);
    expect(verdicts(response, request)).toEqual(["ok", "ok"]);
  });

  it("a token whose SignerInfos are not SignerInfos is refused as the asn1js reading refuses it", async () => {
    const request = await buildTimeStampRequest(data);
    const response = await respondTimestamp(request.der, creds(), new Date());
    const garbage = rebuilt(response, (f) => [...f.slice(0, -1), setOf(smallInteger(5))]);
    expect(verdicts(garbage, request)).toEqual(["refused", "refused"]);
  });

  it("a token whose digestAlgorithms are not AlgorithmIdentifiers is refused as the asn1js reading refuses it", async () => {
    const request = await buildTimeStampRequest(data);
    const response = await respondTimestamp(request.der, creds(), new Date());
    const garbage = rebuilt(response, (f) => [f[0]!, setOf(smallInteger(5)), ...f.slice(2)]);
    expect(verdicts(garbage, request)).toEqual(["refused", "refused"]);
  });

  it("a TSTInfo whose accuracy is not an Accuracy is refused as the asn1js reading refuses it", async () => {
    const request = await buildTimeStampRequest(data);
    const response = await respondTimestamp(request.der, creds(), new Date());
    const garbage = rebuilt(
      response,
      (f) => f,
      (t) => [...t.slice(0, 5), sequence(octetString(new Uint8Array(1))), ...t.slice(5).filter((e) => e[0] !== 0x30)],
    );
    expect(verdicts(garbage, request)).toEqual(["refused", "refused"]);
  });
});

describe("strict DER reader (der.ts) on hostile lengths and tags", () => {
  const at = (...bytes: number[]) => readTlv(new Uint8Array(bytes), 0);
  it("refuses lengths past the buffer, over four length bytes, non-minimal long forms, high tags, truncated headers", () => {
    expect(at(0x04, 0x84, 0xff, 0xff, 0xff, 0xff, 0x00)).toBeNull(); // 4 GiB declared: past the end, no overflow
    expect(at(0x04, 0x85, 0x01, 0x00, 0x00, 0x00, 0x00)).toBeNull(); // five length bytes
    expect(at(0x04, 0x88, 0, 0, 0, 0, 0, 0, 0, 1, 0xaa)).toBeNull(); // eight length bytes, value 1
    expect(at(0x04, 0x81, 0x7f, ...new Array(0x7f).fill(0))).toBeNull(); // long form of a short length
    expect(at(0x04, 0x82, 0x00, 0xff, ...new Array(0xff).fill(0))).toBeNull(); // leading zero length byte
    expect(at(0x1f, 0x01, 0x00)).toBeNull(); // high tag number form
    expect(at(0x04)).toBeNull();
    expect(at()).toBeNull();
    expect(at(0x04, 0x82, 0x01)).toBeNull(); // length bytes cut off
    expect(at(0x04, 0x81, 0x80, ...new Array(0x80).fill(0))).toEqual({ tag: 0x04, at: 0, start: 3, end: 0x83 });
  });

  it("a child may not run past its parent even when the buffer goes on", () => {
    const b = new Uint8Array([0x30, 0x02, 0x04, 0x02, 0xaa, 0xbb]);
    expect(childrenOf(b, readTlv(b, 0)!)).toBeNull();
  });
});

describe("DER writer (der.ts tlv) on large values", () => {
  it("writes a definite length that reads back, at every length-byte boundary up to 2^24 and past it", () => {
    for (const n of [0x7f, 0x80, 0xff, 0x100, 0xffff, 0x10000, 0xffffff, 0x1000000]) {
      const element = tlv(0x04, new Uint8Array(n));
      expect(readTlv(element, 0), `length ${n}`).toEqual({ tag: 0x04, at: 0, start: element.length - n, end: element.length });
    }
  });
});
