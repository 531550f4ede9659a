import { describe, expect, it } from "vitest";
import { OutputCapture } from "../../src/sandbox/output-capture.js";

const marker = "\n\u0000END:42\u0000\n";

describe("OutputCapture", () => {
  it("drops output while no run is active", () => {
    const capture = new OutputCapture();
    expect(capture.push(Buffer.from("idle chatter"))).toBe(0);
    capture.begin(marker, () => {});
    expect(capture.text()).toBe("");
  });

  it("collects a run's output up to its marker and calls back once", () => {
    const capture = new OutputCapture();
    let ends = 0;
    capture.begin(marker, () => ends++);
    expect(capture.push(Buffer.from("hello "))).toBe(6);
    capture.push(Buffer.from(`world${marker}after the run`));
    expect(capture.text()).toBe("hello world");
    expect(capture.bytes).toBe(11);
    expect(ends).toBe(1);
    expect(capture.active).toBe(false);
    expect(capture.push(Buffer.from("more"))).toBe(0);
    expect(capture.text()).toBe("hello world");
  });

  it("finds a marker split across reads at any point", () => {
    const whole = Buffer.from(`output ✓${marker}`);
    for (let cut = 1; cut < whole.length; cut++) {
      const capture = new OutputCapture();
      let ended = false;
      capture.begin(marker, () => {
        ended = true;
      });
      capture.push(whole.subarray(0, cut));
      capture.push(whole.subarray(cut));
      expect(ended).toBe(true);
      expect(capture.text()).toBe("output ✓");
    }
  });

  it("finds a marker spread over many one-byte reads", () => {
    const capture = new OutputCapture();
    let ended = false;
    capture.begin(marker, () => {
      ended = true;
    });
    for (const byte of Buffer.from(`ab${marker}`)) capture.push(Buffer.from([byte]));
    expect(ended).toBe(true);
    expect(capture.text()).toBe("ab");
  });

  it("stops collecting when ended without a marker", () => {
    const capture = new OutputCapture();
    capture.begin(marker, () => {});
    capture.push(Buffer.from("partial"));
    capture.end();
    expect(capture.push(Buffer.from("dropped"))).toBe(0);
    expect(capture.text()).toBe("partial");
  });
});
