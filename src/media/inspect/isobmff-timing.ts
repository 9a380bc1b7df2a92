/**
 * What an ISO BMFF movie plays, for the billed duration (a floor: never less than the content carries). One
 * accumulator, fed box by box in file order, serves both upload paths: the in-memory inspector walks the bytes
 * (`measureMovie`), the streamed inspection of large uploads (c2pa/bmff.ts) feeds it as the boxes stream past. Both
 * therefore read the same boxes with the same code and take the same decision (an overrunning table refused on both,
 * the same figure otherwise). Memory: a few numbers per track, at most FRAGMENTED_TRACKS_MAXIMUM tracks kept.
 *
 * Which boxes count mirrors how players read them: the first `moov`; in it every `mvhd` (the first states the
 * duration), `mvex` (its first `mehd`, every `trex`) and every `trak` (its first `tkhd`: FFmpeg refuses a second;
 * every `edts/elst`; `mdia` with its first `mdhd` and `hdlr` and `minf/stbl` with every `stts`, `stsz`, `stz2`, `stsc`,
 * `stco` and `co64` and the first `stsd`: an audio track's codec floor, its samples × the codec's frame length, see
 * codecFloor, or for AC-3/E-AC-3 its bytes over the codec's highest byte rate, see byteFloor); then every
 * `moof` after that `moov` (as FFmpeg, which reads fragments only for tracks `moov` declared): each `traf`'s `tfhd`
 * (one), first `tfdt` and every `trun`.
 * Where a malformed file holds several of a box FFmpeg reads the last of, and other readers the first, the figure is
 * at least what either reading plays (or the file is refused).
 */
import { corrupt, u8, u16be, u32be, u64be } from "./bytes";
import { aacCore, esdsDescriptors } from "./codecs";
import { type Box, boxes, MAX_BOXES_PER_LEVEL, timing } from "./isobmff-box";

/** A consumer for one leaf box's body, fed in order in parts, then told it ended. Throws CorruptError. */
export interface BodySink {
  take(part: Uint8Array): void;
  end(): void;
}

/**
 * Tracks (and `trex` boxes) a fragmented movie may declare: their fragments are summed per track, so each needs a few
 * numbers kept until the end. More is refused (not measured partly: a track left out would bill less than it plays).
 */
export const FRAGMENTED_TRACKS_MAXIMUM = 1024;
/**
 * The bytes of an `stsd` body kept for the codec floor (real audio sample descriptions hold tens of bytes, a
 * QuickTime one with `wave` and `chan` a few hundred). A longer one in an audio track is refused: skipping it would
 * drop the floor (padding the description was a way around it).
 */
export const STSD_KEPT = 65_536;
/** Tracks closed before `mvhd` held for their edit list (box order in `moov` is free); the rest count uncut (more). */
const PENDING_TRACKS = 1024;

/** The containers this accumulator descends into (all are containers to the streamed walk too). */
const CONTAINERS = new Set(["moov", "trak", "mdia", "minf", "stbl", "edts", "mvex", "moof", "traf"]);
/**
 * Containers FFmpeg's box reader descends into that hold nothing the duration reads: walked (wherever they sit in
 * `moov`, or at the top level) only so that a fragment box hidden in one is refused (a `moof` in a `udta` is played).
 */
const WATCHED = new Set(["udta", "dinf", "edts", "tref", "schi"]);
/** Per container path: the children that count, "first" (the first of that type) or "all". */
const RULE_TEXT: Record<string, Record<string, "first" | "all">> = {
  moov: { mvhd: "all", mvex: "first", trak: "all" },
  "moov/trak": { tkhd: "first", mdia: "first", edts: "all" },
  "moov/trak/mdia": { mdhd: "first", minf: "first", hdlr: "first" },
  "moov/trak/mdia/minf": { stbl: "first" },
  "moov/trak/mdia/minf/stbl": { stts: "all", stsz: "all", stz2: "all", stsd: "first", stsc: "all", stco: "all", co64: "all" },
  "moov/trak/edts": { elst: "all" },
  "moov/mvex": { mehd: "first", trex: "all" },
  moof: { traf: "all" },
  "moof/traf": { tfhd: "all", tfdt: "first", trun: "all" },
};
/** RULE_TEXT compiled: each child's path, and for a "first" child its bit in its container's `seen` mask (else 0). */
const RULES = new Map(
  Object.entries(RULE_TEXT).map(([parent, kids]) => [
    parent,
    new Map(Object.entries(kids).map(([type, rule], i) => [type, { path: `${parent}/${type}`, bit: rule === "first" ? 1 << i : 0 }])),
  ]),
);

interface Frame {
  /** The path of live containers, or null for one this accumulator ignores (and everything in it). */
  path: string | null;
  /** The "first" child types met so far (RULES bits). */
  seen: number;
  /**
   * The children met so far: more than MAX_BOXES_PER_LEVEL are refused, as the in-memory reader refuses them (the
   * streamed walk took a `traf` of 400,000 `trun` boxes the in-memory one refused).
   */
  kids: number;
}
/** The frame of every ignored container (nothing in it is read, so it is never written). */
const IGNORED: Frame = { path: null, seen: 0, kids: 0 };

interface Track {
  id: number | null;
  /** -1: no `mdhd` read yet. */
  timescale: number;
  stated: number;
  /** The `stts` sample deltas' sum, in the track's timescale. */
  samples: number;
  /**
   * How many samples `stts` times (-1: no `stts` read), and its last entry's delta (FFmpeg times any further sample
   * by it); with several `stts`, the fewest timed and the largest last delta (never less than any one of them plays).
   */
  timed: number;
  lastDelta: number;
  /** The largest sample count a `stsz`/`stz2` states (the samples the track holds). */
  sized: number;
  /** The largest constant sample size a `stsz` states (0: none, or sizes per sample). */
  sampleSize: number;
  /** The largest chunk count a `stco`/`co64` states. */
  chunks: number;
  /**
   * `stsc` folded (several: each part the largest, the last run's first chunk the least, so that the samples it puts
   * in the chunks are at least what any one puts there): the samples of every run but the last (each run's samples
   * per chunk × its chunks), the last run's samples per chunk and first chunk (its chunks run to the chunk count);
   * whether a run is one FFmpeg repairs (see chunkSamples) and the most samples per chunk any run states.
   */
  stsc: { runs: number; lastPerChunk: number; lastFirst: number; invalid: boolean; most: number } | null;
  /** An `stsc` was passed over unread (the track was then known not to be chunk-demuxed audio). */
  stscSkipped: boolean;
  /** The first `stco` / `co64` of the track was met (the in-memory reader checks the first of each's offsets). */
  stcoSeen: boolean;
  co64Seen: boolean;
  edit: Edit | null;
  /**
   * The last `stts` is one entry of 1 tick: FFmpeg then demuxes the track by chunks (QuickTime's uncompressed and
   * fixed-rate compressed audio), each sample one decoded frame, not a packet; so no codec floor.
   */
  chunked: boolean;
  /** `hdlr`'s handler type ("" when none read). */
  handler: string;
  /** The first STSD_KEPT bytes of `stsd`'s body and its whole length (-1: no `stsd`). */
  stsd: Uint8Array | null;
  stsdLength: number;
}

