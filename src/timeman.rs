//! Time management: a pure function from the clock state to the time one move should take
//! (the optimum) and the most it may take (the maximum), in the manner of Stockfish's
//! timeman and MoHex/Wolve's time control.
//!
//! - The tree search thinks until the optimum: every playout is worth having. Where the clock
//!   keeps what a turn does not use ([`Limits::keeps_savings`]) a 2-player search aims
//!   further and stops once its choice is settled, and the turns after it get the time.
//! - The alpha-beta search starts no new iteration past a share of the optimum (an iteration
//!   costs several times the previous one) and stops wherever it is at the maximum.
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
/// Kept back at every move for answer latency, process scheduling and the stop check. The
/// measured overhead is far smaller (see `tests/timing.rs` and the README): from the last
/// look at the clock to the answer read by the caller took under 1 ms over pipes, also with
/// the other core busy; 25 ms leaves room for a loaded machine's scheduling (with two search
/// threads and the other core busy, a thread waiting for a core at the end of a turn cost up
/// to 11 ms here, and a 0.05 s turn took 57 ms on the CI machine with a margin of 10 ms).
/// With 15 ms, the reliability soak (`scripts/soak.sh`, the other core busy) saw one turn in
/// about 40,000 held 17 ms past its aim and one 31 ms, on a virtual machine that counts steal
/// time: 25 ms covers most such stalls and still leaves a 0.05 s turn 23 ms to search.
pub const MOVE_MARGIN: f64 = 0.025;
/// Share of each budget kept back on top of the margin (a busy machine runs late).
const SAFETY_SHARE: f64 = 0.03;
/// How far past the even share of main time one move may run when it needs to.
const HARD_STRETCH: f64 = 2.5;
/// What a *light* turn (see [`TurnsLeft`]) counts for when main time is shared out, against
/// 1 for every other turn: it gets a quarter of a share, and the rest goes to the turns
/// before it, where the game is decided.
pub const LIGHT_TURN_WEIGHT: f64 = 0.25;

/// The turns a player has left in the game, this one included, as main time is shared over
/// them: `own` in all, the last `light` of which are expected to need little thought (near
/// the end, where the search proves the result in a fraction of a second). The caller knows
/// the game; this module only weighs the turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnsLeft {
    pub own: usize,
    pub light: usize,
}

impl From<usize> for TurnsLeft {
    /// `own` turns, all of full weight.
    fn from(own: usize) -> TurnsLeft {
        TurnsLeft { own, light: 0 }
    }
}

impl TurnsLeft {
    /// This turn's share of main time: its weight over the weights of all the turns left
    /// (at least one turn of full weight is assumed).
    fn share(self) -> f64 {
        let own = self.own.max(1);
        let light = self.light.min(own);
        let heavy = own - light;
        let this = if heavy > 0 { 1.0 } else { LIGHT_TURN_WEIGHT };
        this / (heavy as f64 + light as f64 * LIGHT_TURN_WEIGHT)
    }
}

/// The agreed time control.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// No `time_settings` seen: this many seconds a move (`--movetime`, else
    /// [`DEFAULT_MOVE_TIME`]).
    PerMove(f64),
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

/// The clocks of a game's colours under one time control, as GTP's time commands set them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clocks {
    pub control: TimeControl,
    /// The controller has set the time control (`time_settings` or `time_left`).
    pub control_set: bool,
    pub clocks: [Clock; 4],
}

impl Clocks {
    /// Every colour with a fresh clock of `control`, which the controller did not set.
    pub fn new(control: TimeControl) -> Clocks {
        Clocks {
            control,
            control_set: false,
            clocks: [control.fresh_clock(); 4],
        }
    }

    /// A new game: fresh clocks, the same control.
    pub fn restart(&mut self) {
        self.clocks = [self.control.fresh_clock(); 4];
    }

    /// GTP `time_settings`.
    pub fn set_control(&mut self, control: TimeControl) {
        self.control = control;
        self.control_set = true;
        self.restart();
    }

    /// GTP `time_left` for colour `colour`: `stones == 0` means main time is running.
    /// Without `time_settings` the clock it describes becomes the time control (absolute
    /// time, or a byo-yomi period) of every colour, so that a controller that only sends
    /// `time_left` is still obeyed.
    pub fn set_time_left(&mut self, colour: usize, seconds: f64, stones: u32) {
        if !self.control_set {
            self.set_control(if stones == 0 {
                TimeControl::from_gtp(seconds, 0.0, 0)
            } else {
                TimeControl::from_gtp(0.0, seconds, stones)
            });
        }
        self.clocks[colour] = if stones == 0 {
            Clock {
                main: seconds,
                period: 0.0,
                stones: 0,
            }
        } else {
            Clock {
                main: 0.0,
                period: seconds,
                stones,
            }
        };
    }

