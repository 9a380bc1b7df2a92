/**
 * MD5 (RFC 1321), incremental, for FLAC's STREAMINFO signature of the samples. Web Crypto has no MD5 (workerd's
 * non-standard one is not in Node), and the signature is a checksum FLAC's format requires, not a security measure.
 */
const S = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];
const K = new Int32Array(64);
for (let i = 0; i < 64; i++) K[i] = Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32) | 0;

export class Md5 {
  #h = new Int32Array([0x67452301, 0xefcdab89 | 0, 0x98badcfe | 0, 0x10325476]);
  #block = new Uint8Array(64);
  #words = new Int32Array(16);
  #filled = 0;
  #length = 0;

  update(bytes: Uint8Array): void {
    this.#length += bytes.length;
    let at = 0;
    while (at < bytes.length) {
      const n = Math.min(64 - this.#filled, bytes.length - at);
      this.#block.set(bytes.subarray(at, at + n), this.#filled);
      this.#filled += n;
      at += n;
      if (this.#filled === 64) {
        this.#compress();
        this.#filled = 0;
      }
    }
  }

  digest(): Uint8Array {
    const bits = this.#length * 8;
    const tail = new Uint8Array((this.#filled < 56 ? 56 : 120) - this.#filled + 8);
    tail[0] = 0x80;
    const view = new DataView(tail.buffer);
    view.setUint32(tail.length - 8, bits >>> 0, true);
    view.setUint32(tail.length - 4, Math.floor(bits / 2 ** 32), true);
    this.update(tail);
    const out = new Uint8Array(16);
    const o = new DataView(out.buffer);
    for (let i = 0; i < 4; i++) o.setInt32(4 * i, this.#h[i]!, true);
    return out;
  }

  #compress(): void {
    const w = this.#words;
    const b = this.#block;
    for (let i = 0; i < 16; i++) w[i] = b[4 * i]! | (b[4 * i + 1]! << 8) | (b[4 * i + 2]! << 16) | (b[4 * i + 3]! << 24);
    const h = this.#h;
    let a = h[0]!;
    let bb = h[1]!;
    let c = h[2]!;
    let d = h[3]!;
    for (let i = 0; i < 64; i++) {
      let f: number;
      let g: number;
      if (i < 16) {
        f = (bb & c) | (~bb & d);
        g = i;
      } else if (i < 32) {
        f = (d & bb) | (~d & c);
        g = (5 * i + 1) & 15;
      } else if (i < 48) {
        f = bb ^ c ^ d;
        g = (3 * i + 5) & 15;
      } else {
        f = c ^ (bb | ~d);
        g = (7 * i) & 15;
      }
      const s = S[(i >> 4) * 4 + (i & 3)]!;
      const x = (a + f + K[i]! + w[g]!) | 0;
      a = d;
      d = c;
      c = bb;
      bb = (bb + ((x << s) | (x >>> (32 - s)))) | 0;
    }
    h[0] = (h[0]! + a) | 0;
    h[1] = (h[1]! + bb) | 0;
    h[2] = (h[2]! + c) | 0;
    h[3] = (h[3]! + d) | 0;
  }
}
