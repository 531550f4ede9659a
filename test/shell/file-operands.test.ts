import { describe, expect, it } from "vitest";
import { RiskLevel } from "../../src/core/index.js";
import {
  assessCommandRisk,
  commandFileOperandDetails,
  commandFileOperands,
} from "../../src/shell/index.js";

describe("commandFileOperands", () => {
  it.each([
    ["cat .env", [".env"]],
    ["cat .env", [".env"]],
    ["ls -la /root", ["/root"]],
    ["ls --color src", ["src"]],
    ["ls -I '*.o' build", ["build"]],
    ["du -X skip.txt --max-depth 1 /var", ["skip.txt", "/var"]],
    ["stat -c %s .env", [".env"]],
    ["find -H src lib -name x -newer y", ["src", "lib", "y"]], // find stats y: a probe
    ["find / -name id_rsa", ["/"]],
    ["tree -o out.txt -L 2 docs", ["out.txt", "docs"]],
    ["realpath --relative-to=/etc x", ["/etc", "x"]],
    ["du -a --time /root", ["/root"]],
    ["cd /root && ls -la", ["/root"]],
    ["cd src && ls", ["src"]],
    ["cd && ls", ["~"]],
    ["cd src && cd /etc && ls", ["src", "/etc"]],
    ["echo /root/*", ["/root/"]],
    ["python run.py data/*.csv", ["data/"]],
    ["env -C /root ls", ["/root"]],
    ["env --chdir=/srv ls", ["/srv"]],
    ['cat ".env"', [".env"]],
    ["cat '.env'", [".env"]],
    ["cat \\.env", [".env"]],
    ["cat ./.env", ["./.env"]],
    ["cat src/../.env", ["src/../.env"]],
    ["< .env cat", [".env"]],
    ["cat .git/config", [".git/config"]],
    ["cat /etc/shadow", ["/etc/shadow"]],
    ["sed -n p .npmrc", [".npmrc"]],
    ["sed -e p -- .env", [".env"]],
    ["sed --expr=p .env", [".env"]],
    ["grep -n .env src/a.ts", ["src/a.ts"]],
    ["grep --color KEY .env", [".env"]],
    ["grep -e x -f pats .env", ["pats", ".env"]],
    ["grep --regex=x .env", [".env"]],
    ["awk -F: '{print $1}' /etc/passwd", ["/etc/passwd"]],
    ["jq . .env", [".env"]],
    ["head -n 5 .env", [".env"]],
    ["tail -f log.txt", ["log.txt"]],
    ["cut -d / -f 1 .env", [".env"]],
    ["sort -o out.txt in.txt", ["out.txt", "in.txt"]],
    ["cp -t dest .env", ["dest", ".env"]],
    ["mv .env x", [".env", "x"]],
    ["echo x | tee .npmrc", [".npmrc"]],
    ["dd if=.env of=x bs=1", [".env", "x"]],
    ["xxd .env; od -c .env; strings .env; base64 .env", [".env", ".env", ".env", ".env"]],
    ["less -p KEY .env", [".env"]],
    ["diff a b; uniq c; wc -l d", ["a", "b", "c", "d"]],
    ["npm test > out.txt 2>> err.txt", ["out.txt", "err.txt"]],
    ["npm test 2>&1 >&2", []],
    ["cat <<EOF\nhi\nEOF", []],
    ["cat <<< hi", []],
    ["sudo cat /etc/shadow", ["/etc/shadow"]],
    ["env FOO=1 timeout 5 cat .env", [".env"]],
    ["sh -c 'cat .env'", [".env"]],
    ['bash -lc "sed -n p .npmrc"', [".npmrc"]],
    ["eval cat .env", [".env"]],
    ["echo $(cat .env)", [".env"]],
    ["diff <(cat .env) b", [".env", "b"]],
    ["if true; then cat .env; fi", [".env"]],
    ["cat <<EOF\n$(cat .env)\nEOF", [".env"]],
    ["cat ~/.ssh/id_rsa", ["~/.ssh/id_rsa"]],
    ["source .envrc", [".envrc"]],
    ["ls -la .git; git status; echo .env", [".git"]],
    ["env", []],
    ["printenv", []],
  ])("%j names %j", (command, paths) => {
    expect(commandFileOperands(command)).toEqual({ paths, unknown: undefined });
  });

  it.each([
    ["cat *.txt", "glob"],
    ["cat .e?v", "glob"],
    ["cat {a,.env}", "brace"],
    ["cat $F", "expansion"],
    ['cat "$HOME/.env"', "expansion"],
    ["cat > $(mktemp)", "substitution"],
    ["cd .. && cat .env", "cd"],
    ["echo .env | xargs cat", "xargs"],
    ["alias c=cat; c .env", "alias"],
    ['f() { cat "$1"; }; f .env', "expansion"],
    ["cat 'unterminated", "parse"],
    ["grep -rn .env src", "folder tree"],
    ["rg --files .git", "folder tree"],
    ["diff -r a b", "folder trees"],
    ["git diff --no-index a .env", "any file"],
    ["ps axeww", "environments"],
  ])("%j cannot be told (%s)", (command, why) => {
    const { unknown } = commandFileOperands(command);
    expect(unknown).toBeDefined();
    expect(unknown).toMatch(
      new RegExp(why === "cd" ? "directory" : why === "brace" ? "brace" : why),
    );
  });

  // A file test reveals whether a file exists and what it is: its operand is a path.
  it.each([
    ["test -e /root/.ssh/id_rsa", ["/root/.ssh/id_rsa"]],
    ["[ -f ~/.aws/credentials ]", ["~/.aws/credentials"]],
    ["[[ -d /root ]]", ["/root"]],
    ["test -s .env", [".env"]],
    ["/usr/bin/[ -L /etc/x ]", ["/etc/x"]],
    ["sudo test -r /root/x", ["/root/x"]],
    ["[ ! -e a -a -e /root ]", ["a", "/root"]],
    ["[ -f x -o ! -h /y ]", ["x", "/y"]],
    ["[ \\( -G /a \\) -a \\( -N /b \\) ]", ["/a", "/b"]],
    ["[[ -e a && ( -S /b || ! -p c ) ]]", ["a", "/b", "c"]],
    ["test a -nt /etc/b; [ /c -ot d ]; [[ e -ef /f ]]", ["e", "/f", "a", "/etc/b", "/c", "d"]],
    ["[[ -a /y ]]; test -a /x", ["/y", "/x"]],
    ["test -f -- /root/x", ["/root/x"]],
    ['[ "$op" /root/x ]', ["/root/x"]],
    ["if [ -d /root ]; then echo y; fi", ["/root"]],
    ["[ -f x -a -n y ]", ["x"]],
    ["for x in /root/.ssh/id_*; do echo found; done", ["/root/.ssh/"]],
    ["select x in ~/*; do break; done", ["~/"]],
    ["for f in a *.ts /etc/x; do echo $f; done", ["."]],
  ])("%j probes %j", (command, paths) => {
    expect(commandFileOperands(command)).toEqual({ paths, unknown: undefined });
  });

  // Programs and forms that probe files outside test: their file arguments are paths too.
  it.each([
    ["date -r /root/x +%s", ["/root/x"]],
    ["date -uf /etc/shadow", ["/etc/shadow"]],
    ["date --ref=/root/x", ["/root/x"]],
    ["date +%Y/%m", []],
    ["df -h /root/x", ["/root/x"]],
    ["df --output /root/x", ["/root/x"]],
    ["time -- cat .env", [".env"]], // bash's `time --` runs the command after it
    ["time -p -- head /etc/x", ["/etc/x"]],
    ["file --magic-file /m README.md", ["/m", "README.md"]],
    ["whatis -C .env ls", [".env"]], // man-db prints the lines of its config file it cannot read
    ["apropos --config-file=/etc/x -M ~/man ls", ["/etc/x", "~/man"]],
    ["git blame -S.env src/a.ts", [".env", "src/a.ts"]], // revisions from a file
    ["git log -L1,9:.env", [".env"]],
    ["git log -L:main:src/a.ts", ["main:src/a.ts", "src/a.ts"]],
    ["type -a /root/x ls", ["/root/x"]],
    ["which ./x ~/bin/y", ["./x", "~/bin/y"]],
    ["command -pv /root/x", ["/root/x"]],
    ["whereis -B /root/.ssh -f id_rsa", ["/root/.ssh"]],
    ["find . -newer /a -anewer /b -samefile /c -newermc /d", [".", "/a", "/b", "/c", "/d"]],
    ["find -files0-from /root/list", ["/root/list"]],
    ["find src -exec cat /etc/shadow {} \\;", ["src", "/etc/shadow"]],
    ["jq -L /root -n 1", ["/root"]],
    ["history -r /root/.bash_history", ["/root/.bash_history"]],
  ])("%j names %j", (command, paths) => {
    expect(commandFileOperands(command)).toEqual({ paths, unknown: undefined });
  });

  it.each([
    ["echo {/root,x}/*", "brace"],
    ["echo src/{a,../../x}*", "brace"],
    ["compgen -f /root/", "compgen"],
    ["grep -d recurse KEY .", "folder tree"],
    ["find . -execdir cat x \\;", "directory"],
    // The files a list names (a file the model may write, or the input).
    ["file --files-from=/etc/shadow", "list"],
    ["file -f list.txt", "list"],
    ["sort --files0-from=list.txt", "list"],
    ["wc --files0=list.txt", "list"],
    ["du --files0-from list.txt", "list"],
    ["md5sum -c SUMS", "list"],
    ["sha256sum --check SUMS", "list"],
    ["tar -cf x.tar -T list.txt", "list"],
    // jq's modules and data files.
    ['jq -n \'import ".vscode/settings" as $s {search: "."}; $s\'', "imports"],
    ["jq -n 'include \"x\"; 1'", "imports"],
    ["jq -n '\"x\" | modulemeta'", "imports"],
    ["jq -f prog.jq data.json", "imports"],
    ["jq --from-file prog.jq", "imports"],
  ])("%j cannot be told (%s)", (command, why) => {
    expect(commandFileOperands(command).unknown).toMatch(new RegExp(why));
  });

  it.each([
    ["[ -z /root ]"],
    ["[ -n ~/.ssh/id_rsa ]"],
    ['[ "$a" = /root ]'],
    ['[ "$x" != -e ]'],
    ['[ -z "$V" ]'],
    ['[ "$#" -eq 0 ]'],
    ["test -t 1"],
    ["test /root"],
    ["[[ $x == /root/* ]]"],
    ["[[ $x < /root ]]"],
    ["[[ $x =~ ^/root/(a|b)$ ]]"],
    ["case /root/x in /root/*) echo y;; esac"],
    ["for f in a /root/x ~/.env; do echo $f; done"],
  ])("%j names no file: a string test, a pattern or a plain list word", (command) => {
    expect(commandFileOperands(command)).toEqual({ paths: [], unknown: undefined });
  });

  it.each([
    ['[ -f "$f" ]', "expansion"],
    ["[[ -e $HOME/.env ]]", "expansion"],
    ['[ "$a" -nt "$b" ]', "expansion"],
    ["test -s .e*", "glob"],
    ["for x in $D/*; do echo; done", "glob built by expansion"],
    ["for x in */.env; do echo; done", "folder of its path"],
  ])("%j probes a file that cannot be told (%s)", (command, why) => {
    expect(commandFileOperands(command).unknown).toMatch(new RegExp(why));
  });

  it("keeps a quoted glob character literal", () => {
    expect(commandFileOperands('cat "a*b"')).toEqual({ paths: ["a*b"], unknown: undefined });
  });
});

