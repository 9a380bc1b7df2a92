/**
 * Mints App Attest evidence for tests: a test root and intermediate standing in for Apple's (configured as the trust
 * root, so the verifier runs its one code path), a P-256 leaf carrying the nonce extension, authData and the
 * attestation object, and assertions signed by the attested key. Every knob breaks one rule on purpose.
 */
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { base64, concatBytes, utf8 } from "../../src/platform/bytes";
import { encodeCbor } from "../../src/platform/cbor-encode";

const DAY = 86_400_000;

export interface TestCa {
  name: string;
  keys: CryptoKeyPair;
  der: Uint8Array;
  pem: string;
}

async function ecKeys(namedCurve: "P-256" | "P-384"): Promise<CryptoKeyPair> {
  return (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve }, true, ["sign", "verify"])) as CryptoKeyPair;
}

function dn(cn: string): pkijs.RelativeDistinguishedNames {
  return new pkijs.RelativeDistinguishedNames({
    typesAndValues: [new pkijs.AttributeTypeAndValue({ type: "2.5.4.3", value: new asn1js.Utf8String({ value: cn }) })],
  });
}

function pem(der: Uint8Array): string {
  return `-----BEGIN CERTIFICATE-----\n${base64(der).replace(/(.{64})/g, "$1\n")}\n-----END CERTIFICATE-----\n`;
}

async function issue(args: {
  subject: string;
  subjectKey: CryptoKey;
  issuer: string;
  issuerKey: CryptoKey;
  notBefore: Date;
  notAfter: Date;
  ca: boolean;
  extensions?: pkijs.Extension[];
}): Promise<Uint8Array> {
  const cert = new pkijs.Certificate();
  cert.version = 2;
  cert.serialNumber = new asn1js.Integer({ value: Math.floor(Math.random() * 1e9) + 1 });
  cert.issuer = dn(args.issuer);
  cert.subject = dn(args.subject);
  cert.notBefore = new pkijs.Time({ type: pkijs.TimeType.UTCTime, value: args.notBefore });
  cert.notAfter = new pkijs.Time({ type: pkijs.TimeType.UTCTime, value: args.notAfter });
  await cert.subjectPublicKeyInfo.importKey(args.subjectKey);
  const extensions = [...(args.extensions ?? [])];
  if (args.ca) {
    const bc = new asn1js.Sequence({ value: [new asn1js.Boolean({ value: true })] });
    extensions.push(new pkijs.Extension({ extnID: "2.5.29.19", critical: true, extnValue: bc.toBER(false) }));
  }
  if (extensions.length > 0) cert.extensions = extensions;
  const hash = (args.issuerKey.algorithm as { namedCurve?: string }).namedCurve === "P-384" ? "SHA-384" : "SHA-256";
  await cert.sign(args.issuerKey, hash);
  return new Uint8Array(cert.toSchema(true).toBER(false));
}

/** A P-384 root and a P-384 intermediate (CA unless `intermediateIsCa: false`), valid ±10 years around `now`. */
export async function mintTestCa(now: Date, options: { intermediateIsCa?: boolean } = {}): Promise<{ root: TestCa; intermediate: TestCa }> {
  const rootKeys = await ecKeys("P-384");
  const interKeys = await ecKeys("P-384");
  const notBefore = new Date(now.getTime() - 3650 * DAY);
  const notAfter = new Date(now.getTime() + 3650 * DAY);
  const rootDer = await issue({
    subject: "Test App Attestation Root CA",
    subjectKey: rootKeys.publicKey,
    issuer: "Test App Attestation Root CA",
    issuerKey: rootKeys.privateKey,
    notBefore,
    notAfter,
    ca: true,
  });
  const interDer = await issue({
    subject: "Test App Attestation CA 1",
    subjectKey: interKeys.publicKey,
    issuer: "Test App Attestation Root CA",
    issuerKey: rootKeys.privateKey,
    notBefore,
    notAfter,
    ca: options.intermediateIsCa ?? true,
  });
  return {
    root: { name: "Test App Attestation Root CA", keys: rootKeys, der: rootDer, pem: pem(rootDer) },
    intermediate: { name: "Test App Attestation CA 1", keys: interKeys, der: interDer, pem: pem(interDer) },
  };
}

async function sha256(data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>));
}

export interface MintAttestationOptions {
  ca: { root: TestCa; intermediate: TestCa };
  appId: string;
  challenge: Uint8Array;
  now: Date;
  environment?: "production" | "development" | "unknown";
  counter?: number;
  leafCurve?: "P-256" | "P-384";
  leafNotBefore?: Date;
  leafNotAfter?: Date;
  /** Replace the nonce in the leaf (null: leave the extension out). */
  nonce?: Uint8Array | null;
  /** Replace authData's credential id. */
  credentialId?: Uint8Array;
  /** Put another key's point into authData's COSE key. */
  otherCoseKey?: boolean;
  /** Replace the statement's key_id. */
  keyId?: Uint8Array;
  /** x5c as given instead of [leaf, intermediate]. */
  x5c?: (leaf: Uint8Array, intermediate: Uint8Array, root: Uint8Array) => Uint8Array[];
  fmt?: string;
}

