import { describe, expect, it } from "vitest";
import { MimeCategory, MimeTypes } from "../../src/result/index.js";

describe("MimeTypes (spec 004 unit tests)", () => {
  it("MimeTypes_GetMimeType_KnownExtension_ReturnsCorrect: the spec's table", () => {
    const cases: [string, string][] = [
      ["a.txt", "text/plain"],
      ["README.md", "text/markdown"],
      ["Program.cs", "text/x-csharp"],
      ["index.js", "text/javascript"],
      ["app.ts", "text/typescript"],
      ["App.tsx", "text/typescript-jsx"],
      ["main.py", "text/x-python"],
      ["lib.rs", "text/x-rust"],
      ["main.go", "text/x-go"],
      ["config.yaml", "application/x-yaml"],
      ["config.yml", "application/x-yaml"],
      ["Cargo.toml", "application/toml"],
      ["package.json", "application/json"],
      ["index.html", "text/html"],
      ["run.sh", "text/x-shellscript"],
      ["build.ps1", "text/x-powershell"],
      [".gitignore", "text/plain"],
      ["project/.env", "text/plain"],
      ["report.pdf", "application/pdf"],
      ["sheet.xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"],
      ["logo.png", "image/png"],
      ["photo.jpeg", "image/jpeg"],
      ["icon.svg", "image/svg+xml"],
      ["app.exe", "application/x-msdownload"],
      ["archive.7z", "application/x-7z-compressed"],
    ];
    for (const [path, type] of cases) expect(MimeTypes.getMimeType(path), path).toBe(type);
  });

  it("MimeTypes_GetMimeType_UnknownExtension_ReturnsDefault: application/octet-stream", () => {
    expect(MimeTypes.getMimeType("file.qqqzzz")).toBe("application/octet-stream");
    expect(MimeTypes.getMimeType("Makefile")).toBe("application/octet-stream");
    expect(MimeTypes.getMimeType("")).toBe("application/octet-stream");
    expect(MimeTypes.getMimeType("trailing.")).toBe("application/octet-stream");
    expect(MimeTypes.defaultMimeType).toBe("application/octet-stream");
  });

  it("MimeTypes_IsTextFile_CodeFiles_ReturnsTrue: code, config and data files", () => {
    for (const path of [
      "a.cs",
      "a.ts",
      "a.tsx",
      "a.py",
      "a.rs",
      "a.go",
      "a.java",
      "a.json",
      "a.yaml",
      "a.toml",
      "a.md",
      "a.sh",
      ".editorconfig",
    ]) {
      expect(MimeTypes.isTextFile(path), path).toBe(true);
    }
  });

  it("MimeTypes_IsBinaryFile_Images_ReturnsTrue: images and binaries", () => {
    for (const path of ["a.png", "a.jpg", "a.gif", "a.svg", "a.ico", "a.webp", "a.zip", "a.pdf"]) {
      expect(MimeTypes.isBinaryFile(path), path).toBe(true);
    }
    expect(MimeTypes.isBinaryFile("a.ts")).toBe(false);
  });
});

describe("MimeTypes", () => {
  it("ignores the case of the extension", () => {
    expect(MimeTypes.getMimeType("APP.TS")).toBe("text/typescript");
    expect(MimeTypes.getMimeType("Photo.JPG")).toBe("image/jpeg");
    expect(MimeTypes.isTextFile("NOTES.MD")).toBe(true);
    expect(MimeTypes.getCategory("MAIN.PY")).toBe(MimeCategory.Code);
  });

  it("lets the spec's entries win over the mime package", () => {
    // The mime package reads .ts as video/mp2t and .rs as application/rls-services+xml.
    expect(MimeTypes.getMimeType("x.ts")).toBe("text/typescript");
    expect(MimeTypes.getMimeType("x.rs")).toBe("text/x-rust");
    expect(MimeTypes.getMimeType("x.mts")).toBe("text/typescript");
    expect(MimeTypes.getMimeType("x.mjs")).toBe("text/javascript");
  });

  it("falls back to the mime package for other extensions", () => {
    expect(MimeTypes.getMimeType("song.mp3")).toBe("audio/mpeg");
    expect(MimeTypes.getMimeType("pic.heic")).toBe("image/heic");
    expect(MimeTypes.getMimeType("invite.ics")).toBe("text/calendar");
  });

  it("reads the extension of the last path segment only", () => {
    expect(MimeTypes.getExtension("dir.v2/Makefile")).toBe("");
    expect(MimeTypes.getExtension("C:\\src.d\\app.TS")).toBe(".ts");
    expect(MimeTypes.getExtension("archive.tar.gz")).toBe(".gz");
    expect(MimeTypes.getExtension(".gitignore")).toBe(".gitignore");
    expect(MimeTypes.getExtension("name.")).toBe("");
  });

  it("uses the mime package's type to judge text for extensions outside the spec", () => {
    expect(MimeTypes.isTextFile("invite.ics")).toBe(true);
    expect(MimeTypes.isTextFile("data.jsonld")).toBe(true);
    expect(MimeTypes.isTextFile("schema.sql")).toBe(true);
    expect(MimeTypes.isTextFile("feed.rss")).toBe(true);
    expect(MimeTypes.isTextFile("song.mp3")).toBe(false);
    expect(MimeTypes.isTextFile("unknown.qqqzzz")).toBe(false);
  });

  it("treats a path without an extension as not text, as the spec does", () => {
    expect(MimeTypes.isTextFile("Makefile")).toBe(false);
    expect(MimeTypes.isBinaryFile("Makefile")).toBe(true);
    expect(MimeTypes.isTextFile("")).toBe(false);
  });

  it("categorizes by the spec's mapping first", () => {
    const cases: [string, MimeCategory][] = [
      ["a.cs", "code"],
      ["a.ts", "code"],
      ["a.cpp", "code"],
      ["a.html", "web"],
      ["a.svelte", "web"],
      ["a.json", "data"],
      ["a.toml", "data"],
      ["a.md", "text"],
      ["a.log", "text"],
      ["a.png", "image"],
      ["a.svg", "image"],
      ["a.exe", "binary"],
      ["a.gz", "binary"],
      ["a.pdf", "other"],
      ["Makefile", "other"],
    ];
    for (const [path, category] of cases) expect(MimeTypes.getCategory(path), path).toBe(category);
  });

  it("categorizes the rest of the spec's groups and other images by group", () => {
    expect(MimeTypes.getCategory("a.tsx")).toBe(MimeCategory.Code);
    expect(MimeTypes.getCategory("a.sh")).toBe(MimeCategory.Code);
    expect(MimeTypes.getCategory("a.scss")).toBe(MimeCategory.Web);
    expect(MimeTypes.getCategory("a.csv")).toBe(MimeCategory.Data);
    expect(MimeTypes.getCategory(".env")).toBe(MimeCategory.Text);
    expect(MimeTypes.getCategory("a.webp")).toBe(MimeCategory.Image);
    expect(MimeTypes.getCategory("a.heic")).toBe(MimeCategory.Image);
    expect(MimeTypes.getCategory("a.7z")).toBe(MimeCategory.Binary);
    expect(MimeTypes.getCategory("a.mp3")).toBe(MimeCategory.Other);
  });
});
