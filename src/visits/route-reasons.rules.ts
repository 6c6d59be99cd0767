/** Why each stop is visited or skipped today, in words, with the figures behind it (pure). */
import { addDays, type StopAssessment } from './route.rules';

const yuan = (fen: number) => `¥${(Math.max(0, fen) / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** "Mon 30 Nov" for `k` days after `todayIso`. */
export function dayLabel(todayIso: string, k: number): string {
  const d = new Date(Date.parse(`${addDays(todayIso, k)}T00:00:00Z`));
  return `${DAYS[d.getUTCDay()]} ${d.getUTCDate()} ${d.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' })}`;
}

export function stopReason(s: StopAssessment, todayIso: string, stopsPerDay: number): string {
  const next = s.nextPossible === null ? 'its next visit day' : dayLabel(todayIso, s.nextPossible);
  const saved = s.nextPossible === null ? 0 : s.nextPossible * s.costPerDayFen;
  const cost = `a stop costs ${yuan(s.stopCostFen)}, ${yuan(s.costPerDayFen)} a day over its best ${s.cycleDays}-day cycle`;
  switch (s.decision) {
    case 'due':
      return `Skipping it until ${next} would lose about ${yuan(s.lostIfSkippedFen)} of margin, more than the ${yuan(saved)} the wait would save (${cost}).`;
    case 'pulled_forward': {
      const crowded = s.crowdedDay ? `${dayLabel(todayIso, s.crowdedDay.day)}, when ${s.crowdedDay.due} stops are due for ${stopsPerDay}` : 'a later day that is full';
      return `Not due until ${crowded}: visiting today, while there is room, keeps that day within capacity (skipping would lose about ${yuan(s.lostIfSkippedFen)} by ${next}).`;
    }
    case 'over_capacity':
      return `Due, but today's ${stopsPerDay} stops went to stops worth more; waiting until ${next} loses about ${yuan(s.lostIfSkippedFen)}.`;
    case 'not_a_visit_day':
      return `Not a visit day for this machine; next possible ${next}.`;
    case 'nothing_sells':
      return 'Nothing here sells at a known rate with a margin, so no visit pays.';
    case 'not_due': {
      const due = s.dueIn === null ? 'not due within the week ahead' : `due ${dayLabel(todayIso, s.dueIn)}`;
      return `Waiting until ${next} loses about ${yuan(s.lostIfSkippedFen)}, less than the ${yuan(saved)} the wait saves (${cost}); ${due}.`;
    }
  }
}
