import { describe, expect, it } from "vitest";
import {
  encodeFrame,
  exceedsJsonDepth,
  FrameDecoder,
  MessageViolation,
} from "../../src/sandbox/message-framing.js";

const limits = { maxMessageBytes: 1024, maxMessageDepth: 4 };

function header(length: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(length, 0);
  return bytes;
}

describe("encodeFrame", () => {
  it("prefixes the UTF-8 JSON with its byte length", () => {
    const frame = encodeFrame({ text: "é" }, 1024);
    const json = '{"text":"é"}';
    expect(frame.readUInt32BE(0)).toBe(Buffer.byteLength(json));
    expect(frame.subarray(4).toString("utf8")).toBe(json);
  });

  it("refuses a message over the size limit, naming it", () => {
    expect(() => encodeFrame({ text: "x".repeat(100) }, 50)).toThrow(MessageViolation);
    expect(() => encodeFrame({ text: "x".repeat(100) }, 50)).toThrow(/maxMessageBytes/);
  });
});

describe("FrameDecoder", () => {
  it("decodes several messages from one chunk, in order", () => {
    const decoder = new FrameDecoder(limits);
    const chunk = Buffer.concat([encodeFrame({ n: 1 }, 1024), encodeFrame({ n: 2 }, 1024)]);
    expect(decoder.push(chunk)).toEqual({ messages: [{ n: 1 }, { n: 2 }] });
    expect(decoder.bufferedBytes).toBe(0);
  });

  it("reassembles a message split at every byte, header included", () => {
    const decoder = new FrameDecoder(limits);
    const frame = encodeFrame({ text: "split ✓", list: [1, 2] }, 1024);
    const seen: unknown[] = [];
    for (let index = 0; index < frame.length; index++) {
      seen.push(...decoder.push(frame.subarray(index, index + 1)).messages);
    }
    expect(seen).toEqual([{ text: "split ✓", list: [1, 2] }]);
  });

  it("reads a body correctly when the chunk before it ended exactly after its header", () => {
    const decoder = new FrameDecoder(limits);
    const a = encodeFrame({ n: 1, text: "first" }, 1024);
    const b = encodeFrame({ n: 2, text: "second, longer than a header" }, 1024);
    const seen: unknown[] = [];
    // [part of A], [rest of A + header of B], [body of B]: the header of B is read by the slow
    // path and nothing stays buffered, yet the next chunk is a body, not a header.
    seen.push(...decoder.push(a.subarray(0, 5)).messages);
    seen.push(...decoder.push(Buffer.concat([a.subarray(5), b.subarray(0, 4)])).messages);
    const last = decoder.push(b.subarray(4));
    expect(last.violation).toBeUndefined();
    seen.push(...last.messages);
    expect(seen).toEqual([
      { n: 1, text: "first" },
      { n: 2, text: "second, longer than a header" },
    ]);
    // A header split 2 + 2, then its body in one chunk.
    const c = encodeFrame({ n: 3 }, 1024);
    expect(decoder.push(c.subarray(0, 2)).messages).toEqual([]);
    expect(decoder.push(c.subarray(2, 4)).messages).toEqual([]);
    expect(decoder.push(c.subarray(4))).toEqual({ messages: [{ n: 3 }] });
  });

  it("keeps a copy of an incomplete frame from a transient chunk (a reused read buffer)", () => {
    const decoder = new FrameDecoder(limits);
    const frame = Buffer.concat([encodeFrame({ n: 1 }, 1024), encodeFrame({ text: "kept" }, 1024)]);
    const readBuffer = Buffer.alloc(64);
    const cut = frame.length - 3;
    frame.copy(readBuffer, 0, 0, cut);
    expect(decoder.push(readBuffer.subarray(0, cut), true).messages).toEqual([{ n: 1 }]);
    // The next read overwrites the buffer: what was kept must not change with it.
    readBuffer.fill(0x7b);
    frame.copy(readBuffer, 0, cut);
    expect(decoder.push(readBuffer.subarray(0, 3), true).messages).toEqual([{ text: "kept" }]);
    expect(decoder.bufferedBytes).toBe(0);
  });

  it("refuses an announced length over the limit from the header alone", () => {
    const decoder = new FrameDecoder(limits);
    const { messages, violation } = decoder.push(header(0xffff_fff0));
    expect(messages).toEqual([]);
    expect(violation).toBeInstanceOf(MessageViolation);
    expect(violation?.kind).toBe("size");
    expect(violation?.bytes).toBe(0xffff_fff0);
    expect(violation?.message).toContain("maxMessageBytes");
  });

  it("returns the messages before a violation, then refuses everything", () => {
    const decoder = new FrameDecoder(limits);
    const chunk = Buffer.concat([encodeFrame({ first: true }, 1024), header(5000)]);
    const decoded = decoder.push(chunk);
    expect(decoded.messages).toEqual([{ first: true }]);
    expect(decoded.violation?.kind).toBe("size");
    const later = decoder.push(encodeFrame({ second: true }, 1024));
    expect(later.messages).toEqual([]);
    expect(later.violation).toBe(decoded.violation);
  });

  it("refuses a message nested deeper than the limit", () => {
    const decoder = new FrameDecoder(limits);
    const { violation } = decoder.push(encodeFrame([[[[["deep"]]]]], 1024));
    expect(violation?.kind).toBe("depth");
    expect(violation?.message).toContain("maxMessageDepth");
  });

  it("accepts a message exactly at the depth limit", () => {
    const decoder = new FrameDecoder(limits);
    expect(decoder.push(encodeFrame([[[["ok"]]]], 1024))).toEqual({ messages: [[[[["ok"]]]]] });
  });

  it("refuses a body that is not JSON", () => {
    const decoder = new FrameDecoder(limits);
    const body = Buffer.from("{nope", "utf8");
    const { violation } = decoder.push(Buffer.concat([header(body.length), body]));
    expect(violation?.kind).toBe("json");
    expect(violation?.message).toContain("not JSON");
  });
});

describe("exceedsJsonDepth", () => {
  it("ignores brackets inside strings, escaped quotes included", () => {
    expect(exceedsJsonDepth(JSON.stringify({ a: '[[[[[{{{{"\\' }), 1)).toBe(false);
  });

  it("counts objects and arrays alike", () => {
    expect(exceedsJsonDepth('{"a":[{"b":[]}]}', 4)).toBe(false);
    expect(exceedsJsonDepth('{"a":[{"b":[]}]}', 3)).toBe(true);
  });

  it("scans a text with more brackets than the limit, counting only those outside strings", () => {
    const brackets = JSON.stringify({ text: "[{".repeat(50), list: [[1], [2], [3]] });
    expect(exceedsJsonDepth(brackets, 3)).toBe(false);
    expect(exceedsJsonDepth(brackets, 2)).toBe(true);
  });

  it("treats scalars as depth 0", () => {
    expect(exceedsJsonDepth('"text"', 0)).toBe(false);
    expect(exceedsJsonDepth("[]", 0)).toBe(true);
  });
});
