/**
 * Contact laws shared by the simulators: pure functions of scalars.
 *
 * @module
 */
export * from "./normal.ts";
export * from "./tangential.ts";
export * from "./rolling.ts";
export * from "./cohesion.ts";
export * from "./mixing.ts";
export { CONTACT_KIND_NAMES, ContactKind, type ContactKindName, ContactRecord } from "./record.ts";
export * from "./stats.ts";
