import { fuzzSuite, RUNS_PER_FILE, SEEDS } from './fuzz.suite';

/**
 * Issue 11 (fuzz.suite.ts), second quarter of the normal run: 100 more mutated requests on a world of their own, with
 * the second fixed seed (20261124, chosen for the split; fuzz.e2e-spec.ts keeps the original 20261123).
 */
fuzzSuite(SEEDS[1], RUNS_PER_FILE);