    /// The limits of `colour`'s next move ([`limits`]).
    pub fn limits(&self, colour: usize, turns: impl Into<TurnsLeft>) -> Limits {
        limits(&self.control, &self.clocks[colour], turns)
    }

    /// Charges `colour`'s clock for a move that took `elapsed` seconds.
    pub fn charge(&mut self, colour: usize, elapsed: f64) {
        self.clocks[colour].charge(&self.control, elapsed);
    }
}

/// The time of one move: the search aims at `optimum` and never passes `maximum`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub optimum: Duration,
    pub maximum: Duration,
    /// Time this move does not use stays on the clock for the next ones (main time, or a
    /// byo-yomi period that still covers other turns). Only then is stopping a search
    /// early, once its choice is settled, worth anything.
    pub keeps_savings: bool,
}

impl Limits {
    fn from_seconds(optimum: f64, maximum: f64) -> Limits {
        let maximum = maximum.max(0.0);
        Limits {
            optimum: Duration::from_secs_f64(optimum.clamp(0.0, maximum)),
            maximum: Duration::from_secs_f64(maximum),
            keeps_savings: false,
        }
    }

    /// The same optimum and maximum.
    fn exactly(seconds: f64) -> Limits {
        Limits::from_seconds(seconds, seconds)
    }

    /// The same limits, saying whether the clock keeps what the move does not use.
    fn keeping_savings(self, keeps: bool) -> Limits {
        Limits {
            keeps_savings: keeps,
            ..self
        }
    }
}

fn after_margin(seconds: f64) -> f64 {
    (seconds * (1.0 - SAFETY_SHARE) - MOVE_MARGIN).max(0.0)
}

