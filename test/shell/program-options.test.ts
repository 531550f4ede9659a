import { describe, expect, it } from "vitest";
import {
  hidesOption,
  type OptionSyntax,
  readOptions,
  writtenLength,
} from "../../src/shell/program-options.js";
import type { ShellWord } from "../../src/shell/shell-scanner.js";
import { lexShellCommand } from "../../src/shell/shell-syntax.js";
import { sliceWord } from "../../src/shell/shell-word.js";

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
        : `${item.kind} ${item.word.value}`,
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
      "built $y",
      "operand -",
      "operand -f",
      "operand z",
    ]);
  });

  it("takes a word built by expansion as a value, and as built where it may be an option", () => {
    expect(read('tar -f "$a" "$b" "x$c"', tar)).toEqual(["-f(-f)=$a", "built $b", "operand x$c"]);
  });

  it("reads a word whose option name is written as that option, whatever builds its value", () => {
    const git: OptionSyntax = { short: "ux", long: ["--upload-pack", "--exec"] };
    expect(
      read(
        `git --upload-pack="$C" --upload-pa"ck=$C" '--upload-pack='"$C" --upload-pack="$C"x --exec=$'c' -u"$C" -qx"$C" -x "$C"`,
        git,
      ),
    ).toEqual([
      "--upload-pack(--upload-pack)=$C",
      "--upload-pack(--upload-pack)=$C",
      "--upload-pack(--upload-pack)=$C",
      "--upload-pack(--upload-pack)=$Cx",
      "--exec(--exec)=$'c'",
      "-u(-u)=$C",
      "-x(-x)=$C",
      "-x(-x)=$C",
    ]);
    expect(read('ls --color="$X" -w"$N"', { short: "w" })).toEqual([
      "other --color=$X",
      "-w(-w)=$N",
    ]);
  });

  it("reads as built a word whose option name the text does not show", () => {
    const git: OptionSyntax = { short: "u", long: ["--upload-pack"] };
    expect(
      read(
        `git --$X=c -$X "$O" $(o) --upload-pack$X=c -q$X --upload-pa{ck,x}=c {--upload-pack=c,x} --upload-pac?=c $'--upload-pack=c' $"--upload-pack=c"`,
        git,
      ),
    ).toEqual([
      "built --$X=c",
      "built -$X",
      "built $O",
      "built $(o)",
      "built --upload-pack$X=c",
      "built -q$X",
      "built --upload-pa{ck,x}=c",
      "built {--upload-pack=c,x}",
      "built --upload-pac?=c",
      "built $'--upload-pack=c'",
      "built --upload-pack=c",
    ]);
  });

  it("reads as built a word the shell may split into more words, and a value it may split", () => {
    expect(read("tar x$Y --file=$F -f $G --dir $H", tar)).toEqual([
      "built x$Y",
      "built --file=$F",
      "-f(-f)=$G",
      "built $G",
      "--directory(--dir)=$H",
      "built $H",
    ]);
  });

  it("reads every word after -- as an operand, built or not", () => {
    expect(read('tar -- "$O" --$X $Y', tar)).toEqual(["operand $O", "operand --$X", "operand $Y"]);
  });

  it("takes a process substitution for an operand, and a leading glob for a possible option", () => {
    // `*`, `?` and `[...]` match names that start with `-` (a file `-oProxyCommand=CMD`).
    expect(read("tar <(echo x) *.tar -f a", tar)).toEqual([
      "operand <(echo x)",
      "built *.tar",
      "-f(-f)=a",
    ]);
    expect(read("tar ?oProxy* [-]-file* ./*.tar '*' \\*", tar)).toEqual([
      "built ?oProxy*",
      "built [-]-file*",
      "operand ./*.tar",
      "operand *",
      "operand *",
    ]);
    expect(read("tar -- *", tar)).toEqual(["operand *"]);
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

  it("takes an option's exact name before a longer option it is a prefix of, as getopt_long does", () => {
    // `--file` is a prefix of the flag `--files-only` and of the two-valued `--file-pair`: written
    // whole, it is `--file`, and its value is the next word (not an operand).
    const shadowed: OptionSyntax = {
      long: ["--file"],
      longWithTwo: ["--file-pair"],
      flags: ["--files-only"],
    };
    expect(read("prog --file a.tar x --files b --file-p c d e", shadowed)).toEqual([
      "--file(--file)=a.tar",
      "operand x",
      "operand b",
      "--file-pair(--file-p)=d",
      "operand e",
    ]);
    expect(
      read("jq --arg n v --argjson m 1", { long: ["--arg"], longWithTwo: ["--argjson"] }),
    ).toEqual(["--arg(--arg)=n", "operand v", "--argjson(--argjson)=1"]);
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

describe("hidesOption and writtenLength", () => {
  const word = (text: string) => {
    const parsed = lexShellCommand(`p ${text}`);
    if (!parsed.ok) throw new Error(`does not parse: ${text}`);
    return parsed.commands[0]?.words[1] as Parameters<typeof hidesOption>[0];
  };

  it("counts the characters written before an expansion, a glob or a brace expansion", () => {
    expect(writtenLength(word('--exec="$C"'))).toBe(7);
    expect(writtenLength(word("--ex'ec='$C"))).toBe(7);
    expect(writtenLength(word("--ex*c=x"))).toBe(4);
    expect(writtenLength(word("-x{a,b}"))).toBe(2);
    expect(writtenLength(word("'*{a,b}'"))).toBe(6);
    expect(writtenLength(word("plain"))).toBe(5);
  });

  it("reads wholeWords names up to their = and short groups up to the letter with a value", () => {
    expect(hidesOption(word('-c"$S"'), { wholeWords: true })).toBe(true);
    expect(hidesOption(word('--git-dir="$D"'), { wholeWords: true })).toBe(false);
    expect(hidesOption(word('-ab"$X"'), { short: "b" })).toBe(false);
    expect(hidesOption(word('-ab"$X"'), { short: "c" })).toBe(true);
    expect(hidesOption(word('"x$X"'), {})).toBe(false);
    expect(hidesOption(word('""'), {})).toBe(false);
  });
});

describe("sliceWord", () => {
  const word = (text: string) => {
    const parsed = lexShellCommand(`p ${text}`);
    if (!parsed.ok) throw new Error(`does not parse: ${text}`);
    return parsed.commands[0]?.words[1] as ShellWord;
  };

  it("cuts a word's value, shadow and expansion marks at the same characters", () => {
    const whole = word(`-o"$Y"'*'x*`);
    expect(whole.value).toBe("-o$Y*x*");
    const rest = sliceWord(whole, 2);
    expect(rest.value).toBe("$Y*x*");
    expect(rest.shadow).toBe("\0\0\0x*");
    expect(rest.expansions).toBe("qq...");
    expect(rest.dynamic).toBe(true);
    const middle = sliceWord(whole, 2, -1);
    expect([middle.value, middle.shadow, middle.expansions]).toEqual(["$Y*x", "\0\0\0x", "qq.."]);
    expect(writtenLength(rest)).toBe(0);
    expect(hidesOption(sliceWord(whole, 0, 2), { short: "o" })).toBe(false);
  });
});
