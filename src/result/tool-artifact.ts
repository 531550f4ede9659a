import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import { ArtifactAction } from "./artifact-action.js";
import { ArtifactType } from "./artifact-type.js";
import { MimeTypes } from "./mime-types.js";

/** Options of {@link ToolArtifact.file}. */
export interface FileArtifactOptions {
  /** True when the tool created the file, false when it modified it (default false). */
  readonly isNew?: boolean;
  readonly description?: string;
  /** Size in bytes; by default read from the file if it exists. */
  readonly size?: number;
  /** A content hash, e.g. from {@link ToolArtifact.hashContent}. */
  readonly contentHash?: string;
}

/** Options of {@link ToolArtifact.fileWithContent}. */
export interface FileWithContentOptions {
  /** True when the tool creates the file (default true), false when it overwrites it. */
  readonly isNew?: boolean;
  readonly description?: string;
}

/** Options of {@link ToolArtifact.directory}. */
export interface DirectoryArtifactOptions {
  /** True when the tool created the directory (default false). */
  readonly isNew?: boolean;
  readonly description?: string;
}

/** Options of {@link ToolArtifact.custom}. */
export interface CustomArtifactOptions {
  readonly description?: string;
  /** Default {@link ArtifactAction.Created}. */
  readonly action?: ArtifactAction;
  readonly isNew?: boolean;
  readonly size?: number;
  readonly mimeType?: string;
  readonly contentHash?: string;
}

/** The JSON form of a {@link ToolArtifact} (`JSON.stringify(artifact)`). */
export interface ToolArtifactJson {
  readonly type: string;
  readonly path: string;
  readonly description?: string;
  readonly size?: number;
  readonly mimeType?: string;
  readonly contentHash?: string;
  readonly isNew: boolean;
  /** ISO 8601. */
  readonly timestamp: string;
  readonly action: ArtifactAction;
}

interface ToolArtifactInit {
  readonly type: string;
  readonly path: string;
  readonly action: ArtifactAction;
  readonly description?: string | undefined;
  readonly size?: number | undefined;
  readonly mimeType?: string | undefined;
  readonly contentHash?: string | undefined;
  readonly isNew?: boolean | undefined;
}

const kib = 1024;
const mib = 1024 * kib;
const gib = 1024 * mib;

/**
 * Something a tool execution produced or touched: a file created, modified or deleted, a
 * directory, a URL, terminal output (spec 004 `ToolArtifact`). Used to tell the user and the
 * model what changed, for audit, and for undo.
 *
 * Immutable: built only through the static factories, and frozen.
 *
 * @example
 * ```ts
 * ToolArtifact.file("src/app.ts", { isNew: true, description: "Created entry point" });
 * ToolArtifact.fileWithContent("out/report.md", markdown); // size and SHA-256 from the content
 * ```
 */
export class ToolArtifact {
  /** `"file"`, `"directory"`, `"url"`, `"output"` (see {@link ArtifactType}) or a custom type. */
  readonly type: string;
  /** A filesystem path, a URL, or an output identifier such as `"terminal"`. */
  readonly path: string;
  readonly description: string | undefined;
  /** Size in bytes (files and output). */
  readonly size: number | undefined;
  /** MIME type (files), from {@link MimeTypes.getMimeType}. */
  readonly mimeType: string | undefined;
  /** Hash of the content, `"sha256:<64 hex digits>"` when made by {@link ToolArtifact.hashContent}. */
  readonly contentHash: string | undefined;
  /** True for a created artifact, false for a modified one. */
  readonly isNew: boolean;
  readonly action: ArtifactAction;
  readonly #timestampMs: number;

  private constructor(init: ToolArtifactInit) {
    this.type = init.type;
    this.path = init.path;
    this.description = init.description;
    this.size = init.size;
    this.mimeType = init.mimeType;
    this.contentHash = init.contentHash;
    this.isNew = init.isNew ?? false;
    this.action = init.action;
    this.#timestampMs = Date.now();
    Object.freeze(this);
  }

