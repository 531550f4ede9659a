const empty = Buffer.alloc(0);

/**
 * Collects what one run writes to one of a worker's output streams (stdout or stderr), up to a
 * byte limit shared by the run's streams, and finds the end-of-run marker the worker writes
 * after the run. Output between runs is read and dropped, so the host never buffers more than
 * the limit. Internal to the folder.
 */
export class OutputCapture {
  #chunks: Buffer[] = [];
  #bytes = 0;
  #marker: string | undefined;
  // Made from #marker when the first output of a run arrives: most runs print nothing.
  #markerBytes: Buffer | undefined;
  // The end of the previous chunk, where the start of a marker split across reads may sit.
  #tail: Buffer = empty;
  #onMarker: (() => void) | undefined;

  /** True while a run's output is being collected (from `begin` until its marker). */
  get active(): boolean {
    return this.#marker !== undefined;
  }

  /** Bytes collected for the current (or last) run. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Starts collecting for a run whose output ends with `marker`. */
  begin(marker: string, onMarker: () => void): void {
    if (this.#chunks.length > 0) this.#chunks = [];
    this.#bytes = 0;
    this.#tail = empty;
    this.#marker = marker;
    this.#markerBytes = undefined;
    this.#onMarker = onMarker;
  }

  /** Stops collecting (the run ended without a marker, e.g. its worker was killed). */
  end(): void {
    this.#marker = undefined;
    this.#onMarker = undefined;
  }

  /** Feeds a chunk read from the stream; returns the bytes it added to the run's output. */
  push(chunk: Buffer): number {
    if (this.#marker === undefined) return 0;
    this.#markerBytes ??= Buffer.from(this.#marker, "latin1");
    const marker = this.#markerBytes;
    const overlap = this.#tail;
    const search = overlap.length > 0 ? Buffer.concat([overlap, chunk]) : chunk;
    const found = search.indexOf(marker);
    if (found >= 0) {
      const end = found - overlap.length;
      let added = 0;
      if (end < 0) this.#trim(-end);
      else if (end > 0) added = this.#append(chunk.subarray(0, end));
      const onMarker = this.#onMarker;
      this.end();
      onMarker?.();
      return added;
    }
    const keep = Math.min(marker.length - 1, search.length);
    this.#tail = Buffer.from(search.subarray(search.length - keep));
    return this.#append(chunk);
  }

  /** The collected output as UTF-8 text. */
  text(): string {
    if (this.#bytes === 0) return "";
    return Buffer.concat(this.#chunks, this.#bytes).toString("utf8");
  }

  #append(bytes: Buffer): number {
    this.#chunks.push(bytes);
    this.#bytes += bytes.length;
    return bytes.length;
  }

  // Removes the start of a marker that was taken for output in an earlier chunk.
  #trim(count: number): void {
    let left = count;
    while (left > 0 && this.#chunks.length > 0) {
      const last = this.#chunks[this.#chunks.length - 1] as Buffer;
      if (last.length <= left) {
        this.#chunks.pop();
        left -= last.length;
        this.#bytes -= last.length;
      } else {
        this.#chunks[this.#chunks.length - 1] = last.subarray(0, last.length - left);
        this.#bytes -= left;
        left = 0;
      }
    }
  }
}
