/**
 * h42 review: a seeded progressive JPEG writer for differential tests of the decoder's row-by-row AC scans
 * (wasm/jpegdec). It draws quantised coefficients (not pixels: the decoder only reads coefficients), a scan script
 * (spectral selection, successive approximation down from Al up to 13, DC interleaved or not, scans of the
 * components interleaved in any order, optionally out of causal order, duplicated or dropped), a restart interval
 * per scan (DRI between scans), Huffman tables built per scan into random slots (so a slot a scan used is often
 * redefined before the next one), DQT redefinitions after scans, and writes the file with EOB runs, ZRLs and
 * correction bits as T.81 G.1.2 (libjpeg's progressive encoder) does. `mutants` derives damaged files from one.
 */
import { createHash } from "node:crypto";
import { prng } from "../../support/prng.ts";
import { decodeOn, digest, type Kernel, LOG2_SCALES } from "./jpeg-decoder.review-corpus.ts";

export interface Generated {
  bytes: Uint8Array;
  /** Offsets of each scan part's first byte (its tables, DRI, SOS) and of its entropy-coded data. */
  scans: { start: number; data: number; end: number }[];
  what: string;
}

type Rand = () => number;

interface Comp {
  id: number;
  h: number;
  v: number;
  tq: number;
  bw: number; // blocks per row (MCU-padded)
  bh: number;
  fbw: number; // real blocks per row
  fbh: number;
  coef: Int16Array; // bw * bh * 64, zigzag order
}

interface Scan {
  comps: number[];
  ss: number;
  se: number;
  ah: number;
  al: number;
}

class Bits {
  out: number[] = [];
  acc = 0;
  n = 0;
  put(v: number, n: number): void {
    for (let i = n - 1; i >= 0; i--) {
      this.acc = (this.acc << 1) | ((v >>> i) & 1);
      this.n++;
      if (this.n === 8) this.byte();
    }
  }
  byte(): void {
    this.out.push(this.acc);
    if (this.acc === 0xff) this.out.push(0);
    this.acc = 0;
    this.n = 0;
  }
  flush(): void {
    while (this.n !== 0) this.put(1, 1);
  }
}

const bitlen = (v: number) => (v === 0 ? 0 : 32 - Math.clz32(v));

/** libjpeg's jpeg_gen_optimal_table: code lengths (at most 16) with one code point reserved (no all-ones code). */
function optimalTable(freqIn: number[]): { bits: number[]; vals: number[] } {
  const freq = freqIn.slice(0, 256);
  while (freq.length < 257) freq.push(0);
  if (!freq.slice(0, 256).some((f) => f > 0)) freq[0] = 1;
  freq[256] = 1;
  const codesize = new Array(257).fill(0);
  const others = new Array(257).fill(-1);
  for (;;) {
    let c1 = -1;
    let v = 1e18;
    for (let i = 0; i <= 256; i++)
      if (freq[i]! && freq[i]! <= v) {
        v = freq[i]!;
        c1 = i;
      }
    let c2 = -1;
    v = 1e18;
    for (let i = 0; i <= 256; i++)
      if (freq[i]! && freq[i]! <= v && i !== c1) {
        v = freq[i]!;
        c2 = i;
      }
    if (c2 < 0) break;
    freq[c1] = freq[c1]! + freq[c2]!;
    freq[c2] = 0;
    codesize[c1]++;
    while (others[c1] >= 0) {
      c1 = others[c1];
      codesize[c1]++;
    }
    others[c1] = c2;
    codesize[c2]++;
    while (others[c2] >= 0) {
      c2 = others[c2];
      codesize[c2]++;
    }
  }
  const bits = new Array(33).fill(0);
  for (let i = 0; i <= 256; i++) if (codesize[i]) bits[codesize[i]]++;
  for (let i = 32; i > 16; i--)
    while (bits[i] > 0) {
      let j = i - 2;
      while (bits[j] === 0) j--;
      bits[i] -= 2;
      bits[i - 1]++;
      bits[j + 1] += 2;
      bits[j]--;
    }
  let i = 16;
  while (bits[i] === 0) i--;
  bits[i]--;
  const vals: number[] = [];
  for (let l = 1; l <= 32; l++) for (let s = 0; s < 256; s++) if (codesize[s] === l) vals.push(s);
  return { bits: bits.slice(1, 17), vals };
}

