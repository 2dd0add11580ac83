//! Match statistics: score fraction, Elo difference with a 95 % interval, likelihood of
//! superiority and a sequential probability ratio test.
//!
//! The formulas follow what users know from cutechess-cli (its `Elo` class: logistic Elo from
//! the score fraction, error bars from the per-game variance of the score, LOS from the
//! normal approximation of wins against losses) and fastchess (the trinomial GSPRT
//! log-likelihood ratio of Michel Van den Bergh, logistic model, no BayesElo draw model).
//! The code is written from the formulas, not copied.

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
        let sample = wld.sample();
        let v = sample.variance();
        if sample.games == 0 || v <= 0.0 {
            return 0.0;
        }
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        sample.games as f64 * (s1 - s0) * (2.0 * sample.mean() - s0 - s1) / (2.0 * v)
    }

    pub fn decision(&self, wld: &Wld) -> SprtDecision {
        let llr = self.llr(wld);
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
}
