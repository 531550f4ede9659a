// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell text, not templates.
import { describe, expect, it } from "vitest";
import { type ParsedCommand, parseCommand } from "../../src/shell/index.js";
import { lexShellCommand } from "../../src/shell/shell-syntax.js";

function segmentsOf(command: string): readonly (readonly string[])[] {
  const parsed = parseCommand(command);
  if (!parsed.ok) throw new Error(`expected '${command}' to parse: ${parsed.error}`);
  return parsed.segments;
}

function parsedOk(command: string): Extract<ParsedCommand, { ok: true }> {
  const parsed = parseCommand(command);
  if (!parsed.ok) throw new Error(`expected '${command}' to parse: ${parsed.error}`);
  return parsed;
}

function errorOf(command: string): string {
  const parsed = parseCommand(command);
  if (parsed.ok) throw new Error(`expected '${command}' not to parse`);
  return parsed.error;
}

describe("parseCommand words", () => {
  it("splits a plain command into words on blanks", () => {
    expect(segmentsOf("npm   install\tlodash")).toEqual([["npm", "install", "lodash"]]);
  });

  it("removes double quotes and keeps their blanks inside one word", () => {
    expect(segmentsOf('git commit -m "fix the bug"')).toEqual([
      ["git", "commit", "-m", "fix the bug"],
    ]);
  });

  it("keeps single-quoted text literal, including $ and backslashes", () => {
    expect(segmentsOf("echo '$(x) \\n `y`'")).toEqual([["echo", "$(x) \\n `y`"]]);
  });

  it("joins adjacent quoted and unquoted parts into one word", () => {
    expect(segmentsOf(`a'b'"c"d`)).toEqual([["abcd"]]);
  });

  it("keeps an empty quoted string as an empty word", () => {
    expect(segmentsOf(`echo "" ''`)).toEqual([["echo", "", ""]]);
  });

  it("applies a backslash escape outside quotes", () => {
    expect(segmentsOf("echo a\\ b \\; \\|")).toEqual([["echo", "a b", ";", "|"]]);
  });

  it("keeps a backslash before an ordinary character inside double quotes", () => {
    expect(segmentsOf('echo "a\\nb" "\\$x" "\\""')).toEqual([["echo", "a\\nb", "$x", '"']]);
  });

  it("joins lines continued with a backslash-newline", () => {
    expect(segmentsOf("np\\\nm install \\\n  lodash")).toEqual([["npm", "install", "lodash"]]);
  });

  it("keeps a newline inside quotes as part of the word", () => {
    expect(segmentsOf("echo 'a\nb'")).toEqual([["echo", "a\nb"]]);
  });

  it("keeps a literal $ before a blank, the end, or a closing double quote", () => {
    const parsed = parsedOk('grep -E "foo$|bar$" x$ $ "$"');
    expect(parsed.segments).toEqual([["grep", "-E", "foo$|bar$", "x$", "$", "$"]]);
    expect(parsed.hasExpansion).toBe(false);
  });

  it("treats # inside a word as a literal character, not a comment", () => {
    const parsed = parsedOk("echo a#b");
    expect(parsed.segments).toEqual([["echo", "a#b"]]);
    expect(parsed.hasComment).toBe(false);
  });

  it("returns frozen results", () => {
    const parsed = parsedOk("a b; c");
    expect(Object.isFrozen(parsed)).toBe(true);
    expect(Object.isFrozen(parsed.segments)).toBe(true);
    expect(Object.isFrozen(parsed.segments[0])).toBe(true);
  });
});