/**
 * An edit list, in the movie's timescale: its length (the segments' durations summed), how many segments play media
 * (each at most all of it: a segment repeated plays the media again, one running past its end stops there), and the
 * durations of those that play none (empty edits: a delay; dwells, rate 0) and count whole.
 */
export interface Edit {
  ticks: number;
  normals: number;
  whole: number;
}

/** What a kept track's fragments play, in its timescale. */
interface Fragments {
  timescale: number;
  samples: number;
  /** Sum of every `trun` sample duration. */
  ticks: number;
  /** Where the next fragment without `tfdt` starts: after the `moov` samples, then after the previous fragment. */
  cursor: number;
  /** The earliest fragment start and the latest fragment end (decode times). */
  first: number;
  last: number;
  counted: boolean;
  /** The codec floor: seconds each sample decodes to at least, and samples not counted (0: no floor); see codecFloor. */
  perSample: number;
  spare: number;
  /** Samples: in `moov`'s tables, then in every counted `trun`. */
  count: number;
}

interface Traf {
  fragments: Fragments | null;
  tfhd: boolean;
  defaultDuration: number;
  /** Whether a default duration is stated at all (`tfhd`'s, else the track's `trex`): 0 ticks stated is not none. */
  defaultStated: boolean;
  tfdt: number | null;
  ticks: number;
  count: number;
}

export class MovieTiming {
  #movieTimescale = 0;
  /**
   * The timescale edit lists are read by: the smallest of every `mvhd`'s (FFmpeg reads by the last one before the
   * track; a first `mvhd` with a larger one would cut the edits shorter than FFmpeg plays them).
   */
  #editTimescale = 0;
  #mvhd = false;
  #movieDuration = 0;
  #mehd = 0;
  /** The largest `mdhd` duration in seconds (the stated figure when `mvhd` states none). */
  #trackStated = 0;
  #played = 0;
  readonly #pending: { media: number; edit: Edit }[] = [];
  readonly #frames: Frame[] = [];
  #track: Track | null = null;
  #traf: Traf | null = null;
  #moov: "none" | "open" | "closed" = "none";
  #tracks = 0;
  #trex = 0;
  readonly #byId = new Map<number, Fragments>();
  readonly #trexById = new Map<number, number>();
  /** With `fileLength`, each track's first `stco` and `co64` offsets are checked against it (see chunksPastEnd). */
  readonly #fileLength: number | null;
  #offsetPastEnd = false;
  #fragmented = false;

  /**
   * `fileLength`: the streamed walk of large uploads passes it, so that a chunk offset at or past the file's end is
   * refused as the in-memory reader refuses it (isobmff.ts; it walks those tables itself): the paths accepted
   * different files. Not billed either way (FFmpeg plays less of such a file, never more).
   */
  constructor(options: { fileLength?: number } = {}) {
    this.#fileLength = options.fileLength ?? null;
  }

  /**
   * Whether a track's first `stco` or `co64` (in the first `moov`) points at or past the file's end in a movie that is
   * not fragmented (no `mvex` in `moov`, no top-level `moof`), as the in-memory reader judges it; false without
   * `fileLength`.
   */
  get chunksPastEnd(): boolean {
    return this.#offsetPastEnd && !this.#fragmented;
  }

  /** The billed floor: the later of the stated duration and what the longest track plays (its fragments included). */
  get seconds(): number {
    return Math.max(this.statedSeconds, this.playedSeconds);
  }

  /** `mvhd`'s duration (or `mehd`'s when `mvhd` states 0), else the longest `mdhd`; as the movie states it. */
  get statedSeconds(): number {
    const duration = this.#movieDuration !== 0 ? this.#movieDuration : this.#mehd;
    const movie = this.#movieTimescale > 0 ? duration / this.#movieTimescale : 0;
    return movie !== 0 ? movie : this.#trackStated;
  }

