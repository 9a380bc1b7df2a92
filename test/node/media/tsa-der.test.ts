/**
 * The RFC 3161 structures written and read by hand (der.ts, #19: asn1js/pkijs cost ~20 ms of CPU per timestamp):
 * the request is the DER pkijs wrote, the strict reader and the asn1js reader agree on every response, and the dev
 * responder's token is what CMS verifiers (pkijs here; c2pa-rs in c2pa-signer.test.ts) expect.
 */
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { beforeAll, describe, expect, it } from "vitest";
import { type DevPki, mintDevPki } from "../../../src/dev/pki";
import { DEV_TSA_POLICY_OID, respondTimestamp } from "../../../src/dev/tsa-responder";
import { childrenOf, contentOf, oid, oidText, readTlv } from "../../../src/media/c2pa/der";
import { buildTimeStampRequest, extractTimeStampToken } from "../../../src/media/c2pa/tsa";
import { OID_SHA256, OID_SHA384 } from "../../../src/media/c2pa/tsa-der";

let pki: DevPki;
beforeAll(async () => {
  pki = await mintDevPki();
});
const creds = () => ({ chainPem: pki.tsaChainPem, keyPkcs8Pem: pki.tsaKeyPkcs8Pem });
const data = new TextEncoder().encode("countersignature data");
const der = (block: { toSchema(): asn1js.BaseBlock }) => new Uint8Array(block.toSchema().toBER(false));

/** The TimeStampReq pkijs writes for an imprint, a nonce and a policy (the encoder the client used before #19). */
function pkijsRequest(imprint: Uint8Array, nonce: Uint8Array, reqPolicy?: string) {
  return der(
    new pkijs.TimeStampReq({
      version: 1,
      messageImprint: new pkijs.MessageImprint({
        hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID_SHA256, algorithmParams: new asn1js.Null() }),
        hashedMessage: new asn1js.OctetString({ valueHex: imprint }),
      }),
      ...(reqPolicy ? { reqPolicy } : {}),
      nonce: new asn1js.Integer({ valueHex: nonce }),
      certReq: true,
    }),
  );
}

/** The same element with an indefinite (BER) length: the strict reader refuses it, asn1js reads it. */
function indefinite(element: Uint8Array): Uint8Array {
  const t = readTlv(element, 0)!;
  const out = new Uint8Array(2 + (t.end - t.start) + 2);
  out.set([element[0]!, 0x80]);
  out.set(element.subarray(t.start, t.end), 2);
  return out; // ends with the end-of-contents octets 00 00
}

describe("DER reader and writer (der.ts)", () => {
  it("writes and reads object identifiers as asn1js does", () => {
    for (const text of [OID_SHA256, DEV_TSA_POLICY_OID, "1.2.840.10045.4.3.2", "2.5.29.37"]) {
      const mine = oid(text);
      expect(mine).toEqual(new Uint8Array(new asn1js.ObjectIdentifier({ value: text }).toBER(false)));
      expect(oidText(contentOf(mine, readTlv(mine, 0)!))).toBe(text);
    }
  });

  it("refuses what is not strict DER: indefinite or non-minimal lengths, elements overrunning their parent", () => {
    expect(readTlv(new Uint8Array([0x30, 0x80, 0x00, 0x00]), 0)).toBeNull();
    expect(readTlv(new Uint8Array([0x04, 0x81, 0x01, 0xaa]), 0)).toBeNull();
    expect(readTlv(new Uint8Array([0x04, 0x82, 0x00, 0x81, ...new Array(0x81).fill(0)]), 0)).toBeNull();
    expect(readTlv(new Uint8Array([0x04, 0x03, 0x01]), 0)).toBeNull();
    const seq = new Uint8Array([0x30, 0x03, 0x02, 0x02, 0x01]);
    expect(childrenOf(seq, readTlv(seq, 0)!)).toBeNull();
  });
});

