import { describe, expect, it } from "vitest";
import { type OptionSyntax, readOptions } from "../../src/shell/program-options.js";
import { lexShellCommand } from "../../src/shell/shell-syntax.js";

/** The options and operands `readOptions` reads in `line`'s words after the program. */
function read(line: string, syntax: OptionSyntax): string[] {
  const parsed = lexShellCommand(line);
  if (!parsed.ok) throw new Error(`does not parse: ${line}`);
  const args = parsed.commands[0]?.words.slice(1) ?? [];
  return [...readOptions(args, syntax)].map((item) =>
    item.kind === "option"
      ? `${item.name}(${item.given})=${item.value?.value ?? "?"}`
      : item.kind === "other"
        ? `other ${item.given}${item.attached === undefined ? "" : `=${item.attached.value}`}`
        : `operand ${item.word.value}`,
  );
}

describe("readOptions", () => {
  const tar: OptionSyntax = { short: "fC", long: ["--file", "--directory"] };

  it("reads short options alone, attached, last in a group, and long ones by any prefix", () => {
    expect(read("tar -f a -fb -xvf c --file=d --fil e --dir f", tar)).toEqual([
      "-f(-f)=a",
      "-f(-f)=b",
      "-f(-f)=c",
      "--file(--file)=d",
      "--file(--fil)=e",
      "--directory(--dir)=f",
    ]);
  });

  it("reads operands between options, other long options with their value, and ends at --", () => {
    expect(read('tar x --verbose=2 "$y" - -- -f z', tar)).toEqual([
      "operand x",
      "other --verbose=2",
      "operand $y",
      "operand -",
      "operand -f",
      "operand z",
    ]);
  });

  it("takes a word built by expansion as a value, never as an option", () => {
    expect(read('tar -f "$a" "$b"', tar)).toEqual(["-f(-f)=$a", "operand $b"]);
  });

  it("reads past -- when told, and gives a prefix of a flag to the flag", () => {
    const checkpoint: OptionSyntax = {
      long: ["--checkpoint-action"],
      flags: ["--checkpoint"],
      pastDoubleDash: true,
    };
    expect(read("tar --checkp x -- --checkpoint-a=exec=y", checkpoint)).toEqual([
      "operand x",
      "--checkpoint-action(--checkpoint-a)=exec=y",
    ]);
  });

  it("reads options of two values, and groups that start with a letter only when told", () => {
    expect(read("jq --slurp n f x", { longWithTwo: ["--slurpfile"] })).toEqual([
      "--slurpfile(--slurp)=f",
      "operand x",
    ]);
    expect(read("git -1F a -mF b", { short: "F", letterGroupsOnly: true })).toEqual([
      "operand -1F",
      "operand a",
      "-F(-F)=b",
    ]);
  });

  it("reads whole words as git reads its own options", () => {
    const git: OptionSyntax = { wholeWords: true, long: ["-C", "-c", "--git-dir"] };
    expect(read("git -C d -Cx --git-dir=g --git d - -- log -C e", git)).toEqual([
      "-C(-C)=d",
      "other -Cx",
      "--git-dir(--git-dir)=g",
      "other --git",
      "operand d",
      "other -",
      "other --",
      "operand log",
      "-C(-C)=e",
    ]);
  });
});
