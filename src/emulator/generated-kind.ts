// The kinds whose records the emulator generates: those the wire's field table lists. A summary kind
// (billing) has no record fields of its own; its entry in kind-data.ts says which records it counts.
import type { KIND_FIELDS } from "../api/wire/fields.js";

export type GeneratedKind = keyof typeof KIND_FIELDS;
