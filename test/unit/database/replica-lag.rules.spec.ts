import { hasReplayed, parseLsn, PrimaryLsnHistory, replicaState } from '../../../src/database/replicas/replica-lag.rules';

describe('replica lag rules', () => {
  it('parses WAL positions and compares them as numbers', () => {
    expect(parseLsn('0/3000000')).toBe(0x3000000n);
    expect(parseLsn('1/0')).toBe(1n << 32n);
    expect(parseLsn('nope')).toBeNull();
    expect(parseLsn(null)).toBeNull();
    // '0/A0' is past '0/9F' although it sorts before it as text.
    expect(hasReplayed('0/A0', '0/9F')).toBe(true);
    expect(hasReplayed('0/9F', '0/A0')).toBe(false);
    expect(hasReplayed('0/A0', '0/A0')).toBe(true);
    expect(hasReplayed(null, '0/1')).toBe(false);
    expect(hasReplayed(null, null)).toBe(true);
  });

  it('has no lag when the replica replayed what the primary had at the last sample', () => {
    const h = new PrimaryLsnHistory(10_000);
    h.add(1000, '0/100');
    h.add(1500, '0/200');
    expect(h.lagMs('0/200', 1600)).toBe(0);
    expect(h.lagMs('0/250', 1600)).toBe(0);
  });

  it('dates the lag from the first sample the replica has not replayed, and it grows while replay is stuck', () => {
    const h = new PrimaryLsnHistory(10_000);
    h.add(1000, '0/100');
    h.add(1500, '0/200');
    h.add(2000, '0/300');
    expect(h.lagMs('0/100', 2100)).toBe(600);
    expect(h.lagMs('0/100', 5100)).toBe(3600);
    expect(h.lagMs('0/250', 2100)).toBe(100);
  });

  it('is not fooled by an idle primary: no new WAL, no lag', () => {
    const h = new PrimaryLsnHistory(10_000);
    h.add(1000, '0/100');
    h.add(60_000, '0/100');
    expect(h.lagMs('0/100', 60_000)).toBe(0);
  });

  it('keeps one sample older than the window, so an old replay position still reads as a long lag', () => {
    const h = new PrimaryLsnHistory(1000);
    for (let t = 0; t <= 10_000; t += 500) h.add(t, `0/${(t + 16).toString(16)}`);
    expect(h.lagMs('0/0', 10_000)).toBeGreaterThanOrEqual(1000);
    expect(h.lagMs(null, 10_000)).toBeNull();
  });

  it('serves reads only from an answering standby within the bound', () => {
    expect(replicaState({ answered: true, inRecovery: true, lagMs: 10 }, 100)).toBe('up');
    expect(replicaState({ answered: true, inRecovery: true, lagMs: 101 }, 100)).toBe('lagging');
    expect(replicaState({ answered: true, inRecovery: true, lagMs: null }, 100)).toBe('lagging');
    expect(replicaState({ answered: false, inRecovery: true, lagMs: 0 }, 100)).toBe('down');
    expect(replicaState({ answered: true, inRecovery: false, lagMs: 0 }, 100)).toBe('down');
  });
});
