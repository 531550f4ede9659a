import mime from "mime";

/** The content categories {@link MimeTypes.getCategory} returns (spec 004). */
export const MimeCategory = {
  Code: "code",
  Web: "web",
  Data: "data",
  Text: "text",
  Image: "image",
  Binary: "binary",
  Other: "other",
} as const;

/** One of the {@link MimeCategory} values. */
export type MimeCategory = (typeof MimeCategory)[keyof typeof MimeCategory];

const octetStream = "application/octet-stream";

// Spec 004's table, grouped as the spec groups it. These entries win over the `mime` package
// (which, for one, reads ".ts" as an MPEG transport stream).
const text = {
  ".txt": "text/plain",
  ".md": "text/markdown",
  ".markdown": "text/markdown",
  ".csv": "text/csv",
  ".log": "text/plain",
};
const code = {
  ".cs": "text/x-csharp",
  ".js": "text/javascript",
  ".ts": "text/typescript",
  ".jsx": "text/jsx",
  ".tsx": "text/typescript-jsx",
  ".py": "text/x-python",
  ".java": "text/x-java",
  ".cpp": "text/x-c++src",
  ".c": "text/x-csrc",
  ".h": "text/x-chdr",
  ".hpp": "text/x-c++hdr",
  ".go": "text/x-go",
  ".rs": "text/x-rust",
  ".rb": "text/x-ruby",
  ".php": "text/x-php",
  ".swift": "text/x-swift",
  ".kt": "text/x-kotlin",
  // Not in the spec: the module flavours of JavaScript and TypeScript.
  ".mjs": "text/javascript",
  ".cjs": "text/javascript",
  ".mts": "text/typescript",
  ".cts": "text/typescript",
};
const web = {
  ".html": "text/html",
  ".htm": "text/html",
  ".css": "text/css",
  ".scss": "text/x-scss",
  ".sass": "text/x-sass",
  ".less": "text/x-less",
  ".vue": "text/x-vue",
  ".svelte": "text/x-svelte",
};
const data = {
  ".json": "application/json",
  ".xml": "application/xml",
  ".yaml": "application/x-yaml",
  ".yml": "application/x-yaml",
  ".toml": "application/toml",
};
const config = {
  ".gitignore": "text/plain",
  ".editorconfig": "text/plain",
  ".env": "text/plain",
  ".ini": "text/plain",
  ".cfg": "text/plain",
  ".conf": "text/plain",
};
const shell = {
  ".sh": "text/x-shellscript",
  ".bash": "text/x-shellscript",
  ".zsh": "text/x-shellscript",
  ".ps1": "text/x-powershell",
  ".bat": "text/x-batch",
  ".cmd": "text/x-batch",
};
const documents = {
  ".pdf": "application/pdf",
  ".doc": "application/msword",
  ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  ".xls": "application/vnd.ms-excel",
  ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};
const images = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".svg": "image/svg+xml",
  ".ico": "image/x-icon",
  ".webp": "image/webp",
};
const binary = {
  ".exe": "application/x-msdownload",
  ".dll": "application/x-msdownload",
  ".so": "application/x-sharedlib",
  ".dylib": "application/x-mach-binary",
  ".zip": "application/zip",
  ".tar": "application/x-tar",
  ".gz": "application/gzip",
  ".7z": "application/x-7z-compressed",
  ".rar": "application/x-rar-compressed",
};

const specTypes = new Map<string, string>(
  Object.entries({
    ...text,
    ...code,
    ...web,
    ...data,
    ...config,
    ...shell,
    ...documents,
    ...images,
    ...binary,
  }),
);

// The spec's text extensions: every group above except documents, images and binaries.
const specTextExtensions = new Set<string>(
  Object.keys({ ...text, ...code, ...web, ...data, ...config, ...shell }),
);

// The spec's GetCategory switch, checked first.
const specCategories = new Map<string, MimeCategory>([
  ...categoryOf([".cs", ".js", ".ts", ".py", ".java", ".cpp", ".go", ".rs"], MimeCategory.Code),
  ...categoryOf([".html", ".htm", ".css", ".vue", ".svelte"], MimeCategory.Web),
  ...categoryOf([".json", ".xml", ".yaml", ".yml", ".toml"], MimeCategory.Data),
  ...categoryOf([".md", ".txt", ".log"], MimeCategory.Text),
  ...categoryOf([".png", ".jpg", ".jpeg", ".gif", ".svg"], MimeCategory.Image),
  ...categoryOf([".exe", ".dll", ".so", ".zip", ".tar", ".gz"], MimeCategory.Binary),
]);

