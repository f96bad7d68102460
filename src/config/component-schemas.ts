// The parts of the pipeline schema built from an environment's tables (sinks, transforms), built
// once per environment object: every pipeline loaded with the same environment reuses them.
import type { Components } from "../components/environment.js";
import { createSinkConfigSchema } from "../sinks/sink-config.js";
import { createTransformsSchema } from "./transforms-schema.js";

interface ComponentSchemas {
  sink: ReturnType<typeof createSinkConfigSchema>;
  transforms: ReturnType<typeof createTransformsSchema>;
}

const built = new WeakMap<Components, ComponentSchemas>();

/** @example componentSchemas(defaultComponents()).sink.parse({ format: "ndjson", to: "./out" }) */
export function componentSchemas(components: Components): ComponentSchemas {
  let schemas = built.get(components);
  if (schemas === undefined) {
    schemas = {
      sink: createSinkConfigSchema(components),
      transforms: createTransformsSchema(components.transforms),
    };
    built.set(components, schemas);
  }
  return schemas;
}
