/**
 * Expected units a slot fails to sell (pure; docs/replenishment-policy.md, "The route day"). Demand over `t` days is
 * Poisson with mean d·t when the daily spread is no wider than Poisson's, otherwise negative binomial with the same
 * mean and variance σ²·t: intermittent slots sell in bursts, and a mean alone would call a bursty slot safe.
 */

/** E[(D − s)+]: units demanded beyond the stock `s`, for demand D of the given mean and variance. */
export function expectedShortage(stock: number, mean: number, variance: number): number {
  const s = Math.max(0, Math.floor(stock));
  if (!(mean > 0)) return 0;
  if (s === 0) return mean;
  const v = Math.max(mean, variance);
  // Large means: the normal loss function (the pmf recursion underflows and the shape is normal anyway); its Φ is
  // an approximation, so the answer is held within [0, mean], where the true value lies.
  if (mean >= 60) return Math.min(mean, normalLoss(s, mean, Math.sqrt(v)));
  const pmf = v <= mean * 1.0001 ? poissonPmf(mean) : negBinPmf(mean, v);
  // E[(D − s)+] = mean − E[min(D, s)] = mean − Σ_{k<s} P(D > k).
  let cdf = 0;
  let below = 0;
  let p = pmf.first;
  for (let k = 0; k < s; k++) {
    cdf += p;
    below += 1 - cdf;
    p = pmf.next(p, k);
    if (cdf >= 1 - 1e-12) break;
  }
  return Math.max(0, mean - below);
}

interface Pmf {
  first: number;
  /** P(D = k + 1) from P(D = k). */
  next(p: number, k: number): number;
}

function poissonPmf(mean: number): Pmf {
  return { first: Math.exp(-mean), next: (p, k) => (p * mean) / (k + 1) };
}

/** Negative binomial with mean μ and variance v > μ: p = μ / v, r = μ² / (v − μ). */
function negBinPmf(mean: number, variance: number): Pmf {
  const p = mean / variance;
  const r = (mean * mean) / (variance - mean);
  return { first: Math.exp(r * Math.log(p)), next: (q, k) => (q * (k + r) * (1 - p)) / (k + 1) };
}

function normalLoss(s: number, mean: number, sd: number): number {
  const z = (s - mean) / sd;
  const pdf = Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI);
  return Math.max(0, sd * (pdf - z * (1 - normalCdf(z))));
}

/** Φ(z), Abramowitz & Stegun 26.2.17 (error below 7.5e-8). */
function normalCdf(z: number): number {
  const t = 1 / (1 + 0.2316419 * Math.abs(z));
  const d = 0.3989422804014327 * Math.exp((-z * z) / 2);
  const q = d * t * (0.31938153 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
  return z >= 0 ? 1 - q : q;
}