  /** The longest a track plays, in seconds: its samples cut to its edit list, or its samples and fragments. */
  get playedSeconds(): number {
    let played = this.#played;
    for (const p of this.#pending) played = Math.max(played, trackPlayedSeconds(p.media, p.edit, this.#editTimescale));
    for (const f of this.#byId.values()) {
      if (!f.counted || f.timescale <= 0) continue;
      // The fragments' decode span (tfdt), from 0 when the moov holds samples; never less than the samples' sum. Not
      // cut to the edit list: a fragmented movie's is written before its fragments exist (0, or the moov's samples),
      // so it bounds none of them, and a patched one would lower the bill. A `traf` for a track moov does not
      // declare (no timescale to read it by) is not counted, as FFmpeg skips it.
      const start = f.samples > 0 ? 0 : f.first;
      played = Math.max(played, Math.max(f.samples + f.ticks, f.last - start) / f.timescale);
      if (f.perSample > 0) played = Math.max(played, Math.max(0, f.count - f.spare) * f.perSample);
    }
    return played;
  }

  /** A top-level box begins: whether its contents are fed (the first `moov`, and every `moof` after it). */
  openTop(type: string): boolean {
    // FFmpeg's box reader is not nested: a `traf` outside any `moof` (a `moof` sized 8 leaves its children at the top
    // level) is still read and played, while this reads fragments only inside a `moof`.
    if (type === "traf" || type === "trun") corrupt(`a track fragment box ('${type}') outside 'moof'`);
    if (type === "moof") this.#fragmented = true;
    if (WATCHED.has(type)) {
      this.#frames.push({ path: "watched", seen: 0, kids: 0 });
      return true;
    }
    if (type === "moov" && this.#moov === "none") {
      this.#moov = "open";
      this.#frames.push({ path: "moov", seen: 0, kids: 0 });
      return true;
    }
    if (type === "moof" && this.#moov === "closed") {
      if (this.#tracks > FRAGMENTED_TRACKS_MAXIMUM || this.#trex > FRAGMENTED_TRACKS_MAXIMUM)
        corrupt(`a fragmented movie declaring more than ${FRAGMENTED_TRACKS_MAXIMUM} tracks`);
      this.#frames.push({ path: "moof", seen: 0, kids: 0 });
      return true;
    }
    return false;
  }

  /**
   * A box of size 0 met inside a fed container: refused. FFmpeg and the in-memory reader run it to its container's end
   * (a last `trun` of size 0 is read), the streamed walk reads on after its header as c2pa-rs does (that `trun` was
   * skipped: the streamed figure was less than FFmpeg plays, and not the in-memory one).
   */
  zeroSized(): void {
    const path = this.#frames.at(-1)?.path;
    if (path && path !== "watched") corrupt("a box of size 0 inside a container the duration reads");
  }

  /** A container inside a fed top-level box begins: whether what it holds counts. */
  open(type: string): boolean {
    const parent = this.#frames.at(-1);
    const path = this.#admit(type);
    if (path === null && WATCHED.has(type) && parent?.path) {
      this.#frames.push({ path: "watched", seen: 0, kids: 0 });
      return true;
    }
    if (path === null || !CONTAINERS.has(type)) {
      this.#frames.push(IGNORED);
      return false;
    }
    this.#frames.push({ path, seen: 0, kids: 0 });
    if (path === "moov/mvex") this.#fragmented = true;
    if (path === "moov/trak") {
      this.#tracks++;
      this.#track = {
        id: null,
        timescale: -1,
        stated: 0,
        samples: 0,
        timed: -1,
        lastDelta: 0,
        sized: 0,
        sampleSize: 0,
        chunks: 0,
        stsc: null,
        stscSkipped: false,
        stcoSeen: false,
        co64Seen: false,
        edit: null,
        chunked: false,
        handler: "",
        stsd: null,
        stsdLength: -1,
      };
    } else if (path === "moof/traf") {
      this.#traf = { fragments: null, tfhd: false, defaultDuration: 0, defaultStated: false, tfdt: null, ticks: 0, count: 0 };
    }
    return true;
  }

  /** The innermost open container (or the fed top-level box) ended. */
  close(): void {
    const frame = this.#frames.pop();
    if (frame?.path === "moov/trak") this.#closeTrack();
    else if (frame?.path === "moof/traf") this.#closeTraf();
    else if (frame?.path === "moov") this.#moov = "closed";
  }

  /** A leaf box of `length` body bytes: the consumer of its body, or null when it does not count. */
  leaf(type: string, length: number): BodySink | null {
    const path = this.#admit(type);
    if (path === null) return null;
    const track = this.#track;
    switch (path) {
      case "moov/mvhd":
        return head(32, length, (h) => {
          const t = timing(h, box("mvhd", h));
          if (t.timescale > 0 && (this.#editTimescale === 0 || t.timescale < this.#editTimescale)) this.#editTimescale = t.timescale;
          if (this.#mvhd) return;
          this.#mvhd = true;
          this.#movieTimescale = t.timescale;
          this.#movieDuration = t.duration;
        });
      case "moov/mvex/mehd":
        return head(12, length, (h) => {
          if (h.length >= (h[0] === 1 ? 12 : 8)) this.#mehd = h[0] === 1 ? u64be(h, 4) : u32be(h, 4);
        });
      case "moov/mvex/trex":
        this.#trex++;
        return head(16, length, (h) => {
          if (h.length < 16 || this.#trexById.has(u32be(h, 4)) || this.#trexById.size >= FRAGMENTED_TRACKS_MAXIMUM) return;
          this.#trexById.set(u32be(h, 4), u32be(h, 12));
        });
      case "moov/trak/tkhd":
        return head(24, length, (h) => {
          const at = h.length > 0 && h[0] === 1 ? 20 : 12;
          if (track && h.length >= at + 4) track.id = u32be(h, at);
        });
      case "moov/trak/mdia/mdhd":
        return head(32, length, (h) => {
          const t = timing(h, box("mdhd", h));
          if (!track) return;
          track.timescale = t.timescale;
          track.stated = t.duration;
        });
      case "moov/trak/mdia/hdlr":
        // version/flags, pre_defined, handler_type.
        return head(12, length, (h) => {
          if (track && h.length >= 12) track.handler = String.fromCharCode(h[8]!, h[9]!, h[10]!, h[11]!);
        });
      case "moov/trak/mdia/minf/stbl/stsd":
        // Kept (bounded) and read when the track closes: `hdlr` may come after it.
        if (track) track.stsdLength = length;
        return head(STSD_KEPT, length, (h) => {
          if (track) track.stsd = h.slice();
        });
      case "moov/trak/mdia/minf/stbl/stts": {
        // A second `stts` is malformed, and FFmpeg times the samples by the last one: a first one patched shorter
        // would lower the bill. Each is summed alone, then folded so that the fold is at least what any one plays.
        let ticks = 0;
        let timed = 0;
        let last = 0;
        let entries = 0;
        let one = false;
        return table(
          length,
          8,
          "stts",
          (e, at) => {
            entries++;
            one = u32be(e, at + 4) === 1;
            last = sttsDelta(u32be(e, at + 4));
            ticks += u32be(e, at) * last;
            timed += u32be(e, at);
          },
          () => {
            if (!track) return;
            const first = track.timed < 0;
            track.samples = Math.max(track.samples, ticks);
            track.timed = first ? timed : Math.min(track.timed, timed);
            track.lastDelta = Math.max(track.lastDelta, last);
            track.chunked = entries === 1 && one;
          },
        );
      }
      case "moov/trak/mdia/minf/stbl/stsz":
      case "moov/trak/mdia/minf/stbl/stz2":
        // version/flags, sample size (stz2: reserved and field size), sample count. A body too short holds no count:
        // ignored here (the sample table's own readers judge it).
        return head(12, length, (h) => {
          if (!track || h.length < 12) return;
          track.sized = Math.max(track.sized, u32be(h, 8));
          if (path.endsWith("stsz")) track.sampleSize = Math.max(track.sampleSize, u32be(h, 4));
        });
      case "moov/trak/mdia/minf/stbl/stco":
      case "moov/trak/mdia/minf/stbl/co64": {
        // The count, refused when the entries overrun the box as the in-memory reader refuses them (isobmff.ts), so
        // both paths do; the entries walked only with `fileLength` (the streamed walk), the track's first of each.
        const wide = path.endsWith("co64");
        const fileLength = this.#fileLength;
        const check = fileLength !== null && track !== null && !(wide ? track.co64Seen : track.stcoSeen);
        if (track) wide ? (track.co64Seen = true) : (track.stcoSeen = true);
        return table(
          length,
          wide ? 8 : 4,
          type,
          (e, at) => {
            if ((wide ? u64be(e, at) : u32be(e, at)) >= fileLength!) this.#offsetPastEnd = true;
          },
          undefined,
          undefined,
          (count) => {
            if (track) track.chunks = Math.max(track.chunks, count);
            return check;
          },
        );
      }
      case "moov/trak/mdia/minf/stbl/stsc": {
        // Entries (first chunk, samples per chunk, description): each run holds its samples per chunk until the next
        // run's first chunk, the last until the chunk count (known at the track's end: `stco` may come later).
        // Only chunk-demuxed audio needs them: a track already known to be video, or timed sample by sample, has its
        // overrun checked but no walk (an interleaved AAC track's 4,000 entries cost the in-memory inspection +36 %).
        if (track && ((track.handler !== "" && track.handler !== "soun") || (track.timed >= 0 && !track.chunked))) {
          track.stscSkipped = true;
          return table(
            length,
            12,
            "stsc",
            () => {},
            undefined,
            undefined,
            () => false,
          );
        }
        let runs = 0;
        let first = -1;
        let perChunk = 0;
        let index = 0;
        let invalid = false;
        let most = 0;
        return table(
          length,
          12,
          "stsc",
          (e, at) => {
            const next = u32be(e, at);
            if (first >= 0) runs += perChunk * Math.max(0, next - first);
            perChunk = u32be(e, at + 4);
            // FFmpeg's invalid entry (mov_read_stsc): first chunk not above the previous one's or below its index + 1,
            // no samples per chunk, description index 0.
            if (next <= first || next < ++index || perChunk < 1 || u32be(e, at + 8) < 1) invalid = true;
            first = next;
            most = Math.max(most, perChunk);
          },
          () => {
            if (!track || first < 0) return;
            const s = track.stsc;
            track.stsc =
              s === null
                ? { runs, lastPerChunk: perChunk, lastFirst: first, invalid, most }
                : {
                    runs: Math.max(s.runs, runs),
                    lastPerChunk: Math.max(s.lastPerChunk, perChunk),
                    lastFirst: Math.min(s.lastFirst, first),
                    invalid: s.invalid || invalid,
                    most: Math.max(s.most, most),
                  };
          },
        );
      }
      case "moov/trak/edts/elst": {
        // Too short to hold its count: no edit list (as before).
        if (length < 8) return null;
        // A second `elst` is malformed, and FFmpeg cuts to the last one: a first one patched shorter would lower the
        // bill. So several fold to at least what any one plays (none empty: uncut).
        let v1 = false;
        const edit: Edit = { ticks: 0, normals: 0, whole: 0 };
        return table(
          length,
          (version) => ((v1 = version === 1) ? 20 : 12),
          "elst",
          (e, at) => {
            const duration = v1 ? u64be(e, at) : u32be(e, at);
            // media_time -1 (an empty edit) or a media rate of 0 (a dwell): the segment plays its whole duration.
            const empty = v1 ? u32be(e, at + 8) === 0xffff_ffff && u32be(e, at + 12) === 0xffff_ffff : u32be(e, at + 4) === 0xffff_ffff;
            const dwell = u16be(e, at + (v1 ? 16 : 8)) === 0;
            edit.ticks += duration;
            if (empty || dwell) edit.whole += duration;
            else edit.normals++;
          },
          () => {
            if (!track) return;
            const t = track.edit;
            track.edit =
              t === null
                ? edit
                : t.ticks === 0 || edit.ticks === 0
                  ? { ticks: 0, normals: 0, whole: 0 }
                  : {
                      ticks: Math.max(t.ticks, edit.ticks),
                      normals: Math.max(t.normals, edit.normals),
                      whole: Math.max(t.whole, edit.whole),
                    };
          },
        );
      }
      case "moof/traf/tfhd":
        return this.#tfhd(length);
      case "moof/traf/tfdt":
        return head(12, length, (h) => {
          const v1 = h.length > 0 && h[0] === 1;
          if (h.length < (v1 ? 12 : 8)) corrupt("'tfdt' box too short");
          if (this.#traf) this.#traf.tfdt = v1 ? u64be(h, 4) : u32be(h, 4);
        });
      case "moof/traf/trun":
        return this.#trun(length);
    }
    return null;
  }

  /** The path of `type` inside the innermost container when it counts there (first of its type, if so ruled), else null. */
  #admit(type: string): string | null {
    const parent = this.#frames.at(-1);
    if (!parent || parent.path === null) return null;
    if (++parent.kids > MAX_BOXES_PER_LEVEL) corrupt("too many boxes in one level");
    const rule = RULES.get(parent.path)?.get(type);
    // FFmpeg's box reader is not nested: a fragment box inside a container the duration reads but not where fragments
    // are read (a `moof` in `moov`: its size grown over the first one) is still played, and would not be counted.
    if (rule === undefined && (type === "moof" || type === "traf" || type === "trun")) {
      corrupt(`a track fragment box ('${type}') inside '${parent.path === "watched" ? [...WATCHED].join("', '") : parent.path}'`);
    }
    if (rule === undefined) return null;
    if (rule.bit !== 0) {
      if (parent.seen & rule.bit) return null;
      parent.seen |= rule.bit;
    }
    return rule.path;
  }

  #closeTrack(): void {
    const t = this.#track;
    this.#track = null;
    if (!t) return;
    // A track with samples and no timescale (no `mdhd`, or one stating 0) would count nothing, while FFmpeg times it by
    // mvhd's timescale (or 1) and plays it: its mdhd removed, a video FFmpeg plays 10 s billed its audio's 1.2 s.
    if (t.timescale <= 0 && (t.timed > 0 || t.sized > 0)) corrupt("a track with samples but no 'mdhd' timescale");
    // Samples `stts` leaves untimed play as long as its last delta each (FFmpeg's index reuses it): an `stts` entry's
    // count patched to 1 (with mvhd/mdhd/tkhd) made a 10 s video bill 0.04 s while it played 10 s.
    if (t.timed >= 0 && t.sized > t.timed) t.samples += (t.sized - t.timed) * t.lastDelta;
    if (t.timescale > 0) this.#trackStated = Math.max(this.#trackStated, t.stated / t.timescale);
    // An audio track's codec floor: its samples decode to at least this much whatever `stts` states (every delta
    // patched to 1 tick billed a 10 s M4A 0.01 s). The samples: `stsz`/`stz2`'s count, else what `stts` times.
    let floor: CodecFloor = NO_FLOOR;
    if (t.handler === "soun" && t.stsd !== null) {
      if (t.stsdLength > STSD_KEPT) corrupt(`an audio sample description over ${STSD_KEPT} bytes`);
      floor = codecFloor(t.stsd);
      // Chunk-demuxed, a sample is one decoded frame (or a byte FFmpeg's parser joins into packets): only PCM's
      // one frame per sample still holds (and AC-3/E-AC-3's bytes, below).
      if (t.chunked && !floor.pcm) floor = NO_FLOOR;
    }
    // Chunk-demuxed, FFmpeg plays the samples `stsc` puts in the chunks (a timestamp tick each), whatever `stts` and
    // `stsz` count: a PCM MOV with both counts and its stated lengths patched to 1 played 3 s and was billed 0.001 s.
    const chunkAudio = t.chunked && t.handler === "soun";
    // Only a second `stts` after `stsc` (malformed) makes a track chunk-demuxed after its `stsc` was passed over.
    if (chunkAudio && t.stscSkipped) corrupt("an 'stsc' before an 'stts' that makes its audio track chunk-demuxed");
    const inChunks = chunkAudio ? chunkSamples(t) : 0;
    const count = Math.max(t.sized > 0 ? t.sized : Math.max(0, t.timed), inChunks);
    // AC-3 and E-AC-3 are also held to their bytes (chunk-demuxed, the only floor they have; see byteFloor).
    const bytes = t.handler === "soun" && t.stsd !== null ? byteFloor(t.stsd, t.chunked, inChunks, t.sampleSize, count) : 0;
    const ticks = Math.max(t.samples, inChunks);
    const media = Math.max(t.timescale > 0 ? ticks / t.timescale : 0, Math.max(0, count - floor.spare) * floor.perSample, bytes);
    if (t.id !== null && !this.#byId.has(t.id) && this.#byId.size < FRAGMENTED_TRACKS_MAXIMUM) {
      this.#byId.set(t.id, {
        timescale: t.timescale,
        samples: t.samples,
        ticks: 0,
        cursor: t.samples,
        first: 0,
        last: 0,
        counted: false,
        perSample: floor.perSample,
        spare: floor.spare,
        count,
      });
    }
    if (this.#editTimescale === 0 && t.edit !== null && t.edit.ticks > 0 && t.timescale > 0 && this.#pending.length < PENDING_TRACKS) {
      this.#pending.push({ media, edit: t.edit });
      return;
    }
    this.#played = Math.max(this.#played, trackPlayedSeconds(media, t.edit, this.#editTimescale));
  }

  /** `tfhd`: version/flags, track_ID, then the optional fields its flags announce (ISO/IEC 14496-12 8.8.7). */
  #tfhd(length: number): BodySink {
    // A second one is malformed (FFmpeg reads the last, patched to a longer default duration or another track).
    if (this.#traf?.tfhd) corrupt("a second 'tfhd' in a track fragment");
    return head(28, length, (h) => {
      const traf = this.#traf;
      if (h.length < 8) corrupt("'tfhd' box too short");
      const flags = u32be(h, 0) & 0xff_ffff;
      const at = 8 + (flags & 1 ? 8 : 0) + (flags & 2 ? 4 : 0);
      const fields = at + (flags & 8 ? 4 : 0) + (flags & 0x10 ? 4 : 0) + (flags & 0x20 ? 4 : 0);
      if (h.length < fields) corrupt("'tfhd' box too short for its flags");
      if (!traf) return;
      const id = u32be(h, 4);
      traf.tfhd = true;
      traf.fragments = this.#byId.get(id) ?? null;
      traf.defaultDuration = flags & 8 ? u32be(h, at) : (this.#trexById.get(id) ?? 0);
      traf.defaultStated = (flags & 8) !== 0 || this.#trexById.has(id);
    });
  }

  /**
   * `trun`: version/flags, sample_count, the optional data offset and first sample's flags, then per sample the fields
   * its flags announce (duration first). A sample without its own duration takes the default (tfhd, else trex).
   */
  #trun(length: number): BodySink {
    const traf = this.#traf;
    if (traf && !traf.tfhd) corrupt("a 'trun' before its track fragment's 'tfhd'");
    let perSample = false;
    return table(
      length,
      (_version, flags) => {
        perSample = (flags & 0x100) !== 0;
        return (flags & 0x100 ? 4 : 0) + (flags & 0x200 ? 4 : 0) + (flags & 0x400 ? 4 : 0) + (flags & 0x800 ? 4 : 0);
      },
      "trun",
      (e, at) => {
        if (traf) traf.ticks += u32be(e, at);
      },
      undefined,
      (flags) => (flags & 1 ? 4 : 0) + (flags & 4 ? 4 : 0),
      (count) => {
        // Without per-sample durations the entries need no walk: count × default (linear in the box, not the count).
        if (traf) traf.count += count;
        // Samples with no duration anywhere (no per-sample field, no tfhd default, the track's mandatory `trex`
        // removed) would count 0 ticks while FFmpeg still plays them: a 2.9 s fragmented MP4 was billed 1.4 s.
        if (traf?.fragments && !perSample && count > 0 && !traf.defaultStated)
          corrupt("track fragment samples with no duration (no per-sample duration, 'tfhd' default or 'trex')");
        if (traf && !perSample) traf.ticks += count * traf.defaultDuration;
        return perSample;
      },
    );
  }

  #closeTraf(): void {
    const traf = this.#traf;
    this.#traf = null;
    const f = traf?.fragments;
    if (!traf || !f) return;
    // Fragments of a track with no timescale (its `mdhd` missing or stating 0) would count nothing; FFmpeg plays them.
    if (f.timescale <= 0 && traf.count > 0) corrupt("fragments of a track with no 'mdhd' timescale");
    const start = traf.tfdt ?? f.cursor;
    const end = start + traf.ticks;
    f.first = f.counted ? Math.min(f.first, start) : start;
    f.last = Math.max(f.last, end);
    f.cursor = end;
    f.ticks += traf.ticks;
    f.count += traf.count;
    f.counted = true;
  }
}

/** `h` read as a box body (for the readers shared with the in-memory inspector). */
function box(type: string, h: Uint8Array): Box {
  return { type, start: 0, body: 0, end: h.length };
}

/**
 * A consumer of a body's first `want` bytes (fewer for a shorter body of `length`), calling `done` with them once all
 * arrived: a view of the part when one part holds them (the in-memory walk, most streamed boxes), else a copy.
 */
function head(want: number, length: number, done: (h: Uint8Array) => void): BodySink {
  const need = Math.min(want, length);
  let copy: Uint8Array | null = null;
  let got = 0;
  if (need === 0) done(new Uint8Array(0));
  return {
    take(part) {
      if (got >= need) return;
      if (got === 0 && part.length >= need) {
        got = need;
        return done(part.subarray(0, need));
      }
      copy ??= new Uint8Array(need);
      const n = Math.min(part.length, need - got);
      copy.set(part.subarray(0, n), got);
      got += n;
      if (got === need) done(copy);
    },
    end() {},
  };
}

/**
 * A consumer for a full box holding a table: version and flags (4), an entry count (4), `extra(flags)` more header
 * bytes, then `count` entries of `width` bytes (fixed, or from the version and flags). Entries past the box's end are
 * refused as soon as the count is read (`length` is the body's size), as the in-memory reading refuses them; bytes
 * after the entries are ignored. `entry` gets each entry (`e` at `at`, read in place when one part holds it);
 * `counted` may decline the walk. Nothing is copied but an entry or the 8-byte header cut by a part boundary.
 */
function table(
  length: number,
  width: number | ((version: number, flags: number) => number),
  name: string,
  entry: (e: Uint8Array, at: number) => void,
  done?: () => void,
  extra: (flags: number) => number = () => 0,
  counted: (count: number) => boolean = () => true,
): BodySink {
  if (length < 8) corrupt(`${name} entries overrun the box`);
  let header: Uint8Array | null = null;
  let headerGot = 0;
  /** Header bytes still to skip after the first 8 (the trun's data offset and first sample's flags). */
  let skip = -1;
  let size = 0;
  let left = 0;
  let walk = false;
  let carry: Uint8Array | null = null;
  let carried = 0;
  const start = (h: Uint8Array, at: number) => {
    const flags = u32be(h, at) & 0xff_ffff;
    skip = extra(flags);
    if (8 + skip > length) corrupt(`'${name}' box too short`);
    size = typeof width === "number" ? width : width(u8(h, at), flags);
    left = u32be(h, at + 4);
    if (8 + skip + left * size > length) corrupt(`${name} entries overrun the box`);
  };
  return {
    take(part) {
      let at = 0;
      if (headerGot < 8) {
        if (headerGot === 0 && part.length >= 8) {
          start(part, 0);
          headerGot = 8;
          at = 8;
        } else {
          header ??= new Uint8Array(8);
          const n = Math.min(part.length, 8 - headerGot);
          header.set(part.subarray(0, n), headerGot);
          headerGot += n;
          at = n;
          if (headerGot < 8) return;
          start(header, 0);
        }
        if (skip === 0) walk = counted(left) && size > 0;
      }
      if (skip > 0) {
        const n = Math.min(skip, part.length - at);
        skip -= n;
        at += n;
        if (skip > 0) return;
        walk = counted(left) && size > 0;
      }
      if (!walk) return;
      if (carried > 0) {
        const n = Math.min(part.length - at, size - carried);
        carry!.set(part.subarray(at, at + n), carried);
        carried += n;
        at += n;
        if (carried < size) return;
        entry(carry!, 0);
        carried = 0;
        left--;
      }
      while (left > 0 && part.length - at >= size) {
        entry(part, at);
        at += size;
        left--;
      }
      if (left > 0 && at < part.length) {
        carry ??= new Uint8Array(size);
        carried = part.length - at;
        carry.set(part.subarray(at), 0);
      }
    },
    end() {
      if (headerGot < 8) corrupt(`${name} entries overrun the box`);
      done?.();
    },
  };
}

/**
 * An `stts` sample delta as players take it: legacy MOV writers store negative DTS corrections in this unsigned field
 * (0xFFFFFC00 for -1024), which FFmpeg reads as a delta of 1 past its max_stts_delta (2^32 - 1 - 480000). Counted as
 * written, one such entry made a 3 s M4A play 27 h here (over the pricing envelope).
 */
function sttsDelta(delta: number): number {
  return delta > 0xffff_ffff - 480_000 ? 1 : delta;
}

/**
 * What a track plays, in seconds: its media's length (`media` seconds: its samples), or when it has a non-empty edit
 * list (in the movie's timescale) what that presents, as players present only the edited span (an encoder's priming
 * samples, a trimmed clip) but all of it: its length, each media segment at most the whole media (a segment repeated
 * 3 times played a 10 s video for 30 s; cut to the media, it billed 10 s). 0 when not known (no samples).
 */
function trackPlayedSeconds(media: number, edit: Edit | null, movieTimescale: number): number {
  if (media <= 0) return 0;
  // No edit list, or one of zero length (fragmented writers' convention), or no movie timescale to read it by.
  if (edit === null || edit.ticks <= 0 || movieTimescale <= 0) return media;
  return Math.min(edit.ticks / movieTimescale, edit.normals * media + edit.whole / movieTimescale);
}

/** The in-memory walk: the top-level boxes `top` of `b` fed to a MovieTiming in file order. Throws CorruptError. */
export function measureMovie(b: Uint8Array, top: readonly Box[]): MovieTiming {
  const timing = new MovieTiming();
  for (const t of top) {
    if (!timing.openTop(t.type)) continue;
    feed(b, t, 1, timing);
    timing.close();
  }
  return timing;
}

function feed(b: Uint8Array, container: Box, depth: number, timing: MovieTiming): void {
  for (const k of boxes(b, container.body, container.end, depth)) {
    if (u32be(b, k.start) === 0) timing.zeroSized();
    if (CONTAINERS.has(k.type) || WATCHED.has(k.type)) {
      if (timing.open(k.type)) feed(b, k, depth + 1, timing);
      timing.close();
      continue;
    }
    const sink = timing.leaf(k.type, k.end - k.body);
    if (!sink) continue;
    sink.take(b.subarray(k.body, k.end));
    sink.end();
  }
}

/**
 * The least an audio sample decodes to, in seconds (0: no floor), and how many samples may decode to less (an
 * encoder's priming and last frame, a decoder skipping its delay).
 */
export interface CodecFloor {
  perSample: number;
  spare: number;
  /** Every description read is PCM (one frame per sample however the track is demuxed). */
  pcm?: boolean;
}
const NO_FLOOR: CodecFloor = { perSample: 0, spare: 0 };
/** The highest rate an AAC decoder outputs (SBR included): a stated rate above it is read as it (never a longer floor). */
const AAC_MAXIMUM_RATE = 96_000;
/** The highest PCM rate read (DXD-class 768 kHz): a stated rate above it is read as it. */
const PCM_MAXIMUM_RATE = 768_000;
const PCM = new Set(["lpcm", "sowt", "twos", "ipcm", "fpcm", "in24", "in32", "fl32", "fl64", "raw ", "NONE"]);

/**
 * What each sample of an audio track decodes to at least, from its sample descriptions (`stsd` body `b`), or no
 * floor: the first must be a codec whose frames are fixed or bounded below, the least of the known ones is taken.
 * Bounds, per sample: AAC (Main/LC/LTP, SBR and PS read by their core) 1024 or 960 at its
 * core rate; ALAC its frame length; PCM one frame; AC-3 1536 at 48 kHz; E-AC-3 256 at 48 kHz; MP3 (`.mp3`) 24 ms
 * (1152 at 48 kHz, 576 at 24 kHz); MPEG audio in `mp4a` 8 ms (layer I, 384 at 48 kHz); Opus 2.5 ms less its
 * pre-skip. Bogus lengths anywhere give no floor for that description (so none), never a read past `b`.
 */
export function codecFloor(b: Uint8Array): CodecFloor {
  if (b.length < 8) return NO_FLOOR;
  const count = u32be(b, 4);
  if (count === 0) return NO_FLOOR;
  let perSample = Number.POSITIVE_INFINITY;
  let spare = 0;
  let pcm = true;
  let at = 8;
  for (let i = 0; i < count; i++) {
    if (at + 8 > b.length) return NO_FLOOR;
    const size = u32be(b, at);
    if (size < 36 || at + size > b.length) return NO_FLOOR;
    const one = entryFloor(b, at, at + size);
    // The first description names the codec FFmpeg decodes every sample with (a later one changes only its
    // configuration): unknown, no floor. A later unknown one is passed over (with it, an added bogus description
    // undid the floor); a later known one can only lower it.
    if (one.perSample <= 0) {
      if (i === 0) return NO_FLOOR;
      at += size;
      continue;
    }
    perSample = Math.min(perSample, one.perSample);
    spare = Math.max(spare, one.spare);
    pcm &&= one.pcm === true;
    at += size;
  }
  return { perSample, spare, pcm };
}

/** One audio sample entry `b[start, end)` (QuickTime versions 0, 1 and 2; ISO's version 0 and 1). */
function entryFloor(b: Uint8Array, start: number, end: number): CodecFloor {
  const type = String.fromCharCode(b[start + 4]!, b[start + 5]!, b[start + 6]!, b[start + 7]!);
  const version = u16be(b, start + 16);
  let rate = u32be(b, start + 32) / 65536;
  let kids = start + 36;
  if (version === 1) kids = start + 52;
  else if (version === 2) {
    if (end - start < 72) return NO_FLOOR;
    rate = new DataView(b.buffer, b.byteOffset + start + 40, 8).getFloat64(0);
    kids = start + 72;
  }
  // ISO's AudioSampleEntryV1 keeps the version 0 layout: its boxes are looked for there too.
  const find = (want: string) =>
    findBox(b, Math.min(kids, end), end, want) ?? (kids !== start + 36 ? findBox(b, start + 36, end, want) : null);
  if (PCM.has(type)) {
    // ISO's `srat` states a rate the 16.16 field cannot hold (above 65,535 Hz).
    const srat = find("srat");
    if (srat && srat[1] - srat[0] >= 8) rate = Math.max(rate, u32be(b, srat[0] + 4));
    if (!(rate > 0) || !Number.isFinite(rate)) return NO_FLOOR;
    return { perSample: 1 / Math.min(rate, PCM_MAXIMUM_RATE), spare: 0, pcm: true };
  }
  switch (type) {
    case "mp4a": {
      const esds = find("esds");
      if (!esds) return aacWithout(rate);
      return esdsFloor(b, esds[0], esds[1], rate);
    }
    case "alac": {
      const alac = find("alac");
      if (!alac) return NO_FLOOR;
      // ALACSpecificConfig (24 bytes) after the full box's version/flags (without them inside a QuickTime `wave`).
      const c = alac[1] - alac[0] >= 28 ? alac[0] + 4 : alac[0];
      if (alac[1] - c < 24) return NO_FLOOR;
      const frame = u32be(b, c);
      const alacRate = u32be(b, c + 20);
      if (frame === 0 || frame > 65_536 || alacRate === 0) return NO_FLOOR;
      // ALAC's rates stop at 384 kHz: a higher one stated is read as it (a patched rate cannot shrink the floor more).
      return { perSample: frame / Math.min(alacRate, 384_000), spare: 1 };
    }
    case "ac-3":
      return { perSample: 1536 / 48_000, spare: 3 };
    case "ec-3":
      return { perSample: 256 / 48_000, spare: 3 };
    case ".mp3":
      return { perSample: 0.024, spare: 3 };
    case "Opus": {
      const dops = find("dOps");
      if (!dops || dops[1] - dops[0] < 4) return NO_FLOOR;
      // A packet plays 2.5 ms at least; the pre-skip (samples at 48 kHz) is dropped once, at the start.
      const preSkip = u16be(b, dops[0] + 2);
      return { perSample: 0.0025, spare: 3 + Math.ceil(preSkip / 120) };
    }
  }
  return NO_FLOOR;
}

/**
 * The most bytes a second of each codec holds, from A/52 (ETSI TS 102 366): AC-3's largest syncframe is 1,394 words
 * (640 kbit/s at 44.1 kHz, its padded size) for 1,536 samples, 80,046 B/s, just over 640 kbit/s; an E-AC-3 syncframe
 * is at most 2,048 words for one 256-sample block at 48 kHz, 768,000 B/s, the 6.144 Mbit/s E-AC-3 tops out at. So
 * bytes ÷ this rate is never more than those bytes play, frame by frame.
 */
export const AC3_MAXIMUM_BYTE_RATE = (2 * 1394 * 44_100) / 1536;
export const EAC3_MAXIMUM_BYTE_RATE = 6_144_000 / 8;

/**
 * The samples `stsc` puts in the track's chunks (FFmpeg's chunk-demuxed reading), 0 when there is no `stsc`. FFmpeg
 * repairs an invalid entry before reading (a non-last one takes the next entry's samples per chunk from the chunk
 * before the next one's first): read as written, a run of 0 samples or one whose successor's first chunk goes back
 * counted fewer samples than FFmpeg plays (3 s billed 2.085 s). Every chunk FFmpeg plays then holds some entry's
 * samples (at least 1), so such a table is held to the chunk count × the most samples per chunk any entry states.
 */
function chunkSamples(t: Track): number {
  const s = t.stsc;
  if (s === null) return 0;
  const read = s.runs + s.lastPerChunk * Math.max(0, t.chunks - (s.lastFirst - 1));
  return s.invalid ? Math.max(read, t.chunks * Math.max(1, s.most)) : read;
}

/**
 * The seconds an AC-3 or E-AC-3 track's bytes play at least (0 for other codecs): its bytes ÷ the codec's highest
 * byte rate. The bytes are those FFmpeg hands the decoder. Sample by sample: `stsz`'s constant size × its count (a
 * track of sizes per sample gets none here: its codec floor holds). Chunk-demuxed (`chunked`: one `stts` entry of
 * 1 tick, where a sample is a decoded frame and the codec floor reads none): the samples `stsc` puts in the chunks
 * (`chunkSamples`), in packets of QuickTime's version 1/2 fields when they state some (bytes per frame ÷ samples per
 * frame; FFmpeg keeps the last description's), else of `stsz`'s constant size each. FFmpeg reads those fields from
 * a version 1/2 description in an `stsd` of version 0 whatever the brand, from one in a later `stsd` only in a
 * QuickTime-branded file (this walk reads no `ftyp`): there the larger of the two readings. Patching any of these
 * smaller makes FFmpeg read, so play, fewer bytes. Without it, a patched AC-3 M4A played 4 s and was billed its ticks,
 * 0.003 s.
 */
export function byteFloor(b: Uint8Array, chunked: boolean, inChunks: number, sampleSize: number, samples: number): number {
  if (b.length < 8 + 36) return 0;
  const first = u32be(b, 8);
  if (first < 36 || 8 + first > b.length) return 0;
  const type = String.fromCharCode(b[12]!, b[13]!, b[14]!, b[15]!);
  const rate = type === "ac-3" ? AC3_MAXIMUM_BYTE_RATE : type === "ec-3" ? EAC3_MAXIMUM_BYTE_RATE : 0;
  if (rate === 0) return 0;
  if (!chunked) return (sampleSize * samples) / rate;
  let perFrame = 0;
  let bytesPerFrame = 0;
  const count = u32be(b, 4);
  for (let i = 0, at = 8; i < count && at + 36 <= b.length; i++) {
    const size = u32be(b, at);
    if (size < 36 || at + size > b.length) break;
    const version = u16be(b, at + 16);
    if (version === 1 && size >= 52) {
      perFrame = u32be(b, at + 36);
      bytesPerFrame = u32be(b, at + 44);
    } else if (version === 2 && size >= 72) {
      bytesPerFrame = u32be(b, at + 64);
      perFrame = u32be(b, at + 68);
    }
    at += size;
  }
  const packets = perFrame > 1 ? (inChunks * bytesPerFrame) / perFrame : 0;
  const plain = inChunks * sampleSize;
  // Samples per frame stated but no bytes per frame: FFmpeg indexes nothing; the bytes `stsz` states are billed.
  const bytes = b[0] === 0 ? (perFrame > 1 && bytesPerFrame > 0 ? packets : plain) : Math.max(packets, plain);
  return bytes / rate;
}

/** AAC without a readable AudioSpecificConfig (FFmpeg decodes it by the sample entry): 960 at the rate stated, at most 96 kHz. */
function aacWithout(rate: number): CodecFloor {
  const r = rate > 0 && Number.isFinite(rate) ? Math.min(rate, AAC_MAXIMUM_RATE) : AAC_MAXIMUM_RATE;
  return { perSample: 960 / r, spare: 3 };
}

/** The first box of `type` in `b[start, end)`, descending into a QuickTime `wave`: its body's [start, end), or null. */
function findBox(b: Uint8Array, start: number, end: number, type: string, depth = 0): [number, number] | null {
  for (let at = start; at + 8 <= end; ) {
    const size = u32be(b, at);
    if (size < 8 || at + size > end) return null;
    const t = String.fromCharCode(b[at + 4]!, b[at + 5]!, b[at + 6]!, b[at + 7]!);
    if (t === type) return [at + 8, at + size];
    if (t === "wave" && depth === 0) {
      const inner = findBox(b, at + 8, at + size, type, 1);
      if (inner) return inner;
    }
    at += size;
  }
  return null;
}

/** `esds` (version/flags, ES_Descriptor → DecoderConfigDescriptor → DecoderSpecificInfo) in `b[start, end)`. */
function esdsFloor(b: Uint8Array, start: number, end: number, rate: number): CodecFloor {
  let esds: ReturnType<typeof esdsDescriptors>;
  try {
    esds = esdsDescriptors(b, start + 4, end);
  } catch {
    return aacWithout(rate);
  }
  // MPEG-1/2 audio: the layer is not stated here, so layer I's 384 samples at 48 kHz (8 ms).
  if (esds.objectType === 0x6b || esds.objectType === 0x69) return { perSample: 0.008, spare: 3 };
  if (esds.objectType !== 0x40 && esds.objectType !== 0x66 && esds.objectType !== 0x67 && esds.objectType !== 0x68) return NO_FLOOR;
  if (!esds.specific) return aacWithout(rate);
  const core = aacCore(b, esds.specific[0], esds.specific[1]);
  return core ? { perSample: core.frameLength / Math.min(core.rate, AAC_MAXIMUM_RATE), spare: 3 } : NO_FLOOR;
}
