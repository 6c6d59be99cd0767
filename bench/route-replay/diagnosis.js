// Why units are lost (issue 35, item 6): every lost unit of the service's route is put in one cause, from what the
// route said at the machine's last visit (its picks, its planned cycle) — printed after the table so the route rules
// (src/visits/) can be tuned. For the baselines only the split by demand class is kept.
'use strict';

const CLASSES = [
  ['slow (< 0.5/day)', 0, 0.5],
  ['medium (0.5-1.5/day)', 0.5, 1.5],
  ['fast (≥ 1.5/day)', 1.5, Infinity],
];
const classOf = (slot) => CLASSES.find(([, lo, hi]) => slot.mean >= lo && slot.mean < hi)[0];

const CAUSES = {
  no_visit_yet: 'machine not visited yet since day 0',
  not_picked: 'ran out before the planned next visit; slot not picked at the last visit',
  short: 'ran out before the planned next visit; pick short (warehouse lacked the good)',
  not_picked_short: 'ran out before the planned next visit; slot not picked, its good in warehouse_short that day (nothing left for it)',
  at_capacity: 'ran out before the planned next visit; filled to capacity (the slot cannot hold the cycle)',
  under_filled: 'ran out before the planned next visit; picked in full, fill_to below the demand until then',
  late: 'the planned next visit day passed without a visit',
};

class Diagnosis {
  constructor({ fleet, seed, firstDay }) {
    this.fleet = fleet;
    this.seed = seed;
    this.firstDay = firstDay;
    this.slots = new Map(fleet.flatMap((m) => m.slots.map((s) => [s.id, s])));
    this.lastVisit = new Map(); // location id -> { day, cycle, picks: Map(slot id -> pick) }
    this.byCause = new Map(Object.keys(CAUSES).map((k) => [k, 0]));
    this.byClass = new Map(CLASSES.map(([n]) => [n, { lost: 0, slots: new Set() }]));
    this.bySlot = new Map();
    this.days = [];
    this.rate = { estimated: 0, truth: 0, n: 0 };
    this.cycles = new Map();
    this.skippedLostIfSkipped = 0;
    this.late = { visits: 0, daysLate: 0 };
  }

  routeDay(d, route) {
    this.days.push({ d, stops: route.route.length, planned: route.stops?.planned, skipped: (route.skipped ?? []).length, short: (route.warehouse_short ?? []).reduce((a, w) => a + w.units, 0) });
    for (const stop of route.route) {
      for (const m of stop.machines) {
        for (const s of m.slots ?? []) {
          const truth = this.slots.get(s.slot_id);
          if (!truth) continue;
          this.rate.estimated += s.rate_per_day;
          this.rate.truth += truth.mean;
          this.rate.n++;
        }
      }
    }
  }

  visited(d, m, visit, shortSkus = new Set()) {
    const prev = this.lastVisit.get(m.location_id);
    if (prev && d > prev.day + prev.cycle) {
      this.late.visits++;
      this.late.daysLate += d - (prev.day + prev.cycle);
    }
    const loaded = new Map(visit.slots.map((s) => [s.slot_id, s]));
    const picks = new Map(m.picks.map((p) => [p.slot_id, { ...p, loaded: loaded.get(p.slot_id)?.loaded ?? 0 }]));
    this.lastVisit.set(m.location_id, { day: d, cycle: m.cycle_days, picks, shortSkus });
    this.cycles.set(m.cycle_days, (this.cycles.get(m.cycle_days) ?? 0) + 1);
  }

  lost(slot, d, units) {
    const c = this.byClass.get(classOf(slot));
    c.lost += units;
    c.slots.add(slot.id);
    this.bySlot.set(slot.id, (this.bySlot.get(slot.id) ?? 0) + units);
    const lv = this.lastVisit.get(slot.locationId);
    let cause;
    if (!lv) cause = 'no_visit_yet';
    else if (lv.cycle != null && d >= lv.day + lv.cycle) cause = 'late';
    else {
      const p = lv.picks.get(slot.id);
      if (!p) cause = [...lv.shortSkus].some((k) => k.endsWith(`:${slot.vendorSku}`) || k === slot.vendorSku) ? 'not_picked_short' : 'not_picked';
      else if ((p.short ?? 0) > 0) cause = 'short';
      else if (p.fill_to >= slot.capacity) cause = 'at_capacity';
      else cause = 'under_filled';
    }
    this.byCause.set(cause, this.byCause.get(cause) + units);
  }

  print(baselines) {
    const total = [...this.byCause.values()].reduce((a, b) => a + b, 0);
    const pct = (n, of) => (of ? `${((100 * n) / of).toFixed(0)}%` : '—');
    console.log(`\nours, lost units by cause (${total}):`);
    for (const [k, n] of this.byCause) if (n) console.log(`- ${CAUSES[k]}: ${n} (${pct(n, total)})`);
    console.log('\nlost units by slot demand class (true mean):');
    const counts = new Map(CLASSES.map(([n]) => [n, 0]));
    for (const s of this.slots.values()) counts.set(classOf(s), counts.get(classOf(s)) + 1);
    console.log(`| class | slots | ours | ${[...baselines.keys()].map((k) => `every ${k} days`).join(' | ')} |`);
    console.log(`|---|---:|---:|${[...baselines.keys()].map(() => '---:').join('|')}|`);
    for (const [n] of CLASSES) {
      const cell = (dg) => `${dg.byClass.get(n).lost} (${dg.byClass.get(n).slots.size} slots)`;
      console.log(`| ${n} | ${counts.get(n)} | ${cell(this)} | ${[...baselines.values()].map(cell).join(' | ')} |`);
    }
    const worst = [...this.bySlot].sort((a, b) => b[1] - a[1]).slice(0, 5);
    console.log(`\nours, slots losing most: ${worst.map(([id, n]) => `${id} (${n} lost, true ${this.slots.get(id).mean.toFixed(2)}/day, capacity ${this.slots.get(id).capacity})`).join('; ')}`);
    console.log(`ours, rate_per_day of routed slots over their true mean: ${this.rate.truth ? (this.rate.estimated / this.rate.truth).toFixed(3) : '—'} (${this.rate.n} slot-visits)`);
    console.log(`ours, planned cycle_days at visits: ${[...this.cycles].sort((a, b) => a[0] - b[0]).map(([c, n]) => `${c}: ${n}`).join(', ')}; visits after the planned day: ${this.late.visits} (${this.late.daysLate} days late in all)`);
    const shortDays = this.days.filter((x) => x.short > 0).length;
    console.log(`ours, days with warehouse_short: ${shortDays} of ${this.days.length}; stops per day: ${this.days.map((x) => x.stops).join(' ')}`);
  }
}

module.exports = { Diagnosis, CAUSES, CLASSES };