// Beyond the switch, the rest of each spec group falls in the group's category (".tsx" is code
// like ".ts"), so the switch's omissions do not read as "other".
const groupCategories = new Map<string, MimeCategory>([
  ...categoryOf(Object.keys({ ...code, ...shell }), MimeCategory.Code),
  ...categoryOf(Object.keys(web), MimeCategory.Web),
  ...categoryOf([...Object.keys(text), ...Object.keys(config)], MimeCategory.Text),
  // After the text group, so ".csv" (listed there) reads as data.
  ...categoryOf([...Object.keys(data), ".csv"], MimeCategory.Data),
  ...categoryOf(Object.keys(images), MimeCategory.Image),
  ...categoryOf(Object.keys(binary), MimeCategory.Binary),
]);

// Types the mime package reports that are text although not under text/*.
const textApplicationTypes = new Set([
  "application/json",
  "application/xml",
  "application/javascript",
  "application/x-javascript",
  "application/ecmascript",
  "application/sql",
  "application/x-sh",
  "application/x-csh",
  "application/toml",
  "application/yaml",
  "application/x-yaml",
  "application/graphql",
  "application/x-httpd-php",
  "application/x-latex",
  "application/x-tex",
]);

function categoryOf(
  extensions: readonly string[],
  category: MimeCategory,
): [string, MimeCategory][] {
  return extensions.map((extension) => [extension, category]);
}

/**
 * The extension of a file path as .NET's `Path.GetExtension` reads it: from the last dot of the
 * last path segment, lower-cased, or `""`. A dotfile is its own extension (`".gitignore"`), as
 * the spec's table expects; a trailing dot gives `""`.
 */
function getExtension(path: string): string {
  const lastSeparator = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  const dot = path.lastIndexOf(".");
  if (dot <= lastSeparator || dot === path.length - 1) return "";
  return path.slice(dot).toLowerCase();
}

function lookup(extension: string): string | undefined {
  if (extension === "") return undefined;
  return specTypes.get(extension) ?? mime.getType(extension) ?? undefined;
}

/**
 * MIME types and content categories from file extensions (spec 004 `MimeTypes`). The spec's own
 * code, web, data, config and shell types come first; any other extension is looked up in the
 * `mime` package. Extensions are case-insensitive; an unknown one is `application/octet-stream`.
 *
 * @example
 * ```ts
 * MimeTypes.getMimeType("src/App.TSX"); // "text/typescript-jsx"
 * MimeTypes.isTextFile("Cargo.toml");   // true
 * MimeTypes.getCategory("logo.png");    // "image"
 * ```
 */
export const MimeTypes = {
  /** The type given to anything unknown: `"application/octet-stream"`. */
  defaultMimeType: octetStream,

  /** The lower-cased extension of a path (`".ts"`, `".gitignore"`), or `""` when it has none. */
  getExtension,

  /** The MIME type of a file path or name, or `"application/octet-stream"` if unknown. */
  getMimeType(path: string): string {
    return lookup(getExtension(path)) ?? octetStream;
  },

  /**
   * Whether the file is likely text. For the spec's extensions, its text list decides (so
   * `.svg` and `.pdf` are not text); for others, a `text/*` type from the `mime` package or a
   * known text-based application type (`+json`, `+xml`, SQL, ...). No extension: false.
   */
  isTextFile(path: string): boolean {
    const extension = getExtension(path);
    if (extension === "") return false;
    if (specTypes.has(extension)) return specTextExtensions.has(extension);
    const type = mime.getType(extension);
    if (type === null) return false;
    return (
      type.startsWith("text/") ||
      type.endsWith("+json") ||
      type.endsWith("+xml") ||
      textApplicationTypes.has(type)
    );
  },

  /** Whether the file is likely binary: the negation of {@link MimeTypes.isTextFile}. */
  isBinaryFile(path: string): boolean {
    return !MimeTypes.isTextFile(path);
  },

  /**
   * The file's likely content category. The spec's mapping decides first; the rest of the
   * spec's groups follow their group (`.tsx` is code, `.scss` web, `.csv` data, `.env` text);
   * any other `image/*` type is an image; everything else is `"other"`.
   */
  getCategory(path: string): MimeCategory {
    const extension = getExtension(path);
    const known = specCategories.get(extension) ?? groupCategories.get(extension);
    if (known !== undefined) return known;
    return lookup(extension)?.startsWith("image/") === true
      ? MimeCategory.Image
      : MimeCategory.Other;
  },
} as const;
