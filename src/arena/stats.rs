//! Match statistics: score fraction, Elo difference with a 95 % interval, likelihood of
//! superiority and a sequential probability ratio test.
//!
//! The formulas follow what users know from cutechess-cli (its `Elo` class: logistic Elo from
//! the score fraction, error bars from the per-game variance of the score, LOS from the
//! normal approximation of wins against losses) and fastchess (the trinomial GSPRT
//! log-likelihood ratio of Michel Van den Bergh, logistic model, no BayesElo draw model).
//! The code is written from the formulas, not copied.
//!
//! Game pairs (one opening, colours swapped) are also counted as fastchess and fishtest do:
//! the *pentanomial* counts of the first engine's pair scores 0, 1/2, 1, 3/2, 2; the Elo,
//! error bar and SPRT then use the mean and variance of the pair score, which removes the
//! variance the openings and seats add. Ratings of three or more engines come from a
//! Bradley-Terry fit by maximum likelihood ([`bradley_terry`]), as BayesElo and Ordo do.

/// Two-sided 95 % quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The logistic Elo difference that gives the expected score `s` (0 < s < 1):
/// `-400 log10(1/s - 1)`. Infinite at 0 and 1.
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        // `+ 0.0` turns the -0.0 of s = 0.5 into 0.0 for printing.
        -400.0 * (1.0 / s - 1.0).log10() + 0.0
    }
}

/// The expected score of a player `elo` points stronger: the inverse of [`elo_from_score`].
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, by the rational approximation 7.1.26 of Abramowitz and Stegun
/// (absolute error below 1.5e-7, plenty for a percentage printed to one decimal).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - poly * (-x * x).exp())
}

/// Per-game scores of one side, each in [0, 1], kept as count, sum and sum of squares.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ScoreSample {
    pub games: u64,
    pub sum: f64,
    pub sum_sq: f64,
}

impl ScoreSample {
    pub fn add(&mut self, x: f64) {
        self.games += 1;
        self.sum += x;
        self.sum_sq += x * x;
    }

    /// Mean score, 0.5 before any game.
    pub fn mean(&self) -> f64 {
        if self.games == 0 {
            0.5
        } else {
            self.sum / self.games as f64
        }
    }

    /// Variance of one game's score (population variance, as cutechess-cli computes it).
    pub fn variance(&self) -> f64 {
        if self.games == 0 {
            return 0.0;
        }
        let m = self.mean();
        (self.sum_sq / self.games as f64 - m * m).max(0.0)
    }

    pub fn elo(&self) -> f64 {
        elo_from_score(self.mean())
    }

    /// Half the width of the 95 % Elo interval: the score interval mean +/- 1.96 standard
    /// errors, mapped through [`elo_from_score`] (the map is not linear, so the half-width of
    /// the mapped interval is used, as cutechess-cli does). NaN before any game.
    pub fn elo_error(&self) -> f64 {
        if self.games == 0 {
            return f64::NAN;
        }
        let stderr = (self.variance() / self.games as f64).sqrt();
        let lo = self.mean() - Z95 * stderr;
        let hi = self.mean() + Z95 * stderr;
        (elo_from_score(hi) - elo_from_score(lo)) / 2.0
    }
}

/// Wins, losses and draws of the first engine of a two-engine match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wld {
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
}

impl Wld {
    pub fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    pub fn sample(&self) -> ScoreSample {
        ScoreSample {
            games: self.games(),
            sum: self.wins as f64 + 0.5 * self.draws as f64,
            sum_sq: self.wins as f64 + 0.25 * self.draws as f64,
        }
    }

    pub fn score(&self) -> f64 {
        self.sample().mean()
    }

    pub fn elo(&self) -> f64 {
        self.sample().elo()
    }

    pub fn elo_error(&self) -> f64 {
        self.sample().elo_error()
    }

    /// Likelihood of superiority in [0, 1]: `0.5 (1 + erf((w - l) / sqrt(2 (w + l))))`;
    /// 0.5 while there are no decisive games.
    pub fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        let diff = self.wins as f64 - self.losses as f64;
        0.5 * (1.0 + erf(diff / (2.0 * decisive).sqrt()))
    }

    pub fn draw_ratio(&self) -> f64 {
        if self.games() == 0 {
            0.0
        } else {
            self.draws as f64 / self.games() as f64
        }
    }
}