describe("assessCommandRisk: reads of files outside the working directory or of secrets", () => {
  it.each([
    ["cat /etc/shadow"],
    ["cat .env"],
    ['cat ".env"'],
    ["cat ./.env"],
    ["cat src/../.env"],
    ["cat .git/config"],
    ["sed -n p .npmrc"],
    ["head ~/.bashrc"],
    ["grep root /etc/passwd"],
    ["wc -c ../other/file"],
  ])("%j is Medium at least", (command) => {
    expect(assessCommandRisk(command).riskLevel).toBeGreaterThanOrEqual(RiskLevel.Medium);
  });

  it.each([["cat README.md"], ["grep -rn .env src"], ["head -n 5 src/a.ts"], ["cat package.json"]])(
    "%j stays Low",
    (command) => {
      expect(assessCommandRisk(command).riskLevel).toBe(RiskLevel.Low);
    },
  );
});

describe("commandFileOperandDetails", () => {
  it("tells plain globs, unreadable operands and what is removed or moved whole apart", () => {
    expect(commandFileOperandDetails("rm -rf build dist/*.js && cat a")).toMatchObject({
      globs: ["dist/*.js"],
      opaque: undefined,
      removed: ["build"],
    });
    expect(commandFileOperandDetails("mv a b; find c -delete; find d -name x")).toMatchObject({
      removed: ["a", "b", "c"],
    });
    expect(commandFileOperandDetails("cp a $B").opaque).toMatch(/expansion/);
    expect(commandFileOperandDetails("cat src/*/x").opaque).toMatch(/glob/);
    // Reading more than it names changes nothing: unknown, not opaque.
    expect(commandFileOperandDetails("grep -r x .")).toMatchObject({
      unknown: expect.stringMatching(/whole folder tree/),
      opaque: undefined,
    });
    expect(commandFileOperands("rm *.js")).toEqual({ paths: ["."], unknown: "'*.js' is a glob" });
    // A list of files to read changes none of them; tar may extract them.
    expect(commandFileOperandDetails("sort --files0-from=l").opaque).toBeUndefined();
    expect(commandFileOperandDetails("tar -x -T l -f a.tar").opaque).toMatch(/list/);
    // `--file` is tar's own option, not an abbreviation of `--files-from`; `--files` is one.
    for (const command of ["tar --file=a.tar -x", "tar --file a.tar -x"]) {
      expect(commandFileOperandDetails(command)).toMatchObject({
        unknown: expect.stringMatching(/extracts files named inside the archive/),
        opaque: undefined,
      });
    }
    expect(commandFileOperandDetails("tar --files=l -x -f a.tar").opaque).toMatch(/--files-from/);
  });

  it("tells the operands read whole when they are folders", () => {
    expect(commandFileOperandDetails("diff -N . empty").folders).toEqual([".", "empty"]);
    expect(commandFileOperandDetails("diff --from-file=a b c").folders).toEqual(["a", "b", "c"]);
    // Outside a repository, two operands are compared as `git diff --no-index` compares them.
    const outside = (command: string) =>
      commandFileOperandDetails(command).foldersOutsideRepository;
    expect(outside("git diff . other")).toEqual([".", "other"]);
    expect(outside("git diff --stat HEAD~1 HEAD")).toEqual(["HEAD~1", "HEAD"]);
    expect(outside("git diff HEAD -- src")).toEqual(["HEAD", "src"]);
    for (const command of ["git diff", "git diff src", "git diff a b -- src", "cat a b"]) {
      expect(commandFileOperandDetails(command).folders, command).toEqual([]);
      expect(outside(command), command).toEqual([]);
    }
  });

  it.each([
    ["jq -r '.import' a.json"],
    ["jq '.include | keys' a.json"],
    ["jq '.[] | select(.name == \"import\")' a.json"],
    ["md5sum a.txt"],
    ["sha256sum -b a.txt"],
    ["sort -u a.txt"],
    ["wc -l a.txt"],
    ["whatis ls"],
    ["git log -L1,9:src/a.ts"],
  ])("%j names every file it reads", (command) => {
    expect(commandFileOperands(command).unknown).toBeUndefined();
  });
});