export interface MintedAttestation {
  statement: string;
  keys: CryptoKeyPair;
  keyId: Uint8Array;
  spki: Uint8Array;
}

const AAGUID = {
  production: concatBytes([utf8("appattest"), new Uint8Array(7)]),
  development: utf8("appattestdevelop"),
  unknown: utf8("fido2-not-apple!"),
};

/** An attestation statement (the pinned JSON form) made the way a device makes one, with the knobs applied. */
export async function mintAttestation(o: MintAttestationOptions): Promise<MintedAttestation> {
  const keys = await ecKeys(o.leafCurve ?? "P-256");
  const spki = new Uint8Array((await crypto.subtle.exportKey("spki", keys.publicKey)) as ArrayBuffer);
  const point = new Uint8Array((await crypto.subtle.exportKey("raw", keys.publicKey)) as ArrayBuffer);
  const keyId = await sha256(point);
  const cosePoint = o.otherCoseKey
    ? new Uint8Array((await crypto.subtle.exportKey("raw", (await ecKeys("P-256")).publicKey)) as ArrayBuffer)
    : point;
  const credentialId = o.credentialId ?? keyId;
  const coseKey = encodeCbor({
    map: [
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, cosePoint.slice(1, 33)],
      [-3, cosePoint.slice(33, 65)],
    ],
  });
  const counter = new Uint8Array(4);
  new DataView(counter.buffer).setUint32(0, o.counter ?? 0);
  const authData = concatBytes([
    await sha256(utf8(o.appId)),
    Uint8Array.of(0x40),
    counter,
    AAGUID[o.environment ?? "production"],
    Uint8Array.of(credentialId.length >> 8, credentialId.length & 0xff),
    credentialId,
    coseKey,
  ]);
  const nonce = o.nonce === undefined ? await sha256(concatBytes([authData, await sha256(o.challenge)])) : o.nonce;
  const extensions: pkijs.Extension[] = [];
  if (nonce) {
    const value = new asn1js.Sequence({
      value: [new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 1 }, value: [new asn1js.OctetString({ valueHex: nonce })] })],
    });
    extensions.push(new pkijs.Extension({ extnID: "1.2.840.113635.100.8.2", extnValue: value.toBER(false) }));
  }
  const leaf = await issue({
    subject: "test-key",
    subjectKey: keys.publicKey,
    issuer: o.ca.intermediate.name,
    issuerKey: o.ca.intermediate.keys.privateKey,
    notBefore: o.leafNotBefore ?? new Date(o.now.getTime() - DAY),
    notAfter: o.leafNotAfter ?? new Date(o.now.getTime() + 2 * DAY),
    ca: false,
    extensions,
  });
  const x5c = o.x5c ? o.x5c(leaf, o.ca.intermediate.der, o.ca.root.der) : [leaf, o.ca.intermediate.der];
  const object = encodeCbor({
    map: [
      ["fmt", o.fmt ?? "apple-appattest"],
      [
        "attStmt",
        {
          map: [
            ["x5c", x5c],
            ["receipt", utf8("not a receipt")],
          ],
        },
      ],
      ["authData", authData],
    ],
  });
  return { statement: JSON.stringify({ attestation_object: base64(object), key_id: base64(o.keyId ?? keyId) }), keys, keyId, spki };
}

/** WebCrypto's raw r‖s as a DER ECDSA-Sig-Value (what the Secure Enclave returns). */
function rawToDer(raw: Uint8Array): Uint8Array {
  const int = (b: Uint8Array) => {
    let i = 0;
    while (i < b.length - 1 && b[i] === 0 && !(b[i + 1]! & 0x80)) i++;
    const v = b.subarray(i);
    return concatBytes([Uint8Array.of(0x02, v.length + (v[0]! & 0x80 ? 1 : 0)), v[0]! & 0x80 ? Uint8Array.of(0) : new Uint8Array(0), v]);
  };
  const body = concatBytes([int(raw.subarray(0, 32)), int(raw.subarray(32))]);
  return concatBytes([Uint8Array.of(0x30, body.length), body]);
}

/** An assertion (base64 CBOR {signature, authenticatorData}) over `clientData` with `counter`, signed by `key`. */
export async function mintAssertion(key: CryptoKey, appId: string, clientData: Uint8Array, counter: number): Promise<string> {
  const count = new Uint8Array(4);
  new DataView(count.buffer).setUint32(0, counter);
  const authenticatorData = concatBytes([await sha256(utf8(appId)), Uint8Array.of(0x40), count]);
  const nonce = await sha256(concatBytes([authenticatorData, await sha256(clientData)]));
  const raw = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, key, nonce as Uint8Array<ArrayBuffer>));
  return base64(
    encodeCbor({
      map: [
        ["signature", rawToDer(raw)],
        ["authenticatorData", authenticatorData],
      ],
    }),
  );
}
