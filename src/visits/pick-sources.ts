/**
 * Where a visit's units come from. Each source offers units per slot; the visits service asks them in the order of
 * PICK_SOURCES and a slot takes the first offer (visits.rules pickList). Today the one source is the open runs; a
 * depot (stock held at the operator's depot) is a second provider added to PICK_SOURCES ahead of or after it.
 */
import { Injectable } from '@nestjs/common';
import type { PickOffer } from './visits.rules';
import { VisitsRepository } from './visits.repository';

export interface PickSource {
  readonly kind: string;
  offers(): Promise<PickOffer[]>;
}

export const PICK_SOURCES = Symbol('PICK_SOURCES');

/** Goods of runs not yet delivered: each slot line's units, the placed runs first. */
@Injectable()
export class OpenRunPickSource implements PickSource {
  readonly kind = 'open_run';
  constructor(private readonly repo: VisitsRepository) {}

  async offers(): Promise<PickOffer[]> {
    const lines = await this.repo.openRunLines();
    return lines.map((l) => ({ slotId: l.slotId, units: l.units, origin: { kind: 'open_run', runId: l.runId, runStatus: l.runStatus } }));
  }
}