describe("RFC 3161 client (tsa.ts) on hand-written DER", () => {
  it("the request is byte for byte the DER pkijs wrote", async () => {
    for (let i = 0; i < 20; i++) {
      const request = await buildTimeStampRequest(data);
      expect(request.der).toEqual(pkijsRequest(request.imprint, request.nonce));
    }
  });

  it("the strict reader and the asn1js reader return the same token bytes, and check the same things", async () => {
    const request = await buildTimeStampRequest(data);
    const response = await respondTimestamp(request.der, creds(), new Date());
    const token = extractTimeStampToken(response, request);
    const top = readTlv(response, 0)!;
    const [, tokenTlv] = childrenOf(response, top)!;
    expect(token).toEqual(response.subarray(tokenTlv!.at, tokenTlv!.end));
    // The same response in BER (indefinite outer length) goes through asn1js: the same token, the same checks.
    const ber = indefinite(response);
    expect(readTlv(ber, 0)).toBeNull();
    expect(extractTimeStampToken(ber, request)).toEqual(token);
    const other = await buildTimeStampRequest(data);
    for (const reply of [response, ber]) {
      expect(() => extractTimeStampToken(reply, { ...request, nonce: other.nonce })).toThrow(/nonce does not match/);
      expect(() => extractTimeStampToken(reply, { ...request, imprint: new Uint8Array(32) })).toThrow(/imprint does not match/);
    }
  });

  it("a token whose imprint is not SHA-256 is refused, whichever reader reads it", async () => {
    const request = await buildTimeStampRequest(data);
    const sha384Request = der(
      new pkijs.TimeStampReq({
        version: 1,
        messageImprint: new pkijs.MessageImprint({
          hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID_SHA384 }),
          hashedMessage: new asn1js.OctetString({ valueHex: new Uint8Array(48) }),
        }),
        nonce: new asn1js.Integer({ valueHex: request.nonce }),
        certReq: true,
      }),
    );
    const response = await respondTimestamp(sha384Request, creds(), new Date());
    expect(pkijs.TimeStampResp.fromBER(response).status.status).toBe(0);
    expect(() => extractTimeStampToken(response, request)).toThrow(/unexpected imprint algorithm/);
    expect(() => extractTimeStampToken(indefinite(response), request)).toThrow(/unexpected imprint algorithm/);
  });
});

describe("dev TSA responder (src/dev/tsa-responder.ts) on hand-written DER", () => {
  it("writes the token CMS verifiers expect: DER-ordered signed attributes, a primitive eContent, SHA-2 ids without parameters", async () => {
    const request = await buildTimeStampRequest(data);
    const response = await respondTimestamp(request.der, creds(), new Date("2031-05-06T07:08:09.999Z"));
    const parsed = pkijs.TimeStampResp.fromBER(response);
    expect(parsed.status.status).toBe(0);
    const signed = new pkijs.SignedData({ schema: parsed.timeStampToken!.content });
    expect(signed.version).toBe(3);
    expect(signed.encapContentInfo.eContent!.idBlock.isConstructed).toBe(false);
    expect(signed.digestAlgorithms.map((a) => [a.algorithmId, a.algorithmParams])).toEqual([[OID_SHA256, undefined]]);
    const signer = signed.signerInfos[0]!;
    expect(signer.signatureAlgorithm.algorithmId).toBe("1.2.840.10045.4.3.2");
    const attrs = signer.signedAttrs!.attributes.map((a) => new Uint8Array(a.toSchema().toBER(false)));
    const sorted = [...attrs].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect(attrs).toEqual(sorted);
    const chain = signed.certificates!.map((c) => Buffer.from(new Uint8Array((c as pkijs.Certificate).toSchema().toBER(false))));
    expect(chain).toEqual([...chain].sort(Buffer.compare));
    const tst = pkijs.TSTInfo.fromBER(signed.encapContentInfo.eContent!.valueBlock.valueHexView);
    // asn1js prints arcs beyond 2^53 its own way: compare with its reading of the policy it would have written.
    expect(tst.policy).toBe(asn1js.fromBER(oid(DEV_TSA_POLICY_OID)).result.valueBlock.toString());
    expect(tst.genTime.toISOString()).toBe("2031-05-06T07:08:09.000Z");
    expect(new Uint8Array(tst.nonce!.valueBlock.valueHexView)).toEqual(request.nonce);
    const verified = await signed.verify({ signer: 0, data: data.slice().buffer, checkChain: false, extendedMode: true });
    expect(verified.signatureVerified).toBe(true);
  });

  it("answers what pkijs writes, and BER, as before; refuses other policies and versions with their failInfo", async () => {
    const request = await buildTimeStampRequest(data);
    const status = async (body: Uint8Array) => pkijs.TimeStampResp.fromBER(await respondTimestamp(body, creds(), new Date())).status;
    expect((await status(pkijsRequest(request.imprint, request.nonce, DEV_TSA_POLICY_OID))).status).toBe(0);
    expect((await status(indefinite(request.der))).status).toBe(0);
    const policy = await status(pkijsRequest(request.imprint, request.nonce, "1.2.3.4"));
    expect([policy.status, policy.failInfo?.valueBlock.valueHexView.length]).toEqual([2, 2]);
    const noCerts = pkijs.TimeStampResp.fromBER(
      await respondTimestamp(
        der(
          new pkijs.TimeStampReq({
            version: 1,
            messageImprint: new pkijs.MessageImprint({
              hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID_SHA256 }),
              hashedMessage: new asn1js.OctetString({ valueHex: request.imprint }),
            }),
          }),
        ),
        creds(),
        new Date(),
      ),
    );
    expect(new pkijs.SignedData({ schema: noCerts.timeStampToken!.content }).certificates).toBeUndefined();
    const v2 = pkijsRequest(request.imprint, request.nonce);
    v2[4] = 2; // version INTEGER 1 → 2
    expect((await status(v2)).status).toBe(2);
    const shortImprint = pkijsRequest(request.imprint.subarray(0, 20), request.nonce);
    expect((await status(shortImprint)).status).toBe(2);
  });
});