describe("parseCommand segments", () => {
  it.each([
    ["&&", "a 1 && b 2"],
    ["||", "a 1 || b 2"],
    [";", "a 1; b 2"],
    ["|", "a 1 | b 2"],
    ["&", "a 1 & b 2"],
    ["|&", "a 1 |& b 2"],
    ["a newline", "a 1\nb 2"],
  ])("splits on %s", (_operator, command) => {
    expect(segmentsOf(command)).toEqual([
      ["a", "1"],
      ["b", "2"],
    ]);
  });

  it("splits on operators written without blanks around them", () => {
    expect(segmentsOf("a&&b||c;d|e&f")).toEqual([["a"], ["b"], ["c"], ["d"], ["e"], ["f"]]);
  });

  it("does not split on quoted or escaped operators", () => {
    expect(segmentsOf(`echo "a && b" 'c; d' e\\|f`)).toEqual([["echo", "a && b", "c; d", "e|f"]]);
  });

  it("accepts a trailing semicolon, a trailing & and blank lines", () => {
    expect(segmentsOf("\n\na;\n\nb &\n")).toEqual([["a"], ["b"]]);
  });

  it("continues a command after an operator at the end of a line", () => {
    expect(segmentsOf("a &&\n\n b |\n c")).toEqual([["a"], ["b"], ["c"]]);
  });

  it("flags a trailing & as running in the background", () => {
    expect(parsedOk("npm start &").hasBackground).toBe(true);
    expect(parsedOk("npm start").hasBackground).toBe(false);
  });
});

describe("parseCommand flags", () => {
  it.each([
    ["$(...)", "echo $(rm -rf /)"],
    ["$(...) inside double quotes", 'echo "a $(rm -rf /) b"'],
    ["backticks", "echo `rm -rf /`"],
    ["backticks inside double quotes", 'echo "`rm -rf /`"'],
    ["<(...)", "diff <(ls a) b"],
    [">(...)", "tee >(rm -rf /)"],
    ["arithmetic $((...))", "echo $((1 + 2))"],
    ["a substitution nested in ${...}", "echo ${x:-$(rm -rf /)}"],
  ])("flags %s as a substitution", (_what, command) => {
    expect(parsedOk(command).hasSubstitution).toBe(true);
  });

  it("keeps a substitution as written in its word", () => {
    expect(segmentsOf("echo pre$(date +%s)post")).toEqual([["echo", "pre$(date +%s)post"]]);
  });

  it("reads a substitution's nested quotes and parentheses to find where it ends", () => {
    expect(segmentsOf(`echo $(echo ")" '(' $(a) (b)) c`)).toEqual([
      ["echo", `$(echo ")" '(' $(a) (b))`, "c"],
    ]);
  });

  it.each([
    ["$VAR", "echo $HOME"],
    ["$VAR inside double quotes", 'echo "$HOME"'],
    ["${...}", "echo ${HOME}"],
    ["a positional parameter", "echo $1"],
    ["a special parameter", "echo $?"],
    ["$'...' quoting", "echo $'\\x41'"],
    ['$"..." quoting', 'echo $"hello"'],
    ["old arithmetic $[...]", "echo $[1+2]"],
    ["brace expansion with a comma", "rm {a,b}"],
    ["brace expansion with a range", "touch f{1..3}"],
    ["an expanding here-document body", "cat <<EOF\n$HOME\nEOF"],
  ])("flags %s as an expansion", (_what, command) => {
    const parsed = parsedOk(command);
    expect(parsed.hasExpansion).toBe(true);
  });

  it("does not flag braces without a comma or range, such as find's {}", () => {
    expect(parsedOk("find . -exec rm {} \\;").hasExpansion).toBe(false);
  });

  it("does not flag a here-document body whose delimiter is quoted", () => {
    const parsed = parsedOk("cat <<'EOF'\n$(rm -rf /) $HOME\nEOF");
    expect(parsed.hasSubstitution).toBe(false);
    expect(parsed.hasExpansion).toBe(false);
    expect(parsed.hasRedirection).toBe(true);
  });

  it("flags substitution in an expanding here-document body", () => {
    expect(parsedOk("cat <<EOF\n`id`\nEOF").hasSubstitution).toBe(true);
  });

  it("skips a here-document body and reads the commands after it", () => {
    expect(segmentsOf("cat <<-END > out\n\tline ; rm -rf /\n\tEND\necho done")).toEqual([
      ["cat"],
      ["echo", "done"],
    ]);
  });

  it.each([
    [">", "npm test > out.txt"],
    [">>", "npm test >> out.txt"],
    ["<", "wc -l < in.txt"],
    ["2>", "npm test 2>/dev/null"],
    ["&>", "npm test &> all.txt"],
    ["&>>", "npm test &>> all.txt"],
    [">|", "npm test >| out.txt"],
    ["<>", "cat <> f"],
    ["a descriptor duplication", "npm test 2>&1"],
    ["<&", "cat <&3"],
    ["a here-string", "cat <<< hello"],
    ["a here-document", "cat <<EOF\nhi\nEOF"],
    ["|&", "a |& b"],
    ["a redirection written inside a word", "echo a>b"],
    ["a named descriptor", "exec {fd}>out"],
  ])("flags %s as a redirection", (_what, command) => {
    expect(parsedOk(command).hasRedirection).toBe(true);
  });

  it("keeps redirection operators, targets and descriptor numbers out of the words", () => {
    expect(segmentsOf("npm test 2>&1 >out.txt <in.txt")).toEqual([["npm", "test"]]);
  });

  it("keeps digits that are separated from > as a word", () => {
    expect(segmentsOf("echo 2 > f")).toEqual([["echo", "2"]]);
  });

  it("keeps a quoted > as a plain character", () => {
    const parsed = parsedOk(`echo ">" '<' \\>`);
    expect(parsed.segments).toEqual([["echo", ">", "<", ">"]]);
    expect(parsed.hasRedirection).toBe(false);
  });

  it.each([
    ["a subshell", "(cd x && rm -rf /)"],
    ["a group", "{ a; b; }"],
    ["arithmetic (( ))", "(( x++ ))"],
    ["a function definition", "f() { rm -rf /; }; f"],
    ["an extglob-like parenthesis", "ls !(x)"],
  ])("flags %s as a subshell or group", (_what, command) => {
    expect(parsedOk(command).hasSubshell).toBe(true);
  });

  it("does not flag a quoted brace as a group", () => {
    expect(parsedOk("'{' a").hasSubshell).toBe(false);
  });

  it("ends a segment at a comment and flags it", () => {
    const parsed = parsedOk("npm test # && rm -rf /\nnpm run build");
    expect(parsed.segments).toEqual([
      ["npm", "test"],
      ["npm", "run", "build"],
    ]);
    expect(parsed.hasComment).toBe(true);
  });

  it("reports no flags for a plain command", () => {
    const parsed = parsedOk("npm run build -- --watch");
    expect(parsed).toMatchObject({
      hasSubstitution: false,
      hasExpansion: false,
      hasRedirection: false,
      hasSubshell: false,
      hasComment: false,
      hasBackground: false,
    });
  });
});