interface Table {
  bits: number[];
  vals: number[];
  code: Map<number, [number, number]>; // symbol -> [code, length]
}

function makeTable(freq: number[]): Table {
  const { bits, vals } = optimalTable(freq);
  const code = new Map<number, [number, number]>();
  let c = 0;
  let k = 0;
  for (let l = 1; l <= 16; l++) {
    for (let i = 0; i < bits[l - 1]!; i++) code.set(vals[k++]!, [c++, l]);
    c <<= 1;
  }
  return { bits, vals, code };
}

const seg = (marker: number, body: number[]) => [0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 255, ...body];

/** One seeded progressive (SOF2) file; `odd` allows scan scripts out of causal order. */
export function generate(rand: Rand, options: { odd?: boolean; big?: boolean } = {}): Generated {
  const int = (n: number) => Math.floor(rand() * n);
  const pick = <T>(xs: readonly T[]) => xs[int(xs.length)]!;
  const big = options.big ?? rand() < 0.1;
  const W = big ? 60 + int(260) : 1 + int(72);
  const H = big ? 40 + int(200) : 1 + int(72);
  const gray = rand() < 0.25;
  const samplings: [number, number][][] = [
    [
      [1, 1],
      [1, 1],
      [1, 1],
    ],
    [
      [2, 2],
      [1, 1],
      [1, 1],
    ],
    [
      [2, 1],
      [1, 1],
      [1, 1],
    ],
    [
      [1, 2],
      [1, 1],
      [1, 1],
    ],
    [
      [4, 1],
      [1, 1],
      [1, 1],
    ],
    [
      [2, 2],
      [1, 2],
      [2, 1],
    ],
    [
      [1, 1],
      [2, 2],
      [1, 1],
    ],
    [
      [3, 1],
      [1, 1],
      [1, 1],
    ],
    [
      [4, 2],
      [2, 1],
      [1, 1],
    ],
  ];
  const sampling = gray ? [[1 + int(2), 1 + int(2)] as [number, number]] : pick(samplings);
  const nc = sampling.length;
  const hmax = gray ? 1 : Math.max(...sampling.map((s) => s[0]));
  const vmax = gray ? 1 : Math.max(...sampling.map((s) => s[1]));
  const mcusX = Math.ceil(W / (8 * hmax));
  const mcusY = Math.ceil(H / (8 * vmax));
  const flatness = rand();
  const maxMag = pick([3, 15, 60, 255, 1023]);
  const comps: Comp[] = sampling.map(([h0, v0], i) => {
    const h = gray ? 1 : h0;
    const v = gray ? 1 : v0;
    const bw = mcusX * h;
    const bh = mcusY * v;
    const coef = new Int16Array(bw * bh * 64);
    for (let b = 0; b < bw * bh; b++) {
      coef[b * 64] = Math.round((rand() - 0.5) * (rand() < 0.05 ? 4000 : 600));
      if (rand() < flatness) continue;
      const density = rand();
      for (let k = 1; k < 64; k++) {
        if (rand() > density * Math.exp(-k / (4 + 20 * density))) continue;
        const m = 1 + Math.floor(rand() ** 3 * maxMag);
        coef[b * 64 + k] = rand() < 0.5 ? -m : m;
      }
    }
    return {
      id: gray ? 1 : [1, 2, 3][i]! + (rand() < 0.1 ? 80 : 0),
      h: h0,
      v: v0,
      tq: int(4),
      bw,
      bh,
      fbw: Math.ceil(Math.ceil((W * h) / hmax) / 8),
      fbh: Math.ceil(Math.ceil((H * v) / vmax) / 8),
      coef,
    };
  });
  if (!gray && new Set(comps.map((c) => c.id)).size !== nc) comps.forEach((c, i) => (c.id = i + 1));
  const blocksPerMcu = comps.reduce((s, c) => s + c.h * c.v, 0);

  // --- the scan script
  const script: Scan[] = [];
  const dcAl = rand() < 0.7 ? int(3) : int(14);
  if (nc > 1 && blocksPerMcu <= 10 && rand() < 0.7) script.push({ comps: comps.map((_, i) => i), ss: 0, se: 0, ah: 0, al: dcAl });
  else for (let i = 0; i < nc; i++) script.push({ comps: [i], ss: 0, se: 0, ah: 0, al: dcAl });
  const perComp: Scan[][] = comps.map((_, c) => {
    const out: Scan[] = [];
    if (rand() < 0.08) return out; // DC only
    const bands: [number, number][] = [];
    let k = 1;
    while (k <= 63) {
      const e = rand() < 0.4 ? 63 : Math.min(63, k + int(30));
      bands.push([k, e]);
      k = e + 1;
    }
    for (const [ss, se] of bands) {
      const al = rand() < 0.6 ? int(3) : int(14);
      out.push({ comps: [c], ss, se, ah: 0, al });
      const stopAt = rand() < 0.8 ? 0 : int(al + 1);
      for (let a = al; a > stopAt; a--) out.push({ comps: [c], ss, se, ah: a, al: a - 1 });
    }
    return out;
  });
  // DC refinements
  for (let a = dcAl; a > 0; a--) {
    const dcRef = rand() < 0.5 && nc > 1 && blocksPerMcu <= 10 ? [comps.map((_, i) => i)] : comps.map((_, i) => [i]);
    for (const cs of dcRef) perComp[cs[0]!]!.splice(int(perComp[cs[0]!]!.length + 1), 0, { comps: cs, ss: 0, se: 0, ah: a, al: a - 1 });
  }
  // components' AC scans interleaved with each other in a random order (each component's own order kept)
  const queues = perComp.map((q) => q.slice());
  while (queues.some((q) => q.length > 0)) {
    const live = queues.filter((q) => q.length > 0);
    script.push(pick(live).shift()!);
  }
  if (options.odd) {
    const n = int(4);
    for (let i = 0; i < n && script.length > 1; i++) {
      const a = int(script.length);
      const b = int(script.length);
      switch (int(3)) {
        case 0:
          [script[a], script[b]] = [script[b]!, script[a]!];
          break;
        case 1:
          script.splice(a, 0, { ...script[b]! });
          break;
        default:
          script.splice(a, 1);
      }
    }
  }
  const scanCap = 100;
  while (script.length > scanCap) script.splice(1 + int(script.length - 1), 1);

  // --- the file
  const out: number[] = [0xff, 0xd8];
  const scans: Generated["scans"] = [];
  const dqt = (tq: number) => {
    const p16 = rand() < 0.2;
    const body = [(p16 ? 0x10 : 0) | tq];
    for (let k = 0; k < 64; k++) {
      const q = 1 + int(p16 ? 300 : 60);
      if (p16) body.push(q >> 8, q & 255);
      else body.push(q);
    }
    return seg(0xdb, body);
  };
  for (let t = 0; t < 4; t++) out.push(...dqt(t));
  out.push(...seg(0xc2, [8, H >> 8, H & 255, W >> 8, W & 255, nc, ...comps.flatMap((c) => [c.id, (c.h << 4) | c.v, c.tq])]));
  const dcTabs: (Table | null)[] = [null, null, null, null];
  const acTabs: (Table | null)[] = [null, null, null, null];
  let ri = 0;
  const riChoices = [0, 0, 0, 1, 2, 3, 5, 7, 16];
  for (const scan of script) {
    const start = out.length;
    if (rand() < 0.4) {
      const next = pick(riChoices);
      if (next !== ri || rand() < 0.3) out.push(...seg(0xdd, [next >> 8, next & 255]));
      ri = next;
    }
    const isDc = scan.ss === 0;
    // the symbols each table would code: a counting pass
    // distinct slots per component of the scan (a DC scan's components may then share one, below)
    const slots = [0, 1, 2, 3].sort(() => rand() - 0.5);
    const tabIdx = scan.comps.map((_, i) => slots[i]!);
    const counts = scan.comps.map(() => new Array(256).fill(0));
    // overlong end-of-band runs, the same in both passes
    const overlong = !isDc && rand() < 0.1;
    const exSeed = int(1 << 30);
    const extra = () => {
      if (!overlong) return undefined;
      const r = prng(exSeed);
      return () => (r() < 0.3 ? Math.floor(r() * (r() < 0.5 ? 8 : 400)) : 0);
    };
    encodeScan(
      comps,
      scan,
      mcusX,
      mcusY,
      ri,
      {
        sym: (i, s) => counts[i]![s]++,
        bits: () => {},
        restart: () => {},
      },
      extra(),
    );
    const tabs = isDc ? dcTabs : acTabs;
    const used: Table[] = [];
    const dhtBody: number[] = [];
    scan.comps.forEach((_, i) => {
      if (isDc && scan.ah > 0) return;
      // AC scans code with one table; a DC scan's components may share one (their counts merged)
      let t = tabIdx[i]!;
      const shared = scan.comps.findIndex((_, j) => j < i && rand() < 0.3);
      if (isDc && shared >= 0) {
        t = tabIdx[i] = tabIdx[shared]!;
        const sharing = scan.comps.map((_, j) => j).filter((j) => j <= i && tabIdx[j] === t);
        const merged = counts[i]!.map((_, s) => sharing.reduce((n, j) => n + counts[j]![s]!, 0));
        const table = makeTable(merged);
        tabs[t] = table;
        for (const j of sharing) used[j] = table;
        dhtBody.push((isDc ? 0 : 0x10) | t, ...table.bits, ...table.vals);
        return;
      }
      const old = tabs[t];
      if (old && rand() < 0.3 && counts[i]!.every((n, s) => n === 0 || old.code.has(s))) {
        used[i] = old;
        return;
      }
      const table = makeTable(counts[i]!);
      tabs[t] = table;
      used[i] = table;
      dhtBody.push((isDc ? 0 : 0x10) | t, ...table.bits, ...table.vals);
    });
    if (dhtBody.length > 0) out.push(...seg(0xc4, dhtBody));
    out.push(
      ...seg(0xda, [
        scan.comps.length,
        ...scan.comps.flatMap((c, i) => [comps[c]!.id, isDc ? tabIdx[i]! << 4 : tabIdx[i]!]),
        scan.ss,
        scan.se,
        (scan.ah << 4) | scan.al,
      ]),
    );
    const data = out.length;
    const bits = new Bits();
    let rst = 0;
    encodeScan(
      comps,
      scan,
      mcusX,
      mcusY,
      ri,
      {
        sym: (i, s) => {
          const c = used[i]!.code.get(s);
          if (!c) throw new Error(`symbol ${s} missing`);
          bits.put(c[0], c[1]);
        },
        bits: (v, n) => bits.put(v, n),
        restart: () => {
          bits.flush();
          bits.out.push(0xff, 0xd0 + (rst++ & 7));
        },
      },
      extra(),
    );
    bits.flush();
    out.push(...bits.out);
    scans.push({ start, data, end: out.length });
    // a slot this scan used redefined before its rows are decoded (a table no scan uses, valid)
    if (rand() < 0.2) {
      const junk = makeTable(Array.from({ length: 256 }, () => (rand() < 0.3 ? 1 + int(5) : 0)));
      const ac = rand() < 0.5;
      const slot = int(4);
      (ac ? acTabs : dcTabs)[slot] = junk;
      out.push(...seg(0xc4, [(ac ? 0x10 : 0) | slot, ...junk.bits, ...junk.vals]));
    }
    if (rand() < 0.1) out.push(...dqt(int(4)));
    if (rand() < 0.05) out.push(...seg(0xfe, [0x61, 0x62]));
  }
  out.push(0xff, 0xd9);
  return {
    bytes: Uint8Array.from(out),
    scans,
    what: `${W}x${H} ${gray ? "gray" : sampling.map((s) => s.join("x")).join(",")} ${script.length} scans`,
  };
}