/// The limits of the next move for a player with `clock` under `control`, who has `turns`
/// left in the game (this one included; at least 1 is assumed). Main time is shared over
/// them by weight ([`TurnsLeft`]): a turn expected to be light gets a quarter share, the
/// others the rest, so that the time the end of the game does not need goes to the middle
/// game (after Baier & Winands 2015, "Time Management for Monte Carlo Tree Search": time
/// a search would leave unused at the end is better spent earlier).
pub fn limits(control: &TimeControl, clock: &Clock, turns: impl Into<TurnsLeft>) -> Limits {
    let share = turns.into().share();
    match *control {
        TimeControl::Unlimited => Limits::exactly(after_margin(UNLIMITED_MOVE_TIME)),
        TimeControl::PerMove(seconds) => Limits::exactly(after_margin(seconds)),
        TimeControl::Canadian {
            byo_yomi, stones, ..
        } => {
            if clock.stones > 0 {
                // In byo-yomi: share the period evenly over the turns it must cover.
                return Limits::exactly(after_margin(clock.period) / clock.stones as f64)
                    .keeping_savings(clock.stones > 1);
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
            let optimum = main * share + after_margin(per_period_turn);
            let ceiling = main + after_margin(per_period_turn);
            Limits::from_seconds(optimum, (optimum * HARD_STRETCH).min(ceiling))
                .keeping_savings(true)
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
    fn default_budget_uses_nearly_the_whole_second() {
        let l = limits(
            &TimeControl::PerMove(DEFAULT_MOVE_TIME),
            &Clock::default(),
            10,
        );
        assert!(secs(l.maximum) < DEFAULT_MOVE_TIME && secs(l.optimum) > 0.93);
        assert_eq!(l.optimum, l.maximum);
    }

    #[test]
    fn unlimited_when_byo_yomi_has_no_stones_but_still_answers() {
        let control = TimeControl::from_gtp(0.0, 5.0, 0);
        assert_eq!(control, TimeControl::Unlimited);
        let hard = secs(limits(&control, &control.fresh_clock(), 3).maximum);
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
        // The floor: a 1 s turn thinks at least 0.85 s.
        assert!(secs(l.maximum) <= 1.0 - MOVE_MARGIN && secs(l.optimum) > 0.93);
        // 0.2 s a move, as matches use it, and 0.05 s still leaves time to search.
        for (turn, floor) in [(0.2, 0.16), (0.05, 0.02)] {
            let control = TimeControl::from_gtp(0.0, turn, 1);
            let l = limits(&control, &control.fresh_clock(), 30);
            assert!(secs(l.maximum) < turn - MOVE_MARGIN + 1e-9, "{turn}: {l:?}");
            assert!(secs(l.optimum) > floor, "{turn}: {l:?}");
        }
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
        assert!(secs(l.maximum) <= 2.0 && secs(l.optimum) > 1.9);
    }

    #[test]
    fn absolute_time_is_shared_over_the_turns_left_and_never_exceeded() {
        let control = TimeControl::from_gtp(10.0, 0.0, 0);
        let mut clock = control.fresh_clock();
        assert_eq!(clock.main, 10.0);
        let first = limits(&control, &clock, 15);
        assert!(secs(first.maximum) < 10.0 / 15.0 * HARD_STRETCH);
        assert!(secs(first.optimum) < 10.0 / 15.0 && secs(first.optimum) > 0.6);
        // Spending the maximum on every move never uses the whole clock.
        let mut used = 0.0;
        for turns_left in (1..=15).rev() {
            let l = limits(&control, &clock, turns_left);
            used += secs(l.maximum);
            clock.charge(&control, secs(l.maximum));
        }
        assert!(used < 10.0, "used {used}");
        assert!(clock.main > 0.0);
        // The last turn may use (nearly) all that is left, but not more.
        let last = limits(&control, &Clock { main: 2.0, ..clock }, 1);
        assert!(secs(last.maximum) < 2.0 && secs(last.optimum) > 1.9);
    }

    #[test]
    fn light_turns_give_most_of_their_share_to_the_turns_before_them() {
        let control = TimeControl::from_gtp(15.0, 0.0, 0);
        let clock = control.fresh_clock();
        let even = secs(limits(&control, &clock, 15).optimum);
        let weighted = TurnsLeft { own: 15, light: 3 };
        let first = secs(limits(&control, &clock, weighted).optimum);
        // 12 full shares and 3 quarter shares: 1 / 12.75 of main time against 1 / 15.
        let main = after_margin(15.0);
        assert!(
            (first - main / 12.75).abs() < 1e-6 && first > even,
            "{first} {even}"
        );
        // Once only light turns are left, they share what is left evenly.
        let tail = TurnsLeft { own: 3, light: 3 };
        let l = limits(&control, &Clock { main: 3.0, ..clock }, tail);
        assert!(
            (secs(l.optimum) - after_margin(3.0) / 3.0).abs() < 1e-6,
            "{l:?}"
        );
        // More light turns than turns, or none at all, are read sensibly.
        let odd = TurnsLeft { own: 2, light: 5 };
        assert_eq!(limits(&control, &clock, odd), limits(&control, &clock, 2));
        let none = TurnsLeft { own: 0, light: 0 };
        assert_eq!(limits(&control, &clock, none), limits(&control, &clock, 1));
        // Spending the maximum on every turn still never uses the whole clock.
        let mut clock = clock;
        let mut used = 0.0;
        for own in (1..=15).rev() {
            let l = limits(
                &control,
                &clock,
                TurnsLeft {
                    own,
                    light: own.min(3),
                },
            );
            used += secs(l.maximum);
            clock.charge(&control, secs(l.maximum));
        }
        assert!(used < 15.0 && clock.main > 0.0, "used {used}");
    }

    #[test]
    fn only_clocks_that_keep_unused_time_say_so() {
        let keeps = |control: TimeControl, clock: Clock| limits(&control, &clock, 10).keeps_savings;
        let fresh = |control: TimeControl| (control, control.fresh_clock());
        let (c, k) = fresh(TimeControl::from_gtp(60.0, 0.0, 0));
        assert!(keeps(c, k), "absolute time");
        let (c, k) = fresh(TimeControl::from_gtp(60.0, 5.0, 1));
        assert!(keeps(c, k), "main time before byo-yomi");
        let (c, k) = fresh(TimeControl::from_gtp(0.0, 10.0, 5));
        assert!(keeps(c, k), "a period of 5 turns");
        let (c, k) = fresh(TimeControl::from_gtp(0.0, 1.0, 1));
        assert!(!keeps(c, k), "1 s a turn");
        assert!(!keeps(TimeControl::PerMove(1.0), Clock::default()));
        assert!(!keeps(TimeControl::Unlimited, Clock::default()));
    }

    #[test]
    fn the_first_move_of_a_long_game_takes_its_share_not_a_fifth_of_the_clock() {
        // 300 s for a side-5 game of 15 own turns: about 20 s a turn, never 60.
        let control = TimeControl::from_gtp(300.0, 0.0, 0);
        let l = limits(&control, &control.fresh_clock(), 15);
        assert!(secs(l.optimum) <= 20.0 && secs(l.optimum) > 18.0, "{l:?}");
        assert!(secs(l.maximum) <= 20.0 * HARD_STRETCH);
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
        assert!(with.optimum > without.optimum);
        assert!(secs(with.maximum) < 5.0 + 3.0);
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
        assert_eq!(l.maximum, Duration::ZERO);
    }
}
