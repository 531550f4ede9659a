// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell text, not templates.
import { describe, expect, it } from "vitest";
import { matchCommandPattern, validateCommandPattern } from "../../src/shell/index.js";

describe("matchCommandPattern words", () => {
  it("`npm *` matches `npm install lodash`", () => {
    expect(matchCommandPattern("npm *", "npm install lodash")).toBe(true);
  });

  it("`npm *` does not match `npmx install`", () => {
    expect(matchCommandPattern("npm *", "npmx install")).toBe(false);
  });

  it("`npm *` does not match a bare `npm`: a trailing * needs at least one word", () => {
    expect(matchCommandPattern("npm *", "npm")).toBe(false);
  });

  it("`npm` matches exactly the bare `npm`", () => {
    expect(matchCommandPattern("npm", "npm")).toBe(true);
    expect(matchCommandPattern("npm", "npm test")).toBe(false);
  });

  it("an exact pattern matches only the same words", () => {
    expect(matchCommandPattern("git status", "git status")).toBe(true);
    expect(matchCommandPattern("git status", "git status --short")).toBe(false);
    expect(matchCommandPattern("git status", "git")).toBe(false);
  });

  it('quoted arguments are unwrapped: `npm install lodash` matches `npm install "lodash"`', () => {
    expect(matchCommandPattern("npm install lodash", 'npm install "lodash"')).toBe(true);
    expect(matchCommandPattern("npm install lodash", "'npm' inst'all' lod\\ash")).toBe(true);
  });

  it("blanks inside quotes stay inside one word", () => {
    expect(matchCommandPattern("echo a b", "echo 'a b'")).toBe(false);
    expect(matchCommandPattern("echo 'a b'", "echo 'a b'")).toBe(true);
  });

  it("`npm run *` needs the literal words before the star", () => {
    expect(matchCommandPattern("npm run *", "npm run build")).toBe(true);
    expect(matchCommandPattern("npm run *", "npm install build")).toBe(false);
  });

  it("`ls -la *` matches `ls -la src dist`", () => {
    expect(matchCommandPattern("ls -la *", "ls -la src dist")).toBe(true);
  });

  it("a * within a word globs within that word only: `npm run test:*`", () => {
    expect(matchCommandPattern("npm run test:*", "npm run test:unit")).toBe(true);
    expect(matchCommandPattern("npm run test:*", "npm run test:")).toBe(true);
    expect(matchCommandPattern("npm run test:*", "npm run build")).toBe(false);
    expect(matchCommandPattern("npm run test:*", "npm run test:unit extra")).toBe(false);
  });

  it("several stars within a word match in order", () => {
    expect(matchCommandPattern("echo a*b*c", "echo aXXbYYc")).toBe(true);
    expect(matchCommandPattern("echo a*b*c", "echo abc")).toBe(true);
    expect(matchCommandPattern("echo a*b*c", "echo acb")).toBe(false);
    expect(matchCommandPattern("echo ab*ba", "echo aba")).toBe(false);
  });

  it("a * before the last word matches exactly one word", () => {
    expect(matchCommandPattern("git -C * status", "git -C repo status")).toBe(true);
    expect(matchCommandPattern("git -C * status", "git -C a b status")).toBe(false);
  });

  it("`* *` matches any command with at least two words", () => {
    expect(matchCommandPattern("* *", "anything goes here")).toBe(true);
    expect(matchCommandPattern("* *", "alone")).toBe(false);
  });

  it("a quoted star in a pattern is a literal star", () => {
    expect(matchCommandPattern("echo '*'", "echo '*'")).toBe(true);
    expect(matchCommandPattern("echo '*'", "echo x")).toBe(false);
    expect(matchCommandPattern("echo 'a*'", "echo abc")).toBe(false);
  });

  it("an unquoted glob in the command is matched only by a trailing *", () => {
    expect(matchCommandPattern("rm *", "rm *.log")).toBe(true);
    expect(matchCommandPattern("rm *.log", "rm *.log")).toBe(false);
    expect(matchCommandPattern("git -C * status", "git -C d* status")).toBe(false);
    expect(matchCommandPattern("cat a?", "cat a?")).toBe(false);
    expect(matchCommandPattern("cat 'a?'", "cat 'a?'")).toBe(true);
  });

  it("single-quoted '$(x)' is literal and matches `echo *`", () => {
    expect(matchCommandPattern("echo *", "echo '$(x)'")).toBe(true);
  });

  it("a background & does not stop a match", () => {
    expect(matchCommandPattern("npm *", "npm start &")).toBe(true);
  });

  it("is case-sensitive", () => {
    expect(matchCommandPattern("npm *", "NPM install")).toBe(false);
  });
});