interface Emit {
  sym(comp: number, s: number): void;
  bits(v: number, n: number): void;
  restart(): void;
}

/** One scan's symbols and bits, as libjpeg's jcphuff.c codes them. */
function encodeScan(comps: Comp[], scan: Scan, mcusX: number, mcusY: number, ri: number, e: Emit, extra = () => 0): void {
  const { ss, se, ah, al } = scan;
  const pred = scan.comps.map(() => 0);
  let eobrun = 0;
  let corr: number[] = []; // correction bits of the blocks in the pending EOB run
  const emitEobrun = () => {
    if (eobrun > 0) {
      // (a hostile writer's run may claim more blocks than follow: across restarts, rows and the scan's end)
      eobrun = Math.min(0x7fff, eobrun + extra());
      const n = bitlen(eobrun) - 1;
      e.sym(0, n << 4);
      if (n) e.bits(eobrun & ((1 << n) - 1), n);
      eobrun = 0;
      for (const b of corr) e.bits(b, 1);
      corr = [];
    }
  };
  const block = (i: number, c: Comp, b: number) => {
    const coef = c.coef;
    const at = b * 64;
    if (ss === 0) {
      if (ah === 0) {
        const v = coef[at]! >> al;
        const diff = v - pred[i]!;
        pred[i] = v;
        const mag = Math.abs(diff);
        const n = bitlen(mag);
        e.sym(i, n);
        if (n) e.bits(diff < 0 ? (diff - 1) & ((1 << n) - 1) : diff, n);
      } else e.bits((coef[at]! >> al) & 1, 1);
      return;
    }
    if (ah === 0) {
      let r = 0;
      for (let k = ss; k <= se; k++) {
        let t = coef[at + k]!;
        if (t === 0) {
          r++;
          continue;
        }
        let t2: number;
        if (t < 0) {
          t = -t >> al;
          t2 = ~t;
        } else {
          t >>= al;
          t2 = t;
        }
        if (t === 0) {
          r++;
          continue;
        }
        emitEobrun();
        while (r > 15) {
          e.sym(0, 0xf0);
          r -= 16;
        }
        const n = bitlen(t);
        e.sym(0, (r << 4) + n);
        e.bits(t2 & ((1 << n) - 1), n);
        r = 0;
      }
      if (r > 0) {
        eobrun++;
        if (eobrun === 0x7fff) emitEobrun();
      }
      return;
    }
    const abs: number[] = [];
    let eob = 0;
    for (let k = ss; k <= se; k++) {
      const t = Math.abs(coef[at + k]!) >> al;
      abs[k] = t;
      if (t === 1) eob = k;
    }
    let r = 0;
    let br: number[] = [];
    for (let k = ss; k <= se; k++) {
      const t = abs[k]!;
      if (t === 0) {
        r++;
        continue;
      }
      while (r > 15 && k <= eob) {
        emitEobrun();
        e.sym(0, 0xf0);
        r -= 16;
        for (const b of br) e.bits(b, 1);
        br = [];
      }
      if (t > 1) {
        br.push(t & 1);
        continue;
      }
      emitEobrun();
      e.sym(0, (r << 4) + 1);
      e.bits(coef[at + k]! < 0 ? 0 : 1, 1);
      for (const b of br) e.bits(b, 1);
      br = [];
      r = 0;
    }
    if (r > 0 || br.length > 0) {
      eobrun++;
      corr.push(...br);
      if (eobrun === 0x7fff || corr.length > 1000 - 64 + 1) emitEobrun();
    }
  };
  let mcu = 0;
  const before = () => {
    if (ri > 0 && mcu > 0 && mcu % ri === 0) {
      emitEobrun();
      e.restart();
      for (let i = 0; i < pred.length; i++) pred[i] = 0;
    }
    mcu++;
  };
  if (scan.comps.length === 1) {
    const c = comps[scan.comps[0]!]!;
    for (let by = 0; by < c.fbh; by++)
      for (let bx = 0; bx < c.fbw; bx++) {
        before();
        block(0, c, by * c.bw + bx);
      }
  } else
    for (let my = 0; my < mcusY; my++)
      for (let mx = 0; mx < mcusX; mx++) {
        before();
        scan.comps.forEach((ci, i) => {
          const c = comps[ci]!;
          const h = comps.length === 1 ? 1 : c.h;
          const v = comps.length === 1 ? 1 : c.v;
          for (let y = 0; y < v; y++) for (let x = 0; x < h; x++) block(i, c, (my * v + y) * c.bw + mx * h + x);
        });
      }
  emitEobrun();
}

