/**
 * Cuts a stdio byte stream at newlines so that what passes on holds only whole lines, each line
 * copied once. The SDK's stdio reader joins every chunk it receives to what it holds and scans it
 * all again, so a 30 MB message sent in 64 KiB pieces cost it seconds (the time grows with the
 * square of the size) while every other request waited. A line longer than `maxLineBytes` is
 * dropped as it arrives, without being held, and reported to `onTooLong` with its length.
 *
 * @internal
 */
export class StdioLineFraming {
  readonly #maxLineBytes: number;
  readonly #onTooLong: (bytes: number) => void;
  /** The start of the line not yet ended, in the pieces it came in. */
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** The line not yet ended is too long: its bytes are counted, not kept. */
  #dropping = false;

  constructor(maxLineBytes: number, onTooLong: (bytes: number) => void) {
    this.#maxLineBytes = maxLineBytes;
    this.#onTooLong = onTooLong;
  }

  /** Takes the next piece of the stream; gives `pass` the whole lines it completes, if any. */
  push(chunk: Buffer, pass: (lines: Buffer) => void): void {
    const first = chunk.indexOf(10);
    if (first === -1) {
      this.#hold(chunk);
      return;
    }
    // The first newline ends the line held from earlier chunks; the lines after it, up to the
    // last newline, lie wholly in this chunk.
    const whole: Buffer[] = [];
    const firstLine = this.#endLine(chunk.subarray(0, first + 1));
    if (firstLine !== undefined) whole.push(firstLine);
    const last = chunk.lastIndexOf(10) + 1;
    if (chunk.length <= this.#maxLineBytes) {
      // No line inside the chunk can be longer than the chunk: passed on as one slice.
      if (last > first + 1) whole.push(chunk.subarray(first + 1, last));
    } else {
      for (let start = first + 1; start < last; ) {
        const end = chunk.indexOf(10, start) + 1;
        const line = this.#endLine(chunk.subarray(start, end));
        if (line !== undefined) whole.push(line);
        start = end;
      }
    }
    // The unfinished tail is held first: whatever `pass` does (even throw), the next chunk
    // continues the right line.
    if (last < chunk.length) this.#hold(chunk.subarray(last));
    if (whole.length > 0) pass(whole.length === 1 ? (whole[0] as Buffer) : Buffer.concat(whole));
  }

  /** At the end of the stream: a last line without its newline, as it is, if there is one. */
  end(): Buffer | undefined {
    const last =
      !this.#dropping && this.#pendingBytes > 0 ? Buffer.concat(this.#pending) : undefined;
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#dropping = false;
    return last;
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