/// Game pairs: `counts[k]` pairs in which the first engine scored k/2 points out of 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    pub counts: [u64; 5],
}

impl Pentanomial {
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// One sample a pair: the pair's mean score per game, 0, 0.25, ..., 1.
    pub fn sample(&self) -> ScoreSample {
        let mut s = ScoreSample::default();
        for (k, &n) in self.counts.iter().enumerate() {
            let x = k as f64 / 4.0;
            s.games += n;
            s.sum += n as f64 * x;
            s.sum_sq += n as f64 * x * x;
        }
        s
    }

    /// Elo from the mean pair score, and the half-width of its 95 % interval from the
    /// variance between pairs (fastchess's pentanomial error).
    pub fn elo(&self) -> f64 {
        self.sample().elo()
    }

    pub fn elo_error(&self) -> f64 {
        self.sample().elo_error()
    }
}

/// Parameters of a sequential probability ratio test of H0: elo = elo0 against
/// H1: elo = elo1, with error rates alpha (false H1) and beta (false H0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    Continue,
    AcceptH0,
    AcceptH1,
}

impl Sprt {
    /// Wald's bounds: accept H0 at or below `ln(beta / (1 - alpha))`, H1 at or above
    /// `ln((1 - beta) / alpha)`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The generalised-SPRT log-likelihood ratio for trinomial results: with the mean
    /// score m and per-game variance v of n games, and s0, s1 the scores that elo0 and
    /// elo1 predict, `LLR = n (s1 - s0) (2m - s0 - s1) / (2v)`. This is the normal
    /// approximation that fastchess and fishtest use. It is 0 while v is 0 (all results
    /// alike), as the variance is not known yet.
    pub fn llr(&self, wld: &Wld) -> f64 {
        self.llr_of(&wld.sample())
    }

    /// The same ratio from game pairs: n pairs, m and v the mean and variance of the pair
    /// score per game (fastchess's and fishtest's pentanomial GSPRT, normal approximation).
    pub fn llr_pentanomial(&self, pairs: &Pentanomial) -> f64 {
        self.llr_of(&pairs.sample())
    }

    /// The ratio for independent samples of a score in [0, 1].
    pub fn llr_of(&self, sample: &ScoreSample) -> f64 {
        let v = sample.variance();
        if sample.games == 0 || v <= 0.0 {
            return 0.0;
        }
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        sample.games as f64 * (s1 - s0) * (2.0 * sample.mean() - s0 - s1) / (2.0 * v)
    }

    pub fn decision(&self, wld: &Wld) -> SprtDecision {
        self.decide(self.llr(wld))
    }

    /// The decision a log-likelihood ratio gives against Wald's bounds.
    pub fn decide(&self, llr: f64) -> SprtDecision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

/// One pairwise result for [`bradley_terry`]: engine `a` scored `score` (1 win, 0.5 draw,
/// 0 loss) against engine `b`, counted as `weight` games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairResult {
    pub a: usize,
    pub b: usize,
    pub score: f64,
    pub weight: f64,
}

/// Ratings from [`bradley_terry`], in Elo, their mean 0.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    pub elo: Vec<f64>,
    /// Half-width of each rating's 95 % interval (normal approximation at the maximum).
    pub error: Vec<f64>,
}

/// Natural-log units of strength to Elo: 400 / ln 10.
const ELO_PER_NAT: f64 = 173.717_792_761_245_6;