describe("parseCommand errors", () => {
  it.each([
    ["an unterminated single quote", "echo 'abc", /Unterminated single quote/],
    ["an unterminated double quote", 'echo "abc', /Unterminated double quote/],
    ["a double quote ending in a backslash", 'echo "abc\\', /Unterminated double quote/],
    ["an unterminated backtick", "echo `abc", /Unterminated backtick/],
    ["a backtick ending in a backslash", "echo `abc\\", /Unterminated backtick/],
    ["an unterminated $(", "echo $(abc", /Unterminated substitution/],
    ["an unterminated <(", "cat <(abc", /Unterminated substitution/],
    ["an unterminated ${", "echo ${abc", /Unterminated '\$\{'/],
    ["an unterminated quote inside ${", "echo ${a:-'x}", /Unterminated single quote/],
    ["an unterminated $'", "echo $'abc", /Unterminated \$'/],
    ["a trailing backslash", "echo abc\\", /backslash/],
    ["a dangling &&", "a &&", /operator/],
    ["a dangling ||", "a ||", /operator/],
    ["a dangling |", "a |", /operator/],
    ["a leading ;", "; a", /Unexpected ';'/],
    ["a leading &&", "&& a", /Unexpected '&&'/],
    ["an empty segment ;;", "a ;; b", /Unexpected ';;'/],
    ["a closing brace with no group", "a; }", /Unexpected '}'/],
    ["an if without fi", "if a; then b", /without its 'fi'/],
    ["a case without esac", "case x in a) b;;", /esac/],
    ["an empty segment ; ;", "a ; ; b", /Unexpected ';'/],
    ["a double &", "a & & b", /Unexpected '&'/],
    ["&& followed by ;", "a && ; b", /Unexpected ';'/],
    ["a redirection without a target", "npm test >", /no target/],
    ["a redirection followed by an operator", "npm test > ; b", /no target/],
    ["a redirection whose target is a descriptor prefix", "a > 2>x", /no target/],
    ["an unclosed (", "(a", /Unclosed '\('/],
    ["an unopened )", "a)", /Unexpected '\)'/],
    ["an operator before )", "(a &&)", /Unexpected '\)'/],
    ["an unterminated here-document", "cat <<EOF\nhello", /not terminated/],
    ["a here-document without a body", "cat <<EOF", /no body/],
    ["an empty command", "", /empty/],
    ["a blank command", "  \n\t ", /empty/],
    ["a command made only of a comment", "# just a comment", /empty/],
  ])("refuses %s", (_what, command, message) => {
    expect(errorOf(command)).toMatch(message);
  });

  it("refuses a NUL byte and says where it is", () => {
    expect(errorOf("npm test\0; rm -rf /")).toBe("Command contains a NUL byte at offset 8.");
  });

  it.each([
    ["a carriage return", "npm test\r"],
    ["an escape character", "npm \u001b[2J test"],
    ["a vertical tab", "npm\u000btest"],
    ["DEL", "npm\u007f"],
    ["a C1 control", "npm\u0085test"],
    ["a right-to-left override", "npm test \u202e/fr- mr"],
    ["a Unicode line separator", "npm test\u2028rm -rf /"],
  ])("refuses %s", (_what, command) => {
    expect(errorOf(command)).toMatch(/control character U\+[0-9A-F]{4}/);
  });

  it("refuses substitutions nested too deep instead of overflowing the stack", () => {
    const command = `echo ${"$(".repeat(100)}x${")".repeat(100)}`;
    expect(errorOf(command)).toMatch(/nested more than/);
  });

  it("refuses parameter expansions nested too deep instead of overflowing the stack", () => {
    const command = `echo ${"${a:-".repeat(100)}x${"}".repeat(100)}`;
    expect(errorOf(command)).toMatch(/nested more than/);
  });

  it("reports a non-string command as not parsing", () => {
    expect(parseCommand(42 as unknown as string)).toEqual({
      ok: false,
      error: "Command is not a string.",
    });
  });
});

describe("lexShellCommand: which characters of a word expansions give", () => {
  function expansionsOf(text: string): string {
    const parsed = lexShellCommand(`p ${text}`);
    if (!parsed.ok) throw new Error(`expected '${text}' to parse`);
    return parsed.commands[0]?.words[1]?.expansions ?? "";
  }

  it("marks quoted expansions q, unquoted ones s, and written text (quoted or not) .", () => {
    expect(expansionsOf(`--a="$C"`)).toBe("....qq");
    expect(expansionsOf(`'--a='$C`)).toBe("....ss");
    expect(expansionsOf("-x`c`")).toBe("..sss");
    expect(expansionsOf('"-x`c`"')).toBe("..qqq");
    expect(expansionsOf("x${A}y")).toBe(".ssss.");
    expect(expansionsOf('"$(c)"')).toBe("qqqq");
  });

  it("marks $'..', $\"..\" and <(..) as expansions that stay one word", () => {
    expect(expansionsOf("-$'x'")).toBe(".qqqq");
    expect(expansionsOf('$"ab"')).toBe("qq");
    expect(expansionsOf("<(c)")).toBe("qqqq");
  });

  it("keeps a literal $ as written text", () => {
    expect(expansionsOf("'$C'")).toBe("..");
    expect(expansionsOf("a$")).toBe("..");
  });
});