  /** When the artifact was created or modified (a fresh `Date` on each read). */
  get timestamp(): Date {
    return new Date(this.#timestampMs);
  }

  /** Whether this is a file artifact. */
  get isFile(): boolean {
    return this.type === ArtifactType.File;
  }

  /** Whether this is a directory artifact. */
  get isDirectory(): boolean {
    return this.type === ArtifactType.Directory;
  }

  /** Whether this is a URL artifact. */
  get isUrl(): boolean {
    return this.type === ArtifactType.Url;
  }

  /**
   * The size for people: `"512 B"`, `"1.5 KB"`, `"2.0 MB"`, `"1.25 GB"` (1024-based; one decimal
   * for KB and MB, two for GB), or `undefined` when the size is unknown.
   */
  get sizeDisplay(): string | undefined {
    const size = this.size;
    if (size === undefined) return undefined;
    if (size < kib) return `${size} B`;
    if (size < mib) return `${(size / kib).toFixed(1)} KB`;
    if (size < gib) return `${(size / mib).toFixed(1)} MB`;
    return `${(size / gib).toFixed(2)} GB`;
  }

  /** The last segment of the path (`"app.ts"` for `"src/app.ts"`); `""` when it ends in a slash. */
  get fileName(): string {
    const lastSeparator = Math.max(this.path.lastIndexOf("/"), this.path.lastIndexOf("\\"));
    return this.path.slice(lastSeparator + 1);
  }

  /** The JSON form, with the timestamp as an ISO string. */
  toJSON(): ToolArtifactJson {
    return {
      type: this.type,
      path: this.path,
      ...(this.description !== undefined && { description: this.description }),
      ...(this.size !== undefined && { size: this.size }),
      ...(this.mimeType !== undefined && { mimeType: this.mimeType }),
      ...(this.contentHash !== undefined && { contentHash: this.contentHash }),
      isNew: this.isNew,
      timestamp: this.timestamp.toISOString(),
      action: this.action,
    };
  }

  /**
   * The SHA-256 of some content as `"sha256:<64 lower-case hex digits>"` (the format spec 004
   * names). A string is hashed as its UTF-8 bytes.
   */
  static hashContent(content: string | Uint8Array): string {
    return `sha256:${createHash("sha256").update(content).digest("hex")}`;
  }

  /**
   * A file the tool created (`isNew: true`) or modified. The size is read from the file when it
   * exists (a file that cannot be read has no size); the MIME type comes from the extension.
   */
  static file(path: string, options: FileArtifactOptions = {}): ToolArtifact {
    const isNew = options.isNew ?? false;
    return new ToolArtifact({
      type: ArtifactType.File,
      path,
      description: options.description,
      size: options.size ?? sizeOnDisk(path),
      isNew,
      mimeType: MimeTypes.getMimeType(path),
      contentHash: options.contentHash,
      action: isNew ? ArtifactAction.Created : ArtifactAction.Modified,
    });
  }

  /**
   * A file with content the tool wrote or is about to write. The size is the content's byte
   * length (UTF-8 for a string) and the content hash its SHA-256. Passing a number instead gives
   * the size only, as in the spec's `FileWithContent(path, size, ...)`.
   */
  static fileWithContent(
    path: string,
    content: string | Uint8Array | number,
    options: FileWithContentOptions = {},
  ): ToolArtifact {
    const isNew = options.isNew ?? true;
    const hasContent = typeof content !== "number";
    return new ToolArtifact({
      type: ArtifactType.File,
      path,
      description: options.description,
      size: hasContent ? byteLength(content) : content,
      isNew,
      mimeType: MimeTypes.getMimeType(path),
      contentHash: hasContent ? ToolArtifact.hashContent(content) : undefined,
      action: isNew ? ArtifactAction.Created : ArtifactAction.Modified,
    });
  }

  /** A file the tool deleted; the description defaults to `"Deleted"`. */
  static deletedFile(path: string, description?: string): ToolArtifact {
    return new ToolArtifact({
      type: ArtifactType.File,
      path,
      description: description ?? "Deleted",
      isNew: false,
      action: ArtifactAction.Deleted,
    });
  }

  /** A directory the tool created (`isNew: true`) or modified. */
  static directory(path: string, options: DirectoryArtifactOptions = {}): ToolArtifact {
    const isNew = options.isNew ?? false;
    return new ToolArtifact({
      type: ArtifactType.Directory,
      path,
      description: options.description,
      isNew,
      action: isNew ? ArtifactAction.Created : ArtifactAction.Modified,
    });
  }

  /** A URL the tool accessed or produced. */
  static url(url: string, description?: string): ToolArtifact {
    return new ToolArtifact({
      type: ArtifactType.Url,
      path: url,
      description,
      action: ArtifactAction.Accessed,
    });
  }

  /**
   * Terminal output (path `"terminal"`); the size is the output's UTF-8 byte length. The output
   * itself is not kept: put it in the result's data.
   */
  static terminalOutput(output: string, description?: string): ToolArtifact {
    return new ToolArtifact({
      type: ArtifactType.Output,
      path: "terminal",
      description: description ?? "Terminal output",
      size: byteLength(output),
      action: ArtifactAction.Created,
    });
  }

  /**
   * An artifact of any other type. The third argument is a description, or options that also
   * set the action (e.g. {@link ArtifactAction.Moved}), size, MIME type or content hash.
   */
  static custom(
    type: string,
    path: string,
    descriptionOrOptions?: string | CustomArtifactOptions,
  ): ToolArtifact {
    const options: CustomArtifactOptions =
      typeof descriptionOrOptions === "string"
        ? { description: descriptionOrOptions }
        : (descriptionOrOptions ?? {});
    return new ToolArtifact({
      type,
      path,
      description: options.description,
      size: options.size,
      mimeType: options.mimeType,
      contentHash: options.contentHash,
      isNew: options.isNew,
      action: options.action ?? ArtifactAction.Created,
    });
  }
}

function sizeOnDisk(path: string): number | undefined {
  try {
    const stats = statSync(path, { throwIfNoEntry: false });
    return stats?.isFile() === true ? stats.size : undefined;
  } catch {
    return undefined;
  }
}

function byteLength(content: string | Uint8Array): number {
  return typeof content === "string" ? Buffer.byteLength(content, "utf8") : content.byteLength;
}
