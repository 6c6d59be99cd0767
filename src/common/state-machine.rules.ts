/**
 * A state machine as data: the legal moves out of each state. Pure (no Nest, no TypeORM). Every status a service
 * writes goes through `move(from, to)` of its capability's machine (checkout.rules.ts, run.rules.ts, ...).
 */

/** An illegal move is a programming error (the caller's conditional update should have made it impossible). */
export class IllegalTransition extends Error {
  constructor(
    readonly machine: string,
    readonly from: string,
    readonly to: string,
  ) {
    super(`${machine}: ${from} -> ${to} is not a legal move`);
  }
}

export interface StateMachine<S extends string> {
  readonly name: string;
  readonly states: readonly S[];
  can(from: S, to: S): boolean;
  /** `to` when the move is legal; throws IllegalTransition otherwise. */
  move(from: S | string, to: S): S;
  /** The states `to` may be reached from (the `WHERE status IN (...)` of a conditional update). */
  sourcesOf(to: S): S[];
}

export function stateMachine<S extends string>(name: string, moves: Record<S, readonly S[]>): StateMachine<S> {
  const states = Object.keys(moves) as S[];
  const can = (from: S, to: S): boolean => (moves[from] ?? []).includes(to);
  return {
    name,
    states,
    can,
    move(from, to) {
      if (!states.includes(from as S) || !can(from as S, to)) throw new IllegalTransition(name, from, to);
      return to;
    },
    sourcesOf: (to) => states.filter((s) => can(s, to)),
  };
}