describe("commandFileOperands: what wrappers and shells run", () => {
  it.each([
    ["timeout --kill-a 5 10 cat .env", [".env"]],
    ["env --split='cat .env'", [".env"]],
    ["env --chd src cat ../.env", ["src", "../.env"]],
    ["flock --conflict 5 f cat .env", [".env"]],
    ["prlimit --nofile=100 cat .env", [".env"]],
    ["setarch x86_64 -R cat .env", [".env"]],
    ["runcon ctx cat .env", [".env"]],
    ["start-stop-daemon -S -x /bin/cat -- .env", [".env"]],
    ["tmux new-window -c src 'cat ../.env'", ["src", "../.env"]],
    ["tmux new -d sh -c 'cat .env'", [".env"]],
    ["tmux splitw -c src sh -c 'cat ../.env'", ["src", "../.env"]],
    ["bash -c -- 'cat .env'", [".env"]],
  ])("reads %j", (command, paths) => {
    expect(commandFileOperands(command).paths).toEqual(expect.arrayContaining(paths));
  });

  it.each([
    ["echo Y2F0IC5lbnY= | base64 -d | sh", /base64/],
    ["printf '%s .env' cat | sh", /rewrites/],
    ["{ base64 -d <<< x; echo ok; } | sh", /compound/],
    ["tmux send-keys 'cat .env' Enter", /send-keys/],
    ["tmux send-k -t 0 'cat .env' Enter", /send-keys/],
    ["tmux source .env", /source-file/],
    ["tmux -f .env", /-f/],
    ["tmux display -p '#(cat .env)'", /#\(/],
    ["tmux run -C 'run x'", /-C/],
    ["tmux bind x run 'cat .env'", /bind-key/],
    ["tmux list", /not a known/],
  ])("cannot read all %j runs", (command, why) => {
    expect(commandFileOperands(command).unknown).toMatch(why);
  });
});
