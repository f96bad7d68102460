// The component environment: the tables of transforms, formats, destinations and data kinds a
// pipeline is loaded and run with. The CLI uses the built-in ones; a test or an embedding program adds
// its own with `withComponents`, and passes the result to loadPipeline and runPipeline, so adding a
// component never means replacing a module.
import type { TransformComponent } from "../core/contracts.js";
import type { Format } from "../formats/format.js";
import type { DataKindComponent } from "../kinds/data-kind.js";
import type { Destination } from "../sinks/destination.js";
import type { SinkConfig } from "../sinks/sink-config.js";
import { componentNamed, DESTINATIONS, FORMATS, KINDS, TRANSFORMS } from "./registry.js";

export interface Components {
  /** By their YAML key (`- rename: {...}`). */
  readonly transforms: Readonly<Record<string, TransformComponent>>;
  /** By the sink's `format` value. */
  readonly formats: Readonly<Record<string, Format>>;
  /** By type, the key of their options on a sink (`s3:`); the sink's `to` picks one by its form. */
  readonly destinations: Readonly<Record<string, Destination>>;
  /** By `source.kind`: the service's kinds, and any a program adds under a name of its own. */
  readonly kinds: Readonly<Record<string, DataKindComponent>>;
}

/** What `withComponents` adds: any of the tables, each entry added or replacing one by its key. */
export type ComponentAdditions = { readonly [Table in keyof Components]?: Partial<Components[Table]> };

const DEFAULT_COMPONENTS: Components = Object.freeze({
  transforms: TRANSFORMS,
  formats: FORMATS,
  destinations: DESTINATIONS,
  kinds: KINDS,
});

/** The built-in components: one object, so what is built from it (the schema) is built once. */
export function defaultComponents(): Components {
  return DEFAULT_COMPONENTS;
}

function merged<T>(
  base: Readonly<Record<string, T>>,
  extra: Partial<Readonly<Record<string, T>>> | undefined,
) {
  const table: Record<string, T> = { ...base };
  for (const [key, value] of Object.entries(extra ?? {})) if (value !== undefined) table[key] = value;
  return Object.freeze(table);
}

/**
 * A new environment: `base` with `extra`'s components added (or replacing those of the same key).
 * @example const components = withComponents(defaultComponents(), { formats: { tsv: tsvFormat } });
 * const pipeline = await loadPipeline(file, { env, components });
 */
export function withComponents(base: Components, extra: ComponentAdditions): Components {
  return Object.freeze({
    transforms: merged(base.transforms, extra.transforms),
    formats: merged(base.formats, extra.formats),
    destinations: merged(base.destinations, extra.destinations),
    kinds: merged(base.kinds, extra.kinds),
  });
}

/** The format a validated sink names (see componentNamed). */
export function formatOf(components: Components, sink: Pick<SinkConfig, "format">): Format {
  return componentNamed(components.formats, sink.format, "format", "sinks.format");
}

/** The data kind a validated source names (see componentNamed). */
export function kindOf(components: Pick<Components, "kinds">, kind: string): DataKindComponent {
  return componentNamed(components.kinds, kind, "kind", "source.kind");
}
