/**
 * The signer's credentials of the ACTIVE manifest, read straight from C2PA-signed bytes: the c2pa-wasm reader
 * reports only the signing certificate's serial and issuer, while OCSP needs the DER certificates (and any
 * OCSP responses stapled to the signature).
 *
 *   extractManifestStore(bytes, mediaType) → the raw manifest store (the JUMBF superbox labelled "c2pa")
 *   parseJumbf(store)                      → its box tree
 *   activeManifestSignature(store, label?) → the COSE_Sign1 of the active manifest's claim signature
 *   signerCredentials(cose)                → x5chain (leaf first), stapled OCSP responses, algorithm
 *
 * Where the store sits (C2PA specification, "Embedding manifests into various file formats"; checked against
 * what c2pa-wasm 0.13.3 writes, see test/workers/media/jumbf.test.ts):
 *  - JPEG: APP11 segments, each "JP" (common identifier), En (box instance, 2 bytes), Z (packet sequence, 4
 *    bytes, from 1), then box bytes; the first packet has the superbox header (LBox, TBox, XLBox if LBox = 1) and
 *    its start, every later packet repeats that header before the next part (ISO/IEC 19566-5, JPEG 1 embedding).
 *  - PNG: a `caBX` chunk (chunk CRCs are not checked: the manifest's hard binding covers the bytes). GIF: an application extension "C2PA_GIF" whose data sub-blocks hold the store.
 *  - SVG: base64 text of a `<c2pa:manifest>` element.
 *  - Everything else (ISO BMFF `uuid` box, RIFF `C2PA` chunk of WebP/WAV/AVI, TIFF/DNG tag 52545, ID3 GEOB of
 *    MP3/FLAC, JPEG XL `jumb` box, PDF embedded file stream, ...): the store is stored whole, so it is found by
 *    scanning for the first complete `jumb` box whose description says "c2pa".
 *  - A `.c2pa` sidecar (media type application/c2pa, or bytes that start with the store box): the bytes are
 *    the store.
 * The container is recognized from its leading bytes; the media type only says "sidecar" (application/c2pa) or
 * "SVG" (a text format without a fixed signature).
 *
 * Invariants: no function here throws; each is linear in its input, allocates at most a copy of it, and bounds
 * recursion (JUMBF nesting ≤ MAX_JUMBF_DEPTH, CBOR nesting ≤ the decoder's depth limit). Results are discriminated
 * unions: `ok`, `not_found` (the input is readable but has no such thing), `malformed` (it is not readable).
 * Byte arrays in results may share the input's buffer unless stated otherwise.
 *
 * By job: jumbf-box.ts (result types, boxes, parseJumbf), jumbf-signature.ts (the active manifest's signature
 * and its credentials), jumbf-carriers.ts (finding the store in each container).
 */
