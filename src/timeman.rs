//! Time management: a pure function from the clock state to a soft and a hard limit for one
//! move, in the manner of Stockfish's timeman and MoHex/Wolve's time control.
//!
//! - The soft limit decides, between iterations, whether to start another one.
//! - The hard limit stops the search wherever it is (checked every few thousand nodes).
//!
//! Time controls are GTP's Canadian byo-yomi (`time_settings M B S`): main time M, then
//! periods of B seconds for S turns each. `B > 0, S = 0` means no limit (GTP 2, section 4.2);
//! `B = 0, S = 0` is absolute time. In Omega a "stone" of GTP is a whole turn.
//!
//! Margins: every limit leaves [`MOVE_MARGIN`] plus a share of the time for the pipe, the
//! operating system and a busy machine, so the caller's clock never runs out.

use std::time::Duration;

/// The documented default when no `time_settings` was given: about one second a move.
pub const DEFAULT_MOVE_TIME: f64 = 1.0;
/// What a move may take when the controller sets no limit (`B > 0, S = 0`): a search on
/// Omega's boards never ends by itself before the game is solved, so the engine sets its own
/// generous bound rather than never answering.
pub const UNLIMITED_MOVE_TIME: f64 = 5.0;
/// Kept back at every move for answer latency, process scheduling and the stop check.
pub const MOVE_MARGIN: f64 = 0.06;
/// Share of each budget kept back on top of the margin (a busy machine runs late).
const SAFETY_SHARE: f64 = 0.08;
/// Soft limit as a share of the per-move target: an iteration that starts later would
/// rarely finish before the hard limit (each costs several times the previous one).
const SOFT_SHARE: f64 = 0.45;
/// How far past the even share of main time one move may run when it needs to.
const HARD_STRETCH: f64 = 2.5;

/// The agreed time control.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// No `time_settings` seen: [`DEFAULT_MOVE_TIME`] a move.
    Default,
    /// `time_settings M B 0` with B > 0: no limit from the clock; the engine takes
    /// [`UNLIMITED_MOVE_TIME`] a move.
    Unlimited,
    /// Canadian byo-yomi; absolute time when `byo_yomi` is 0.
    Canadian {
        main: f64,
        byo_yomi: f64,
        stones: u32,
    },
}

impl TimeControl {
    /// The control that GTP's `time_settings M B S` describes.
    pub fn from_gtp(main: f64, byo_yomi: f64, stones: u32) -> TimeControl {
        if byo_yomi > 0.0 && stones == 0 {
            TimeControl::Unlimited
        } else {
            TimeControl::Canadian {
                main,
                byo_yomi,
                stones,
            }
        }
    }

    /// A fresh clock for this control.
    pub fn fresh_clock(&self) -> Clock {
        match *self {
            TimeControl::Canadian {
                main,
                byo_yomi,
                stones,
            } if main <= 0.0 => Clock {
                main: 0.0,
                period: byo_yomi,
                stones,
            },
            TimeControl::Canadian { main, .. } => Clock {
                main,
                period: 0.0,
                stones: 0,
            },
            _ => Clock::default(),
        }
    }
}

/// One player's clock. `stones == 0` means main time is running (GTP `time_left` convention);
/// otherwise `period` seconds are left for `stones` turns.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Clock {
    pub main: f64,
    pub period: f64,
    pub stones: u32,
}

impl Clock {
    /// Charges `elapsed` seconds for one turn under `control`, as a referee would.
    pub fn charge(&mut self, control: &TimeControl, elapsed: f64) {
        let TimeControl::Canadian {
            byo_yomi, stones, ..
        } = *control
        else {
            return;
        };
        let mut elapsed = elapsed;
        if self.stones == 0 {
            if elapsed <= self.main || stones == 0 {
                self.main = (self.main - elapsed).max(0.0);
                return;
            }
            // Main time ran out during this turn: the overflow opens the first period.
            elapsed -= self.main;
            self.main = 0.0;
            self.period = byo_yomi;
            self.stones = stones;
        }
        self.period = (self.period - elapsed).max(0.0);
        self.stones -= 1;
        if self.stones == 0 {
            self.period = byo_yomi;
            self.stones = stones;
        }
    }
}

/// Soft and hard limits of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub soft: Duration,
    pub hard: Duration,
}

impl Limits {
    fn from_seconds(soft: f64, hard: f64) -> Limits {
        let hard = hard.max(0.0);
        Limits {
            soft: Duration::from_secs_f64(soft.clamp(0.0, hard)),
            hard: Duration::from_secs_f64(hard),
        }
    }
}

fn after_margin(seconds: f64) -> f64 {
    (seconds * (1.0 - SAFETY_SHARE) - MOVE_MARGIN).max(0.0)
}