const splice = (b: Uint8Array, at: number, remove: number, insert: ArrayLike<number>) => {
  const out = new Uint8Array(b.length - remove + insert.length);
  out.set(b.subarray(0, at));
  out.set(insert, at);
  out.set(b.subarray(at + remove), at + insert.length);
  return out;
};

/** Damaged files derived from `g`, each named. */
export function mutants(g: Generated, rand: Rand, count: number): [string, Uint8Array][] {
  const int = (n: number) => Math.floor(rand() * n);
  const { bytes, scans } = g;
  const out: [string, Uint8Array][] = [];
  const EOI = [0xff, 0xd9];
  for (let m = 0; m < count; m++) {
    const s = scans[int(scans.length)]!;
    const inData = () => s.data + int(Math.max(1, s.end - s.data));
    switch (int(13)) {
      case 0: {
        const at = inData();
        out.push([`cut at ${at}`, bytes.subarray(0, at)]);
        break;
      }
      case 1: {
        const at = inData();
        out.push([`cut at ${at} + EOI`, splice(bytes.subarray(0, at), at, 0, EOI)]);
        break;
      }
      case 2: {
        out.push([`cut before scan at ${s.start} + EOI`, splice(bytes.subarray(0, s.start), s.start, 0, EOI)]);
        break;
      }
      case 3: {
        // entropy bytes flipped, never making a marker
        const b = bytes.slice();
        for (let j = 0, n = 1 + int(3); j < n; j++) {
          const at = inData();
          if (at >= b.length || b[at] === 0xff || b[at - 1] === 0xff) continue;
          b[at] = (b[at]! ^ (1 + int(254))) & 0xff;
          if (b[at] === 0xff) b[at] = 0xfe;
        }
        out.push([`flipped in scan at ${s.data}`, b]);
        break;
      }
      case 4: {
        // a marker inside scan data
        const at = inData();
        const marker = [
          [0xff, 0xd0 + int(8)],
          [0xff, 0xd9],
          [0xff, 0xd8],
          [0xff, 0x01],
          [0xff, 0xff, 0xd3],
          [0xff, 0xdd, 0, 4, 0, int(4)],
          [0xff, 0xfe, 0, 3, 7],
        ][int(7)]!;
        out.push([`marker ${marker.join(",")} at ${at}`, splice(bytes, at, 0, marker)]);
        break;
      }
      case 5: {
        // a restart marker removed
        const b = bytes;
        let found = -1;
        for (let q = s.data; q + 1 < s.end; q++)
          if (b[q] === 0xff && b[q + 1]! >= 0xd0 && b[q + 1]! <= 0xd7 && rand() < 0.5) {
            found = q;
            break;
          }
        if (found >= 0) out.push([`RST at ${found} removed`, splice(b, found, 2, [])]);
        break;
      }
      case 6: {
        // the DRI before a scan changed or added
        const v = [0, 1, 2, 3, 4, 9][int(6)]!;
        out.push([`DRI ${v} before scan at ${s.start}`, splice(bytes, s.start, 0, [0xff, 0xdd, 0, 4, 0, v])]);
        break;
      }
      case 7: {
        // two scan parts swapped, or one dropped or duplicated
        const i = int(scans.length);
        const j = int(scans.length);
        const part = (k: number) => bytes.subarray(scans[k]!.start, scans[k]!.end);
        const head = bytes.subarray(0, scans[0]!.start);
        const parts = scans.map((_, k) => part(k));
        const kind = int(3);
        if (kind === 0) [parts[i], parts[j]] = [parts[j]!, parts[i]!];
        else if (kind === 1) parts.splice(i, 1);
        else parts.splice(i, 0, parts[j]!);
        const total = head.length + parts.reduce((n, p) => n + p.length, 0) + 2;
        const b = new Uint8Array(total);
        b.set(head);
        let p = head.length;
        for (const x of parts) {
          b.set(x, p);
          p += x.length;
        }
        b.set(EOI, p);
        out.push([`scans ${kind === 0 ? "swapped" : kind === 1 ? "dropped" : "duplicated"} ${i},${j}`, b]);
        break;
      }
      case 8: {
        // SOS parameters rewritten
        const b = bytes.slice();
        const sos = s.data - 3; // Ss, Se, Ah|Al
        const which = int(3);
        if (which === 0) b[sos + 2] = (int(15) << 4) | int(15);
        else if (which === 1) b[sos] = int(64);
        else b[sos + 1] = int(64);
        out.push([`SOS params of scan at ${s.start} rewritten`, b]);
        break;
      }
      case 9: {
        // an unsupported marker, a DNL or a bad segment after a scan
        const marker = [
          [0xff, 0xc3, 0, 2],
          [0xff, 0xdc, 0, 4, 0, 8],
          [0xff, 0xc4, 0, 3, 0x55],
          [0xff, 0xdb, 0, 3, 0x07],
          [0xff, 0xc2, 0, 2],
        ][int(5)]!;
        out.push([`marker ${marker.slice(0, 2).join(",")} after scan at ${s.start}`, splice(bytes, s.end, 0, marker)]);
        break;
      }
      case 10: {
        // random bytes overwritten anywhere after the frame header
        const b = bytes.slice();
        for (let j = 0, n = 1 + int(4); j < n; j++) b[scans[0]!.start + int(b.length - scans[0]!.start)] = int(256);
        out.push(["random bytes", b]);
        break;
      }
      case 12: {
        // a scan's data damaged (flipped or cut short), then an unsupported marker or too many scans after a later scan
        const b = bytes.slice();
        const at = inData();
        if (rand() < 0.5) b[at] = b[at] === 0xff || b[at - 1] === 0xff ? b[at]! : (b[at]! ^ (1 + int(254))) & 0xfe;
        const later = scans[Math.min(scans.length - 1, scans.indexOf(s) + int(3))]!;
        const tail =
          rand() < 0.7
            ? [0xff, 0xc3, 0, 2]
            : Array.from({ length: 101 }, () => [0xff, 0xda, 0, 8, 1, bytes[s.data - 5]!, 0, 1, 1, 0]).flat();
        let c = splice(b, later.end, 0, tail);
        if (rand() < 0.4) c = splice(c, at, c.length - at > 8 ? 4 : 0, []);
        out.push([`damaged at ${at}, unsupported after ${later.end}`, c]);
        break;
      }
      default: {
        // garbage after EOI, or EOI dropped
        out.push(
          rand() < 0.5
            ? ["EOI dropped", bytes.subarray(0, bytes.length - 2)]
            : ["trailing junk", splice(bytes, bytes.length, 0, [1, 2, 0xff, 0xd9])],
        );
      }
    }
  }
  return out;
}

/** The seeds of the differential test (jpeg-decoder-rows.review.test.ts) and of its golden file. */
export const SEEDS: number[] = Array.from({ length: 400 }, (_, i) => 1 + i);

/** The files of one seed: the generated file and 10 mutants of it. */
export function seedCases(seed: number): [string, Uint8Array][] {
  const rand = prng(seed);
  const g = generate(rand, { odd: rand() < 0.3 });
  return [[g.what, g.bytes], ...mutants(g, rand, 10)];
}

/**
 * Every case of `seed` decoded on `k` at every scale as JpegStreamDecoder drives the kernel (a failure in scan data
 * reads as start()'s, whichever row it surfaced in): a line per case and their digest. `before` runs before each
 * decode (the test dirties the kernel there).
 */
export function seedDigest(k: Kernel, seed: number, before?: (k: Kernel) => void): { lines: string[]; combined: string } {
  const lines = seedCases(seed).map(([name, v]) => {
    const d = LOG2_SCALES.map((s) => {
      before?.(k);
      return digest(decodeOn(k, v, s));
    });
    return `${name}: ${d.join(" ")}`;
  });
  return { lines, combined: createHash("sha256").update(lines.join("\n")).digest("hex").slice(0, 16) };
}
