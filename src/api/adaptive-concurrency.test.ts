import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AdaptiveConcurrency } from "./adaptive-concurrency.js";

/** What can happen to the controller: a request sent, an answer, time passing. */
type Step =
  | { type: "sent"; inFlight: number }
  | { type: "answered"; rttMs: number; overloaded: boolean }
  | { type: "wait"; ms: number };

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ type: fc.constant("sent" as const), inFlight: fc.integer({ min: 1, max: 80 }) }),
  fc.record({
    type: fc.constant("answered" as const),
    rttMs: fc.integer({ min: 0, max: 5_000 }),
    overloaded: fc.boolean(),
  }),
  fc.record({ type: fc.constant("wait" as const), ms: fc.integer({ min: 0, max: 10_000 }) }),
);

function controllerAt(max: number): { arc: AdaptiveConcurrency; apply(step: Step): void; changes: number[] } {
  let now = 0;
  const changes: number[] = [];
  const arc = new AdaptiveConcurrency({ max, now: () => now, onChange: (limit) => changes.push(limit) });
  return {
    arc,
    changes,
    apply(step) {
      if (step.type === "sent") arc.sent(step.inFlight);
      else if (step.type === "answered") arc.answered(step);
      else now += step.ms;
    },
  };
}

/** Ends the window now with `answer` in it: long past any average round trip. */
function endWindowWith(subject: ReturnType<typeof controllerAt>, overloaded: boolean, rttMs = 0): void {
  subject.apply({ type: "wait", ms: 1e9 });
  subject.apply({ type: "answered", rttMs, overloaded });
}

describe("adaptive concurrency", () => {
  it("keeps the limit between 1 and the maximum, moving up by one or down, whatever the service does", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 64 }),
        fc.array(stepArbitrary, { maxLength: 300 }),
        (max, steps) => {
          const subject = controllerAt(max);
          expect(subject.arc.limit).toBe(max);
          let before = subject.arc.limit;
          for (const step of steps) {
            subject.apply(step);
            const after = subject.arc.limit;
            expect(after).toBeGreaterThanOrEqual(1);
            expect(after).toBeLessThanOrEqual(max);
            expect(after === before || after === before + 1 || after < before).toBe(true);
            before = after;
          }
        },
      ),
    );
  });

  it("lowers the limit at the end of a window in which the service pushed back, down to 1", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 64 }),
        fc.array(stepArbitrary, { maxLength: 100 }),
        (max, steps) => {
          const subject = controllerAt(max);
          for (const step of steps) subject.apply(step);
          const before = subject.arc.limit;
          endWindowWith(subject, true);
          expect(subject.arc.limit).toBe(before === 1 ? 1 : Math.min(before - 1, Math.floor(before * 0.9)));
        },
      ),
    );
  });

  it("never raises the limit in windows where it was not reached", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 64 }),
        fc.array(stepArbitrary, { maxLength: 200 }),
        (max, steps) => {
          const subject = controllerAt(max);
          endWindowWith(subject, true);
          let before = subject.arc.limit;
          for (const step of steps) {
            // Never as many in flight as the limit allows: no reason to allow more.
            const kept: Step =
              step.type === "sent" ? { type: "sent", inFlight: Math.max(0, subject.arc.limit - 1) } : step;
            subject.apply(kept);
            expect(subject.arc.limit).toBeLessThanOrEqual(before);
            before = subject.arc.limit;
          }
        },
      ),
    );
  });

  it("lowers the limit when the answers come clearly slower than usual, and not for jitter", () => {
    const subject = controllerAt(8);
    for (let i = 0; i < 5; i++) {
      subject.apply({ type: "sent", inFlight: 8 });
      endWindowWith(subject, false, 100 + (i % 2));
    }
    expect(subject.arc.limit).toBe(8);
    endWindowWith(subject, false, 140);
    expect(subject.arc.limit).toBe(8);
    // One slow window may be this process's own pause; two in a row are the service's.
    endWindowWith(subject, false, 400);
    expect(subject.arc.limit).toBe(8);
    endWindowWith(subject, false, 100);
    endWindowWith(subject, false, 400);
    expect(subject.arc.limit).toBe(8);
    endWindowWith(subject, false, 400);
    expect(subject.arc.limit).toBe(7);
  });

  it("rises back to the maximum by one a window once the push-back stops and the limit is reached", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 32 }), fc.integer({ min: 1, max: 20 }), (max, overloads) => {
        const subject = controllerAt(max);
        for (let i = 0; i < overloads; i++) endWindowWith(subject, true);
        const lowest = subject.arc.limit;
        expect(lowest).toBeLessThanOrEqual(Math.max(1, max - 1));
        for (let window = 0; window < max - lowest; window++) {
          subject.apply({ type: "sent", inFlight: subject.arc.limit });
          const before = subject.arc.limit;
          endWindowWith(subject, false, 50);
          expect(subject.arc.limit).toBe(before + 1);
        }
        expect(subject.arc.limit).toBe(max);
        expect(subject.changes.at(-1) ?? max).toBe(max);
      }),
    );
  });

  it("ends a window only once it has lasted about one average round trip", () => {
    const subject = controllerAt(4);
    subject.apply({ type: "sent", inFlight: 4 });
    endWindowWith(subject, false, 200);
    // The average round trip is now 200 ms: a push-back 100 ms into the window does not act yet.
    subject.apply({ type: "wait", ms: 100 });
    subject.apply({ type: "answered", rttMs: 0, overloaded: true });
    expect(subject.arc.limit).toBe(4);
    subject.apply({ type: "wait", ms: 100 });
    subject.apply({ type: "answered", rttMs: 200, overloaded: false });
    expect(subject.arc.limit).toBe(3);
  });
});
