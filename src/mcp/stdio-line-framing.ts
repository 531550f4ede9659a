import { Transform, type TransformCallback } from "node:stream";

/**
 * Cuts a stdio byte stream at newlines so that what passes on holds only whole lines, each line
 * copied once. The SDK's stdio reader joins every chunk it receives to what it holds and scans it
 * all again, so a 30 MB message sent in 64 KiB pieces cost it seconds (the time grows with the
 * square of the size) while every other request waited. A line longer than `maxLineBytes` is
 * dropped as it arrives, without being held, and reported to `onTooLong` with its length.
 *
 * @internal
 */
export class StdioLineFraming extends Transform {
  readonly #maxLineBytes: number;
  readonly #onTooLong: (bytes: number) => void;
  /** The start of the line not yet ended, in the pieces it came in. */
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** The line not yet ended is too long: its bytes are counted, not kept. */
  #dropping = false;

  constructor(maxLineBytes: number, onTooLong: (bytes: number) => void) {
    super();
    this.#maxLineBytes = maxLineBytes;
    this.#onTooLong = onTooLong;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    const whole: Buffer[] = [];
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      const end = newline + 1;
      // Lines after the first of a chunk are as long as the chunk at most: checked only when a
      // chunk is longer than a line may be.
      if (start === 0 || chunk.length > this.#maxLineBytes) {
        const line = this.#endLine(chunk.subarray(start, end));
        if (line !== undefined) whole.push(line);
        start = end;
        continue;
      }
      const last = chunk.lastIndexOf(10) + 1;
      whole.push(chunk.subarray(start, last));
      start = last;
      break;
    }
    if (whole.length > 0) this.push(whole.length === 1 ? whole[0] : Buffer.concat(whole));
    if (start < chunk.length) this.#hold(chunk.subarray(start));
    done();
  }

  override _flush(done: TransformCallback): void {
    // A last line without its newline: passed on as it is (the reader waits for a newline).
    if (!this.#dropping && this.#pendingBytes > 0) this.push(Buffer.concat(this.#pending));
    done();
  }

  /** The line that `tail` ends (held pieces first), or undefined when it was too long. */
  #endLine(tail: Buffer): Buffer | undefined {
    const bytes = this.#pendingBytes + tail.length;
    const dropped = this.#dropping || bytes > this.#maxLineBytes;
    const line =
      dropped || this.#pending.length === 0 ? tail : Buffer.concat([...this.#pending, tail], bytes);
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#dropping = false;
    if (!dropped) return line;
    this.#onTooLong(bytes);
    return undefined;
  }

  #hold(piece: Buffer): void {
    this.#pendingBytes += piece.length;
    if (this.#dropping) return;
    if (this.#pendingBytes > this.#maxLineBytes) {
      this.#dropping = true;
      this.#pending = [];
      return;
    }
    this.#pending.push(piece);
  }
}