describe("matchCommandPattern segments", () => {
  it("`npm *` does not match `npm install && rm -rf /`", () => {
    expect(matchCommandPattern("npm *", "npm install && rm -rf /")).toBe(false);
  });

  it("`npm *` matches `npm test && npm run build`", () => {
    expect(matchCommandPattern("npm *", "npm test && npm run build")).toBe(true);
  });

  it.each([
    [";", "npm test; rm -rf /"],
    ["||", "npm test || rm -rf /"],
    ["|", "npm test | rm -rf /"],
    ["&", "npm test & rm -rf /"],
    ["|&", "npm test |& rm -rf /"],
    ["a newline", "npm test\nrm -rf /"],
    ["a continued line after &&", "npm test &&\nrm -rf /"],
    [";, written without blanks", "npm test;rm -rf /"],
  ])("splits on %s, so `npm *` does not cover a second command", (_operator, command) => {
    expect(matchCommandPattern("npm *", command)).toBe(false);
  });

  it.each([
    [";", "npm test; npm run build"],
    ["||", "npm test || npm run build"],
    ["|", "npm ls | npm run build"],
    ["&", "npm start & npm test"],
    ["a newline", "npm test\nnpm run build"],
  ])("covers every command split on %s when each matches", (_operator, command) => {
    expect(matchCommandPattern("npm *", command)).toBe(true);
  });
});

describe("matchCommandPattern never approves what it cannot read", () => {
  it.each([
    ["$(...)", "npm install $(rm -rf /)"],
    ["$(...) inside double quotes", 'npm install "$(rm -rf /)"'],
    ["backticks", "npm install `rm -rf /`"],
    ["backticks inside double quotes", 'npm install "`rm -rf /`"'],
    ["<(...)", "npm install <(rm -rf /)"],
    [">(...)", "npm install >(rm -rf /)"],
    ["$((...))", "npm install $((1+1))"],
    ["$VAR", "npm install $PKG"],
    ["$HOME", "npm install $HOME/x"],
    ["${...}", "npm install ${PKG}"],
    ["$VAR inside double quotes", 'npm install "$PKG"'],
    ["a special parameter", "npm install $1"],
    ["$'...' quoting", "npm install $'\\x41'"],
    ["brace expansion", "npm run test:{a,b}"],
    ["a redirection", "npm test > /etc/passwd"],
    ["an appending redirection", "npm test >> ~/.bashrc"],
    ["an input redirection", "npm test < /etc/shadow"],
    ["a descriptor duplication", "npm test 2>&1"],
    ["a here-string", "npm test <<< x"],
    ["a here-document", "npm test <<EOF\nx\nEOF"],
    ["a subshell", "(npm test)"],
    ["a group", "{ npm test; }"],
    ["a comment", "npm test # harmless?"],
    ["an unterminated quote", 'npm install "lodash'],
    ["a trailing backslash", "npm install \\"],
    ["a dangling operator", "npm test &&"],
    ["an empty segment", "npm test ;; npm run build"],
    ["a NUL byte", "npm test\0"],
    ["a control character", "npm test\r"],
    ["an empty command", ""],
  ])("`npm *` never matches a command with %s", (_what, command) => {
    expect(matchCommandPattern("npm *", command)).toBe(false);
  });

  it("even `*` never matches a command with a substitution", () => {
    expect(matchCommandPattern("*", "$(rm -rf /)")).toBe(false);
    expect(matchCommandPattern("* *", "echo `id`")).toBe(false);
  });
});

describe("validateCommandPattern", () => {
  it.each(["npm *", "git status", "npm run test:*", "ls -la *", "*", "echo '*'"])(
    "accepts `%s`",
    (pattern) => {
      expect(validateCommandPattern(pattern)).toBeUndefined();
    },
  );

  it.each([
    ["an unterminated quote", "npm 'x", /does not parse/],
    ["an empty pattern", "", /does not parse/],
    ["two commands", "npm * && git *", /one simple command/],
    ["a pipeline", "npm * | cat", /one simple command/],
    ["a substitution", "npm $(x)", /plain words/],
    ["a variable", "npm $X", /plain words/],
    ["a redirection", "npm * > x", /plain words/],
    ["a redirection alone", "> x", /one simple command/],
    ["a subshell", "(npm *)", /plain words/],
    ["a comment", "npm * # x", /plain words/],
    ["a background &", "npm * &", /plain words/],
  ])("rejects a pattern with %s", (_what, pattern, message) => {
    expect(validateCommandPattern(pattern)).toMatch(message);
  });

  it("an invalid pattern matches nothing", () => {
    expect(matchCommandPattern("npm * && git *", "npm test && git status")).toBe(false);
    expect(matchCommandPattern("npm $X", "npm $X")).toBe(false);
  });
});