/// The limits of the next move for a player with `clock` under `control`, who has
/// `own_turns_left` turns left in the game (this one included; at least 1 is assumed).
pub fn limits(control: &TimeControl, clock: &Clock, own_turns_left: usize) -> Limits {
    let turns = own_turns_left.max(1) as f64;
    match *control {
        TimeControl::Unlimited => {
            let target = after_margin(UNLIMITED_MOVE_TIME);
            Limits::from_seconds(target * SOFT_SHARE, target)
        }
        TimeControl::Default => {
            let target = after_margin(DEFAULT_MOVE_TIME);
            Limits::from_seconds(target * SOFT_SHARE, target)
        }
        TimeControl::Canadian {
            byo_yomi, stones, ..
        } => {
            if clock.stones > 0 {
                // In byo-yomi: share the period evenly over the turns it must cover.
                let share = after_margin(clock.period) / clock.stones as f64;
                return Limits::from_seconds(share * SOFT_SHARE, share);
            }
            // Main time: an even share of it over the turns left, plus what byo-yomi will
            // give each turn anyway; a move may stretch past its share when it needs to, but
            // never so far that main time (and this turn's part of a period) runs out.
            let per_period_turn = if stones > 0 {
                byo_yomi / stones as f64
            } else {
                0.0
            };
            let main = after_margin(clock.main);
            let target = main / turns + after_margin(per_period_turn);
            let ceiling = main + after_margin(per_period_turn);
            let hard = (target * HARD_STRETCH).min(ceiling);
            Limits::from_seconds(target * SOFT_SHARE, hard)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(d: Duration) -> f64 {
        d.as_secs_f64()
    }

    #[test]
    fn default_budget_is_under_one_second() {
        let l = limits(&TimeControl::Default, &Clock::default(), 10);
        assert!(secs(l.hard) < DEFAULT_MOVE_TIME && secs(l.hard) > 0.7 * DEFAULT_MOVE_TIME);
        assert!(l.soft < l.hard);
    }

    #[test]
    fn unlimited_when_byo_yomi_has_no_stones_but_still_answers() {
        let control = TimeControl::from_gtp(0.0, 5.0, 0);
        assert_eq!(control, TimeControl::Unlimited);
        let hard = secs(limits(&control, &control.fresh_clock(), 3).hard);
        assert!(
            hard > DEFAULT_MOVE_TIME && hard <= UNLIMITED_MOVE_TIME,
            "{hard}"
        );
    }

    #[test]
    fn byo_yomi_of_one_second_a_turn_answers_inside_it() {
        let control = TimeControl::from_gtp(0.0, 1.0, 1);
        let clock = control.fresh_clock();
        assert_eq!(clock.stones, 1);
        let l = limits(&control, &clock, 30);
        assert!(secs(l.hard) <= 1.0 - MOVE_MARGIN && secs(l.hard) > 0.7);
        assert!(l.soft < l.hard);
        // 0.2 s a move, as matches use it.
        let control = TimeControl::from_gtp(0.0, 0.2, 1);
        let l = limits(&control, &control.fresh_clock(), 30);
        assert!(secs(l.hard) < 0.2 - MOVE_MARGIN + 1e-9 && secs(l.hard) > 0.1);
    }

    #[test]
    fn byo_yomi_period_is_shared_over_its_stones() {
        let control = TimeControl::from_gtp(0.0, 10.0, 5);
        let clock = Clock {
            main: 0.0,
            period: 4.0,
            stones: 2,
        };
        let l = limits(&control, &clock, 30);
        assert!(secs(l.hard) <= 2.0 && secs(l.hard) > 1.5);
    }

    #[test]
    fn absolute_time_is_shared_over_the_turns_left_and_never_exceeded() {
        let control = TimeControl::from_gtp(10.0, 0.0, 0);
        let mut clock = control.fresh_clock();
        assert_eq!(clock.main, 10.0);
        let first = limits(&control, &clock, 15);
        assert!(secs(first.hard) < 10.0 / 15.0 * HARD_STRETCH);
        assert!(secs(first.soft) < 10.0 / 15.0);
        // Spending the hard limit on every move never uses the whole clock.
        let mut used = 0.0;
        for turns_left in (1..=15).rev() {
            let l = limits(&control, &clock, turns_left);
            used += secs(l.hard);
            clock.charge(&control, secs(l.hard));
        }
        assert!(used < 10.0, "used {used}");
        assert!(clock.main > 0.0);
        // The last turn may use (nearly) all that is left, but not more.
        let last = limits(&control, &Clock { main: 2.0, ..clock }, 1);
        assert!(secs(last.hard) < 2.0 && secs(last.hard) > 1.5);
    }

    #[test]
    fn main_time_with_byo_yomi_counts_the_period_in() {
        let control = TimeControl::from_gtp(5.0, 3.0, 1);
        let with = limits(&control, &control.fresh_clock(), 10);
        let without = limits(
            &TimeControl::from_gtp(5.0, 0.0, 0),
            &Clock {
                main: 5.0,
                ..Clock::default()
            },
            10,
        );
        assert!(with.hard > without.hard);
        assert!(secs(with.hard) < 5.0 + 3.0);
    }

    #[test]
    fn clock_enters_and_renews_byo_yomi_periods() {
        let control = TimeControl::from_gtp(1.0, 10.0, 2);
        let mut clock = control.fresh_clock();
        clock.charge(&control, 0.5);
        assert_eq!((clock.main, clock.stones), (0.5, 0));
        clock.charge(&control, 1.5); // 0.5 of main, then 1.0 of the first period
        assert_eq!((clock.main, clock.period, clock.stones), (0.0, 9.0, 1));
        clock.charge(&control, 2.0); // the period's second turn: a new period begins
        assert_eq!((clock.period, clock.stones), (10.0, 2));
    }

    #[test]
    fn exhausted_clocks_give_zero_not_negative_limits() {
        let control = TimeControl::from_gtp(10.0, 0.0, 0);
        let l = limits(&control, &Clock::default(), 5);
        assert_eq!(l.hard, Duration::ZERO);
    }
}
