export { ToolAvailabilityContext } from "./tool-availability-context.js";
export {
  ToolRegistry,
  type ToolRegistryChangedEvent,
  ToolRegistryChangeType,
  type ToolRegistryConfig,
  type ToolRegistryEvents,
} from "./tool-registry.js";
export { DuplicateToolError, InvalidToolError, ToolNotFoundError } from "./tool-registry-errors.js";
