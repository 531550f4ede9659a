/** The most bytes and nesting depth one message between the processes may have. */
export interface MessageLimits {
  /** The most bytes of a message's UTF-8 JSON text. */
  readonly maxMessageBytes: number;
  /**
   * The most levels of nested arrays and objects in a message, its envelope included. `Infinity`
   * skips the check (for messages from the host, which the worker trusts).
   */
  readonly maxMessageDepth: number;
}

/** Which limit a message broke: its size, its depth, or it was not JSON at all. */
export type MessageViolationKind = "size" | "depth" | "json";

/** A message that breaks the {@link MessageLimits} or is not JSON. Internal to the folder. */
export class MessageViolation extends Error {
  readonly kind: MessageViolationKind;
  /** The size the message announced or had, in bytes. */
  readonly bytes: number;

  constructor(kind: MessageViolationKind, bytes: number, message: string) {
    super(message);
    this.name = "MessageViolation";
    this.kind = kind;
    this.bytes = bytes;
  }
}

const headerBytes = 4;
// A frame's length travels in a 32-bit header.
const maxFrameBytes = 0xffff_ffff;

/**
 * Encodes one message as a frame: a 4-byte big-endian length, then the UTF-8 JSON text.
 *
 * @throws MessageViolation (`"size"`) when the JSON is over `maxMessageBytes`.
 */
export function encodeFrame(message: unknown, maxMessageBytes: number): Buffer {
  const json = JSON.stringify(message);
  const length = Buffer.byteLength(json, "utf8");
  if (length > Math.min(maxMessageBytes, maxFrameBytes)) {
    throw new MessageViolation(
      "size",
      length,
      `A message of ${length} bytes is over the limit of ${maxMessageBytes} bytes (maxMessageBytes).`,
    );
  }
  const frame = Buffer.allocUnsafe(headerBytes + length);
  frame.writeUInt32BE(length, 0);
  frame.write(json, headerBytes, "utf8");
  return frame;
}

/**
 * True when JSON `text` nests arrays and objects deeper than `maxDepth`. Scans the text (strings
 * skipped) instead of parsing it, so a hostile message is refused before anything is built.
 */
export function exceedsJsonDepth(text: string, maxDepth: number): boolean {
  // Most messages have fewer brackets than the limit, so cannot nest deeper than it: counting
  // them with indexOf (a fast native search) settles those without the scan below.
  if (!hasMoreOpenBracketsThan(text, maxDepth)) return false;
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c)
        index++; // a backslash escapes the next character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x7b || code === 0x5b) {
      depth++;
      if (depth > maxDepth) return true;
    } else if (code === 0x7d || code === 0x5d) {
      depth--;
    }
  }
  return false;
}

/** True when `text` holds more than `limit` of `{` and `[` together (in strings too). */
function hasMoreOpenBracketsThan(text: string, limit: number): boolean {
  let count = 0;
  for (const bracket of ["{", "["]) {
    for (let index = text.indexOf(bracket); index >= 0; index = text.indexOf(bracket, index + 1)) {
      if (++count > limit) return true;
    }
  }
  return false;
}

/** What one {@link FrameDecoder.push} decoded. */
export interface DecodedFrames {
  readonly messages: unknown[];
  readonly violation?: MessageViolation;
}

/**
 * Reassembles frames from a byte stream and parses them, enforcing the {@link MessageLimits}:
 * an announced length over the limit is refused from its header, before the body is read.
 */
export class FrameDecoder {
  readonly #limits: MessageLimits;
  #chunks: Buffer[] = [];
  #buffered = 0;
  // The body length of the frame being read; -1 while its header is still awaited.
  #expected = -1;
  #violation: MessageViolation | undefined;

  constructor(limits: MessageLimits) {
    this.#limits = limits;
  }

  /** Bytes received and not yet part of a complete message. */
  get bufferedBytes(): number {
    return this.#buffered;
  }

  /**
   * Feeds received bytes; returns the messages they complete, in order, and the violation that
   * stopped the decoding, if any (the messages before it are still returned). After a violation
   * the stream is unusable. `transient` says `chunk` is reused once this returns (a read buffer):
   * the bytes of an incomplete frame are then copied, not kept.
   */
  push(chunk: Buffer, transient = false): DecodedFrames {
    if (this.#violation !== undefined) return { messages: [], violation: this.#violation };
    const messages: unknown[] = [];
    try {
      if (this.#buffered === 0 && this.#expected < 0) {
        // The common case, a chunk that starts a frame (no header read, nothing kept): its whole
        // frames are parsed where they lie, without copying or slicing them out first.
        const end = chunk.length;
        let offset = 0;
        while (end - offset >= headerBytes) {
          const bodyEnd = offset + headerBytes + this.#checkLength(chunk.readUInt32BE(offset));
          if (bodyEnd > end) break;
          messages.push(this.#parse(chunk, offset + headerBytes, bodyEnd));
          offset = bodyEnd;
        }
        if (offset < end) this.#keep(offset === 0 ? chunk : chunk.subarray(offset), transient);
        return { messages };
      }
      this.#keep(chunk, transient);
      for (;;) {
        if (this.#expected < 0) {
          if (this.#buffered < headerBytes) break;
          this.#expected = this.#checkLength(this.#take(headerBytes).readUInt32BE(0));
        }
        if (this.#buffered < this.#expected) break;
        const body = this.#take(this.#expected);
        this.#expected = -1;
        messages.push(this.#parse(body, 0, body.length));
      }
    } catch (error) {
      this.#violation = error as MessageViolation;
      this.#chunks = [];
      this.#buffered = 0;
      return { messages, violation: this.#violation };
    }
    return { messages };
  }

  #keep(bytes: Buffer, transient: boolean): void {
    this.#chunks.push(transient ? Buffer.from(bytes) : bytes);
    this.#buffered += bytes.length;
  }

  #checkLength(length: number): number {
    if (length > this.#limits.maxMessageBytes) {
      throw new MessageViolation(
        "size",
        length,
        `a message of ${length} bytes, over the limit of ${this.#limits.maxMessageBytes} bytes (maxMessageBytes)`,
      );
    }
    return length;
  }

  #parse(bytes: Buffer, start: number, end: number): unknown {
    const text = bytes.toString("utf8", start, end);
    const maxDepth = this.#limits.maxMessageDepth;
    if (Number.isFinite(maxDepth) && exceedsJsonDepth(text, maxDepth)) {
      throw new MessageViolation(
        "depth",
        end - start,
        `a message nested deeper than ${maxDepth} levels (maxMessageDepth)`,
      );
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new MessageViolation(
        "json",
        end - start,
        `a message of ${end - start} bytes that is not JSON`,
      );
    }
  }

  #take(count: number): Buffer {
    const first = this.#chunks[0];
    let taken: Buffer;
    if (first !== undefined && first.length >= count) {
      taken = first.subarray(0, count);
      if (first.length === count) this.#chunks.shift();
      else this.#chunks[0] = first.subarray(count);
    } else {
      const all = Buffer.concat(this.#chunks, this.#buffered);
      taken = all.subarray(0, count);
      this.#chunks = all.length > count ? [all.subarray(count)] : [];
    }
    this.#buffered -= count;
    return taken;
  }
}
