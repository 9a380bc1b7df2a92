import { hex } from "../../platform/bytes";
import { sha256Hex } from "../../platform/crypto";
import { tarEnd, tarHeader, tarPadding } from "./tar";

/*
 * The archive writer: tar members streamed into one R2 multipart upload. Bytes are gathered into fixed-size parts
 * (R2 wants every part but the last at least 5 MiB and all of one size), so at most one part sits in memory whatever
 * the tenant's size. The archive's SHA-256 and each member's are computed as the bytes pass (DigestStream). The
 * manifest, whose file list grows with the tenant, is streamed the same way into a second upload while the archive
 * is written, then streamed into the archive as its last member but one.
 */

/** 5 MiB: R2's smallest part (every part but the last). */
export const PART_BYTES = 5 * 1024 * 1024;

/** One member of the archive as the manifest lists it. Invariant: `sha256` and `size` are of exactly the bytes written. */
export interface ArchivedFile {
  path: string;
  size: number;
  sha256: string;
}

/** R2 takes at most this many parts per upload: an archive is at most PART_BYTES × MAX_PARTS (about 48.8 GiB). */
export const MAX_PARTS = 10_000;

/** Raised when the archive would need more parts than R2 takes: the export fails as too large. */
export class ArchiveTooLarge extends Error {}

/** Raised when a member's stream does not hold what its row says (length or hash): the export must fail, not seal. */
export class MemberMismatch extends Error {}

async function digestOf(stream: DigestStream): Promise<string> {
  return hex(new Uint8Array(await stream.digest));
}

/**
 * Bytes gathered into fixed-size parts of one R2 multipart upload and hashed as they pass. Invariant: at most one
 * part is held in memory; `finish` completes the upload with exactly the bytes written, in order.
 */
export class PartSink {
  private readonly part: Uint8Array;
  private fill = 0;
  private readonly parts: R2UploadedPart[] = [];
  private readonly digest = new crypto.DigestStream("SHA-256");
  private readonly digestWriter = this.digest.getWriter();
  private written = 0;

  constructor(
    private readonly upload: R2MultipartUpload,
    partBytes = PART_BYTES,
  ) {
    this.part = new Uint8Array(partBytes);
  }

  async write(chunk: Uint8Array) {
    if (chunk.length === 0) return;
    await this.digestWriter.write(chunk.slice());
    this.written += chunk.length;
    let offset = 0;
    while (offset < chunk.length) {
      const take = Math.min(this.part.length - this.fill, chunk.length - offset);
      this.part.set(chunk.subarray(offset, offset + take), this.fill);
      this.fill += take;
      offset += take;
      if (this.fill === this.part.length) await this.flush();
    }
  }

  private async flush() {
    if (this.fill === 0) return;
    if (this.parts.length >= MAX_PARTS) throw new ArchiveTooLarge(`more than ${MAX_PARTS} parts`);
    this.parts.push(await this.upload.uploadPart(this.parts.length + 1, this.part.slice(0, this.fill)));
    this.fill = 0;
  }

  /** Uploads the last part, completes the upload, and returns the length and SHA-256 of everything written. */
  async finish(): Promise<{ byteLength: number; sha256: string }> {
    await this.flush();
    await this.upload.complete(this.parts);
    await this.digestWriter.close();
    return { byteLength: this.written, sha256: await digestOf(this.digest) };
  }
}

/** Tar members written into a PartSink (the archive). */
export class ArchiveWriter {
  constructor(
    private readonly sink: PartSink,
    private readonly mtimeMs: number,
  ) {}

  private write(chunk: Uint8Array) {
    return this.sink.write(chunk);
  }

  /** A member held in memory (a page of records, the manifest). */
  async addBytes(path: string, bytes: Uint8Array): Promise<ArchivedFile> {
    await this.write(tarHeader(path, bytes.length, this.mtimeMs));
    await this.write(bytes);
    await this.write(tarPadding(bytes.length));
    return { path, size: bytes.length, sha256: await sha256Hex(bytes) };
  }

  /**
   * A member streamed through (a stored object): its header states `size` up front, so a stream that ends short or
   * runs long, or whose SHA-256 is not `expectedSha256`, throws MemberMismatch (the archive is then abandoned).
   */
  async addStream(path: string, size: number, body: ReadableStream<Uint8Array>, expectedSha256: string): Promise<ArchivedFile> {
    await this.write(tarHeader(path, size, this.mtimeMs));
    const digest = new crypto.DigestStream("SHA-256");
    const digestWriter = digest.getWriter();
    let seen = 0;
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      seen += value.length;
      if (seen > size) {
        await reader.cancel();
        throw new MemberMismatch(`${path}: longer than ${size} bytes`);
      }
      await digestWriter.write(value.slice());
      await this.write(value);
    }
    await digestWriter.close();
    const sha256 = await digestOf(digest);
    if (seen !== size) throw new MemberMismatch(`${path}: ${seen} bytes, expected ${size}`);
    if (sha256 !== expectedSha256) throw new MemberMismatch(`${path}: SHA-256 differs from the stored object's`);
    await this.write(tarPadding(size));
    return { path, size, sha256 };
  }

  /** Ends the archive and completes its upload: its length and SHA-256. */
  async finish(): Promise<{ byteLength: number; sha256: string }> {
    await this.write(tarEnd());
    return this.sink.finish();
  }
}
