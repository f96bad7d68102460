// The parts of the emulator's awkward data (docs/emulator.md, "Awkward data"), in one list: the
// emulator builds its profile from them and config/ validates `service.awkward` against them, and
// config/ may not import the emulator.
export const AWKWARD_PARTS = [
  "int64",
  "unicode",
  "nesting",
  "dates",
  "repeatedKeys",
  "hitKeys",
  "conflicts",
] as const;