fn logistic(t: f64) -> f64 {
    1.0 / (1.0 + (-t).exp())
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None` if singular.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..n {
            let f = a[row][col] / a[col][col];
            let (upper, lower) = a.split_at_mut(row);
            for (x, y) in lower[0][col..].iter_mut().zip(&upper[col][col..]) {
                *x -= f * y;
            }
            b[row] -= f * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let tail: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - tail) / a[row][row];
    }
    Some(x)
}

/// The Bradley-Terry (logistic Elo) ratings of `engines` engines that maximise the
/// likelihood of `results` times a prior: every engine also drew `prior` virtual games
/// against a reference engine of strength 0 (BayesElo's and Ordo's way to keep a clean
/// sweep finite). Newton's method on the log-likelihood, which the prior makes strictly
/// concave; the intervals come from the inverse of its Hessian (the observed information),
/// for each rating minus the mean of all. A draw counts as half a win and half a loss.
///
/// Contract: `prior > 0`, weights >= 0, scores in [0, 1], engine indices < `engines`.
pub fn bradley_terry(engines: usize, results: &[PairResult], prior: f64) -> Ratings {
    // won[i][j]: i's weighted score against j; games[i][j]: their weighted games.
    let mut won = vec![vec![0.0; engines]; engines];
    let mut games = vec![vec![0.0; engines]; engines];
    for r in results.iter().filter(|r| r.a != r.b) {
        won[r.a][r.b] += r.weight * r.score;
        won[r.b][r.a] += r.weight * (1.0 - r.score);
        games[r.a][r.b] += r.weight;
        games[r.b][r.a] += r.weight;
    }
    // The Hessian of the log-likelihood at `theta` (negative definite) and its gradient.
    let derivatives = |theta: &[f64]| {
        let mut hessian = vec![vec![0.0; engines]; engines];
        let mut gradient = vec![0.0; engines];
        for i in 0..engines {
            let q = logistic(theta[i]);
            gradient[i] += prior * (0.5 - q);
            hessian[i][i] -= prior * q * (1.0 - q);
            for j in 0..engines {
                if i == j || games[i][j] == 0.0 {
                    continue;
                }
                let p = logistic(theta[i] - theta[j]);
                gradient[i] += won[i][j] - games[i][j] * p;
                let w = games[i][j] * p * (1.0 - p);
                hessian[i][i] -= w;
                hessian[i][j] += w;
            }
        }
        (hessian, gradient)
    };
    let mut theta = vec![0.0; engines];
    for _ in 0..200 {
        let (hessian, gradient) = derivatives(&theta);
        let minus: Vec<Vec<f64>> = hessian
            .iter()
            .map(|row| row.iter().map(|x| -x).collect())
            .collect();
        let Some(step) = solve(minus, gradient) else {
            break;
        };
        // Steps are capped (10 nats, 1737 Elo) so that a far start cannot overshoot wildly.
        let largest = step.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let scale = if largest > 10.0 { 10.0 / largest } else { 1.0 };
        for (t, s) in theta.iter_mut().zip(&step) {
            *t += scale * s;
        }
        if largest < 1e-10 {
            break;
        }
    }
    let (hessian, _) = derivatives(&theta);
    let mean = theta.iter().sum::<f64>() / engines.max(1) as f64;
    let mut error = vec![f64::NAN; engines];
    for (i, e) in error.iter_mut().enumerate() {
        // Variance of theta_i - mean(theta) = u' C u with C = (-H)^-1, u = e_i - 1/E.
        let u: Vec<f64> = (0..engines)
            .map(|k| f64::from(u8::from(k == i)) - 1.0 / engines as f64)
            .collect();
        let minus: Vec<Vec<f64>> = hessian
            .iter()
            .map(|row| row.iter().map(|x| -x).collect())
            .collect();
        if let Some(cu) = solve(minus, u.clone()) {
            let variance: f64 = u.iter().zip(&cu).map(|(a, b)| a * b).sum();
            *e = Z95 * variance.max(0.0).sqrt() * ELO_PER_NAT;
        }
    }
    Ratings {
        elo: theta
            .iter()
            .map(|t| (t - mean) * ELO_PER_NAT + 0.0)
            .collect(),
        error,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn erf_matches_table_values() {
        // Values from a table of erf (Abramowitz and Stegun, table 7.1).
        for (x, e) in [
            (0.0, 0.0),
            (0.5, 0.520_499_9),
            (1.0, 0.842_700_8),
            (2.0, 0.995_322_3),
        ] {
            assert!(close(erf(x), e, 2e-7), "erf({x}) = {}", erf(x));
            assert!(close(erf(-x), -e, 2e-7));
        }
    }

    #[test]
    fn elo_of_score_and_back() {
        assert!(close(elo_from_score(0.5), 0.0, 1e-12));
        // 10^(1/2) odds: s = 1/(1 + 10^-0.5) is +200 Elo.
        let s = 1.0 / (1.0 + 10f64.powf(-0.5));
        assert!(close(elo_from_score(s), 200.0, 1e-9));
        assert!(close(score_from_elo(-200.0), 1.0 - s, 1e-12));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    }

    /// 61 wins, 30 losses, 9 draws, worked by hand:
    /// s = 65.5/100 = 0.655; Elo = -400 log10(0.345/0.655) = 111.37;
    /// v = (61 * 0.345^2 + 30 * 0.655^2 + 9 * 0.155^2)/100 = 0.203475, stderr 0.0451082;
    /// interval 0.655 -/+ 0.0884105 = [0.5665895, 0.7434105] -> [46.55, 184.80] Elo,
    /// half-width 69.12; LOS = 0.5 (1 + erf(31 / sqrt(182))) = 0.99942.
    /// (The example in the issue, "111.4 +/- 68.2, LOS 99.9 %", was illustrative.)
    #[test]
    fn cutechess_summary_figures_by_hand() {
        let wld = Wld {
            wins: 61,
            losses: 30,
            draws: 9,
        };
        assert!(close(wld.score(), 0.655, 1e-12));
        assert!(close(wld.elo(), 111.37, 0.01), "{}", wld.elo());
        assert!(close(wld.sample().variance(), 0.203_475, 1e-9));
        assert!(close(wld.elo_error(), 69.12, 0.01), "{}", wld.elo_error());
        assert!(close(wld.los(), 0.999_42, 1e-5), "{}", wld.los());
        assert!(close(wld.draw_ratio(), 0.09, 1e-12));
    }

    /// No draws (Omega under the official tie rule): 30 wins, 20 losses.
    /// s = 0.6, Elo = -400 log10(2/3) = 70.44; v = 0.6 * 0.4 = 0.24, stderr = 0.069282;
    /// interval [0.4642097, 0.7357903] -> [-24.91, 177.92], half-width 101.42;
    /// LOS = 0.5 (1 + erf(10 / 10)) = 0.92135.
    #[test]
    fn decisive_only_figures_by_hand() {
        let wld = Wld {
            wins: 30,
            losses: 20,
            draws: 0,
        };
        assert!(close(wld.elo(), 70.44, 0.01), "{}", wld.elo());
        assert!(close(wld.elo_error(), 101.42, 0.01), "{}", wld.elo_error());
        assert!(close(wld.los(), 0.921_35, 1e-5), "{}", wld.los());
        assert_eq!(wld.draw_ratio(), 0.0);
    }

    /// SPRT(0, 10, 0.05, 0.05) after 60 wins, 40 losses: bounds -/+ ln(19) = 2.944;
    /// s0 = 0.5, s1 = 1/(1 + 10^-0.025) = 0.5143872; m = 0.6, v = 0.24;
    /// LLR = 100 * 0.0143872 * (1.2 - 1.0143872) / 0.48 = 0.55634.
    #[test]
    fn sprt_llr_and_bounds_by_hand() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lo, hi) = sprt.bounds();
        assert!(close(lo, -2.944_439, 1e-6) && close(hi, 2.944_439, 1e-6));
        let wld = Wld {
            wins: 60,
            losses: 40,
            draws: 0,
        };
        assert!(close(sprt.llr(&wld), 0.556_34, 1e-4), "{}", sprt.llr(&wld));
        assert_eq!(sprt.decision(&wld), SprtDecision::Continue);
        // Ten times the games at the same rate: LLR ten times larger, H1 accepted.
        let big = Wld {
            wins: 600,
            losses: 400,
            draws: 0,
        };
        assert!(close(sprt.llr(&big), 5.5634, 1e-3));
        assert_eq!(sprt.decision(&big), SprtDecision::AcceptH1);
        let bad = Wld {
            wins: 400,
            losses: 600,
            draws: 0,
        };
        assert_eq!(sprt.decision(&bad), SprtDecision::AcceptH0);
        assert_eq!(sprt.llr(&Wld::default()), 0.0);
    }

    #[test]
    fn sample_of_fractional_scores() {
        let mut s = ScoreSample::default();
        for x in [1.0, 0.25, 0.25, 0.0] {
            s.add(x);
        }
        assert!(close(s.mean(), 0.375, 1e-12));
        // E[x^2] = (1 + 0.0625 * 2) / 4 = 0.28125; v = 0.28125 - 0.140625 = 0.140625.
        assert!(close(s.variance(), 0.140_625, 1e-12));
    }

    /// 50 pairs, pentanomial [5, 0, 30, 0, 15], by hand: per-game pair scores 0, 0.5, 1;
    /// m = (30 * 0.5 + 15) / 50 = 0.6; E[x^2] = (30 * 0.25 + 15) / 50 = 0.45, v = 0.09;
    /// stderr = sqrt(0.09 / 50) = 0.0424264; interval 0.6 -/+ 0.0831538 -> half-width 60.88
    /// Elo; SPRT(0, 10) LLR = 50 * 0.0143872 * 0.1856128 / 0.18 = 0.74179.
    #[test]
    fn pentanomial_figures_by_hand() {
        let p = Pentanomial {
            counts: [5, 0, 30, 0, 15],
        };
        assert_eq!(p.pairs(), 50);
        assert!(close(p.sample().mean(), 0.6, 1e-12));
        assert!(close(p.sample().variance(), 0.09, 1e-12));
        assert!(close(p.elo(), 70.44, 0.01));
        assert!(close(p.elo_error(), 60.88, 0.01), "{}", p.elo_error());
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        assert!(close(sprt.llr_pentanomial(&p), 0.741_79, 1e-4));
        assert_eq!(
            sprt.decide(sprt.llr_pentanomial(&p)),
            SprtDecision::Continue
        );
    }

    fn games(a: usize, b: usize, wins: u32, losses: u32) -> Vec<PairResult> {
        let one = |score| PairResult {
            a,
            b,
            score,
            weight: 1.0,
        };
        let mut v: Vec<PairResult> = (0..wins).map(|_| one(1.0)).collect();
        v.extend((0..losses).map(|_| one(0.0)));
        v
    }

    /// A beats B 3 - 1. Without a prior (a tiny one) the fit is the plain maximum
    /// likelihood: p = 3/4, difference 400 log10(3) = 190.85 Elo; the information on the
    /// difference is 4 p (1 - p) = 0.75, so each rating (half the difference from the mean)
    /// has a 95 % half-width of 1.96 / sqrt(0.75) / 2 * 173.72 = 196.58 Elo.
    /// With one virtual draw each against the reference, the equation by symmetry
    /// (theta_A = -theta_B = x) is 3 - 4 s(2x) + 0.5 - s(x) = 0, s the logistic function;
    /// bisection gives x = 82.42 Elo, and the Hessian a half-width of 177.19.
    #[test]
    fn bradley_terry_two_engines_by_hand() {
        let results = games(0, 1, 3, 1);
        let plain = bradley_terry(2, &results, 1e-9);
        assert!(
            close(plain.elo[0] - plain.elo[1], 190.85, 0.01),
            "{plain:?}"
        );
        assert!(close(plain.error[0], 196.58, 0.01), "{plain:?}");
        let r = bradley_terry(2, &results, 1.0);
        assert!(close(r.elo[0], 82.42, 0.01), "{r:?}");
        assert!(close(r.elo[1], -82.42, 0.01), "{r:?}");
        assert!(close(r.error[0], 177.19, 0.01), "{r:?}");
    }

    /// The fault this fit fixes: a clean sweep beside ordinary results gave inf/NaN rows.
    /// With the prior every rating and interval is finite, the order is right, and the mean
    /// is 0.
    #[test]
    fn bradley_terry_keeps_sweeps_finite() {
        let mut results = games(0, 1, 10, 0);
        results.extend(games(0, 2, 10, 0));
        results.extend(games(1, 2, 6, 4));
        let r = bradley_terry(3, &results, 1.0);
        assert!(r.elo.iter().chain(&r.error).all(|x| x.is_finite()), "{r:?}");
        assert!(r.elo[0] > r.elo[1] && r.elo[1] > r.elo[2], "{r:?}");
        assert!(r.error.iter().all(|&e| e > 10.0), "{r:?}");
        assert!(close(r.elo.iter().sum::<f64>(), 0.0, 1e-6));
        // No games at all: everyone 0, with the prior's (wide) interval.
        let none = bradley_terry(3, &[], 1.0);
        assert!(none.elo.iter().all(|&x| close(x, 0.0, 1e-9)));
        assert!(none.error.iter().all(|e| e.is_finite()));
    }
}
