/**
 * The standard artifact types (spec 004: "file", "directory", "url", "output"). Custom types are
 * allowed through `ToolArtifact.custom(...)`; compare against these constants, not literals.
 */
export const ArtifactType = {
  File: "file",
  Directory: "directory",
  Url: "url",
  /** Output such as a terminal's, located by an identifier like `"terminal"`. */
  Output: "output",
} as const;

/** One of the standard {@link ArtifactType} values. */
export type ArtifactType = (typeof ArtifactType)[keyof typeof ArtifactType];
