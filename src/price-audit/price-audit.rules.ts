/**
 * The price audit (issue 30): a slot whose machine price differs from the last price the service set or approved
 * was changed at the machine by hand (or by someone else). Pure.
 */
export interface Mismatch {
  slotId: string;
  locationId: string;
  itemId: string;
  title: string;
  machineFen: number;
  serviceFen: number;
  setAt: Date;
}

export interface Flag {
  slotId: string;
  machineFen: number;
  serviceFen: number;
}

/** What a sync's audit changes: flags to raise (new, or the machine price moved again) and flags to clear. */
export function auditChanges(mismatches: Mismatch[], flags: Flag[]): { raise: Mismatch[]; clear: string[] } {
  const flagged = new Map(flags.map((f) => [f.slotId, f]));
  const raise = mismatches.filter((m) => {
    const f = flagged.get(m.slotId);
    return !f || f.machineFen !== m.machineFen || f.serviceFen !== m.serviceFen;
  });
  const still = new Set(mismatches.map((m) => m.slotId));
  return { raise, clear: flags.filter((f) => !still.has(f.slotId)).map((f) => f.slotId) };
}
