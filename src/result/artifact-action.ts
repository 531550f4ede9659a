/** The action a tool performed on an artifact (spec 004 `ArtifactAction`). */
export const ArtifactAction = {
  /** The artifact was created. */
  Created: "Created",
  /** The artifact was modified. */
  Modified: "Modified",
  /** The artifact was deleted. */
  Deleted: "Deleted",
  /** The artifact was read or accessed. */
  Accessed: "Accessed",
  /** The artifact was moved or renamed. */
  Moved: "Moved",
} as const;

/** One of the {@link ArtifactAction} values. */
export type ArtifactAction = (typeof ArtifactAction)[keyof typeof ArtifactAction];
