import { describe, expect, it } from "vitest";
import { RiskLevel } from "../../src/core/index.js";
import { assessCommandRisk } from "../../src/shell/index.js";

const { Low, Medium, High, Critical } = RiskLevel;
const risk = (command: string) => assessCommandRisk(command).riskLevel;

describe("a file named by an output option is judged as a redirection to it would be", () => {
  it.each([
    "git log --output=/etc/cron.d/x",
    "git log --output /home/user/.bashrc",
    "git diff --outp=../outside.patch",
    "git show --output=.git/hooks/pre-commit",
    "git log --output=$TARGET",
    "tree -o /etc/motd",
    "tree -o~/.profile",
    "sort -o /etc/passwd a.txt",
    "sort --output=.husky/pre-commit a.txt",
    "sort --outp=/tmp/x a.txt",
  ])("%s is High", (command) => {
    expect(risk(command)).toBeGreaterThanOrEqual(High);
  });

  it.each(["git log --output=/dev/sda", "tree -o /dev/nvme0n1"])(
    "%s writes onto a disk device: Critical",
    (command) => {
      expect(risk(command)).toBe(Critical);
    },
  );

  it.each(["git log --output=changes.txt", "tree -o listing.txt", "sort -o sorted.txt a.txt"])(
    "%s, inside the working directory, stays Medium",
    (command) => {
      expect(risk(command)).toBe(Medium);
    },
  );

  it("the same target is the same risk written as a redirection or as an option", () => {
    for (const target of ["/etc/x", "../x", ".git/config", "Makefile", "out.txt"]) {
      expect(risk(`git log --output=${target}`)).toBe(
        Math.max(Medium, risk(`git log > ${target}`)),
      );
    }
  });

  it("git's --output-indicator-* options change a character, not a file", () => {
    expect(risk("git diff --output-indicator-new=+")).toBeLessThanOrEqual(Low);
  });

  it("a copy whose destination is built by expansion is High, a source built so is not", () => {
    expect(risk('cp notes.txt "$DEST"')).toBeGreaterThanOrEqual(High);
    expect(risk('tee "$F"')).toBeGreaterThanOrEqual(High);
    expect(risk('cp "$SRC" notes.txt')).toBe(Medium);
  });
});

describe("shell builtins that run code they are given", () => {
  it.each([
    "mapfile -C eval -c 1 lines < script.txt",
    "mapfile -t -C 'sh -c' lines < script.txt",
    "readarray -Ceval lines < script.txt",
    "mapfile -n 5 -C cb lines < data.txt",
  ])("%s runs a callback on every line: High", (command) => {
    expect(risk(command)).toBeGreaterThanOrEqual(High);
  });

  it("a mapfile callback is assessed as a command", () => {
    expect(risk("mapfile -C 'rm -rf /' -c 1 lines < data.txt")).toBe(Critical);
  });

  it("mapfile without a callback only fills an array", () => {
    expect(risk("mapfile -t lines < data.txt")).toBeLessThan(High);
  });

  it("enable -f loads a shared library: High; enable alone changes builtins: Medium", () => {
    expect(risk("enable -f ./evil.so evil")).toBeGreaterThanOrEqual(High);
    expect(risk("enable -n echo")).toBe(Medium);
  });
});
