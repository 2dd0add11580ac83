//! Counting results and printing them the way cutechess-cli does.
//!
//! Points by the rules: in Omega the official tie rule gives every game exactly one winning
//! seat, so there are no draws; Yavalath and Hexed games can be drawn. The engine holding the
//! winning seat gets the game's point (1), every other engine 0; a draw gives every seat a
//! half. With two engines (whatever the number of players) a game is thus a win, a draw or a
//! loss of the first engine, and the summary is the usual `Score of A vs B: W - L - D`.
//!
//! With three or more engines each engine is rated against the field. A K-player game is read
//! as the pairwise games between seats that it implies: the winning seat beat every other
//! seat, and two losing seats drew with each other (neither was shown better). An engine's
//! score in a game is its mean over the pairs (its seat, a seat of another engine), in
//! [0, 1]; with two players that is 1 for a win and 0 for a loss. Equally strong engines
//! expect 0.5 (K = 3: the winner scores 1, each loser (0 + 0.5)/2 = 0.25, mean 0.5). Its
//! score fraction is the mean over its games. The ratings of the table are a Bradley-Terry
//! fit by maximum likelihood ([`bradley_terry`]) over those pairwise results, each pair
//! weighted 1/(K - 1) so that every seat's pairs count as one game (the pairs of one game are
//! not independent), with a weak prior (one virtual draw against a reference) that keeps a
//! clean sweep finite; intervals from the Hessian. Ratings are relative to the mean of all.
//!
//! Two engines also get the pentanomial count of their game pairs (the games of one schedule
//! group: one opening, colours swapped), see [`Pentanomial`].

use super::stats::{bradley_terry, PairResult, Pentanomial, ScoreSample, Sprt, SprtDecision, Wld};
use crate::game::Colour;
use std::collections::HashMap;

/// Weight of the prior of the rating fit: one virtual draw of every engine against a
/// reference of strength 0.
pub const RATING_PRIOR: f64 = 1.0;

/// Which log-likelihood ratio decides an SPRT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtModel {
    /// Game pairs (the default, as fastchess and fishtest with paired openings).
    Pentanomial,
    /// Single games.
    Trinomial,
}

#[derive(Clone, Debug, Default)]
pub struct EngineTally {
    /// Games won (the point of each game).
    pub points: u64,
    pub games: u64,
    pub forfeits: u64,
    /// Pairwise score per game, for the rating against the field.
    pub sample: ScoreSample,
    /// Games played and won from each seat (index = colour): with 3-4 players the seat
    /// weighs more than the engine, so results are read seat by seat.
    pub seat_games: Vec<u64>,
    pub seat_wins: Vec<u64>,
}

#[derive(Clone, Debug)]
pub struct Tally {
    pub names: Vec<String>,
    /// Results of engine 0 against engine 1 (two-engine matches).
    pub pair: Wld,
    /// Game pairs of engine 0 against engine 1 (two-engine matches).
    pub pentanomial: Pentanomial,
    /// Engine 0's points in the schedule groups not yet complete: group -> (games, points).
    open_groups: HashMap<usize, (usize, u64)>,
    /// Pairwise results for the rating fit, merged by (a, b, score).
    results: HashMap<(usize, usize, u8), f64>,
    pub engines: Vec<EngineTally>,
    /// The seats' (starting) colour names, for the seat table; Omega's when empty.
    pub seat_names: Vec<String>,
}

/// The pairwise score of `engine` in a game with the given seats and winning seat (`None`:
/// a draw); `None` if it did not play or had no opponent seat.
pub fn pairwise_score(seats: &[usize], winner_seat: Option<usize>, engine: usize) -> Option<f64> {
    let (mut sum, mut pairs) = (0.0, 0u32);
    for (s, &es) in seats.iter().enumerate() {
        if es != engine {
            continue;
        }
        for (t, &et) in seats.iter().enumerate() {
            if et == engine {
                continue;
            }
            pairs += 1;
            sum += f64::from(halves(s, t, winner_seat)) / 2.0;
        }
    }
    (pairs > 0).then(|| sum / pairs as f64)
}

/// Seat `s`'s half-points against seat `t` in a game won by `winner_seat` (`None`: a draw):
/// 2 when `s` won, 0 when `t` won, 1 when neither did.
fn halves(s: usize, t: usize, winner_seat: Option<usize>) -> u8 {
    match winner_seat {
        Some(w) if w == s => 2,
        Some(w) if w == t => 0,
        _ => 1,
    }
}

fn pct(x: f64) -> String {
    format!("{:.1} %", 100.0 * x)
}

impl Tally {
    pub fn new(names: Vec<String>) -> Tally {
        let engines = vec![EngineTally::default(); names.len()];
        Tally {
            names,
            pair: Wld::default(),
            pentanomial: Pentanomial::default(),
            open_groups: HashMap::new(),
            results: HashMap::new(),
            engines,
            seat_names: Vec::new(),
        }
    }

    /// Counts one game of a schedule group of `group_size` games that share an opening
    /// (see [`super::schedule`]): as [`Tally::add`], and with two engines a complete group
    /// of two games is a game pair of the pentanomial count.
    pub fn add_in_group(
        &mut self,
        group: usize,
        group_size: usize,
        seats: &[usize],
        winner_seat: Option<usize>,
        forfeit_seat: Option<usize>,
    ) {
        self.add(seats, winner_seat, forfeit_seat);
        if self.names.len() != 2 || group_size != 2 {
            return;
        }
        let entry = self.open_groups.entry(group).or_insert((0, 0));
        entry.0 += 1;
        // Engine 0's half-points: it holds seat 0 or seat 1.
        let seat0 = usize::from(seats[0] != 0);
        entry.1 += u64::from(halves(seat0, 1 - seat0, winner_seat));
        if entry.0 == group_size {
            let halves = entry.1 as usize;
            self.open_groups.remove(&group);
            // A pair scores 0 to 2 points by halves: pentanomial index 0 to 4.
            self.pentanomial.counts[halves] += 1;
        }
    }

    /// The ratings of the Bradley-Terry fit over every game counted so far.
    pub fn ratings(&self) -> super::stats::Ratings {
        let results: Vec<PairResult> = self
            .results
            .iter()
            .map(|(&(a, b, halves), &weight)| PairResult {
                a,
                b,
                score: f64::from(halves) / 2.0,
                weight,
            })
            .collect();
        bradley_terry(self.names.len(), &results, RATING_PRIOR)
    }

    pub fn games(&self) -> u64 {
        self.engines.iter().map(|e| e.points).sum()
    }

    /// Counts one game: the engine in each seat, the winning seat (`None`: a draw), the
    /// forfeiting seat.
    pub fn add(
        &mut self,
        seats: &[usize],
        winner_seat: Option<usize>,
        forfeit_seat: Option<usize>,
    ) {
        let winner = winner_seat.map(|w| seats[w]);
        let weight = 1.0 / (seats.len() - 1) as f64;
        for (s, &a) in seats.iter().enumerate() {
            for (t, &b) in seats.iter().enumerate().skip(s + 1) {
                let halves = halves(s, t, winner_seat);
                if a != b {
                    *self.results.entry((a, b, halves)).or_insert(0.0) += weight;
                }
            }
        }
        for e in 0..self.engines.len() {
            let Some(x) = pairwise_score(seats, winner_seat, e) else {
                continue;
            };
            let t = &mut self.engines[e];
            if t.seat_games.len() < seats.len() {
                t.seat_games.resize(seats.len(), 0);
                t.seat_wins.resize(seats.len(), 0);
            }
            for (s, _) in seats.iter().enumerate().filter(|&(_, &es)| es == e) {
                t.seat_games[s] += 1;
                t.seat_wins[s] += u64::from(Some(s) == winner_seat);
            }
            t.games += 1;
            t.sample.add(x);
            if Some(e) == winner {
                t.points += 1;
            }
        }
        if let Some(f) = forfeit_seat {
            self.engines[seats[f]].forfeits += 1;
        }
        if self.names.len() == 2 {
            match winner {
                Some(0) => self.pair.wins += 1,
                Some(_) => self.pair.losses += 1,
                None => self.pair.draws += 1,
            }
        }
    }

    /// `Score of A vs B: W - L - D [score] games`.
    pub fn score_line(&self) -> String {
        let w = &self.pair;
        format!(
            "Score of {} vs {}: {} - {} - {} [{:.3}] {}",
            self.names[0],
            self.names[1],
            w.wins,
            w.losses,
            w.draws,
            w.score(),
            w.games()
        )
    }

    /// `Elo difference: E +/- e, LOS: x %, DrawRatio: y %`.
    pub fn elo_line(&self) -> String {
        let w = &self.pair;
        format!(
            "Elo difference: {:.1} +/- {:.1}, LOS: {}, DrawRatio: {}",
            w.elo(),
            w.elo_error(),
            pct(w.los()),
            pct(w.draw_ratio())
        )
    }

    /// The log-likelihood ratio of the SPRT under `model`.
    pub fn llr(&self, sprt: &Sprt, model: SprtModel) -> f64 {
        match model {
            SprtModel::Pentanomial => sprt.llr_pentanomial(&self.pentanomial),
            SprtModel::Trinomial => sprt.llr(&self.pair),
        }
    }

    pub fn sprt_decision(&self, sprt: &Sprt, model: SprtModel) -> SprtDecision {
        sprt.decide(self.llr(sprt, model))
    }

    /// `SPRT (pentanomial): llr 1.23 (41.8%), lbound -2.94, ubound 2.94` and the decision,
    /// if any.
    pub fn sprt_line(&self, sprt: &Sprt, model: SprtModel) -> String {
        let llr = self.llr(sprt, model);
        let (lo, hi) = sprt.bounds();
        let share = if llr >= 0.0 { llr / hi } else { llr / lo };
        let decision = match sprt.decide(llr) {
            SprtDecision::Continue => "",
            SprtDecision::AcceptH0 => " - H0 was accepted",
            SprtDecision::AcceptH1 => " - H1 was accepted",
        };
        let name = match model {
            SprtModel::Pentanomial => "pentanomial",
            SprtModel::Trinomial => "trinomial",
        };
        format!(
            "SPRT ({name}): llr {llr:.3} ({:.1}%), lbound {lo:.3}, ubound {hi:.3}{decision}",
            100.0 * share
        )
    }

    /// `Ptnml(0-2): [a, b, c, d, e], Elo: E +/- e (game pairs)`.
    pub fn pentanomial_line(&self) -> String {
        let p = &self.pentanomial;
        let counts: Vec<String> = p.counts.iter().map(u64::to_string).collect();
        format!(
            "Ptnml(0-2): [{}], {} pairs, Elo: {:.1} +/- {:.1}",
            counts.join(", "),
            p.pairs(),
            p.elo(),
            p.elo_error()
        )
    }

    /// The table of every engine, best rating first: the Bradley-Terry rating and its
    /// 95 % half-width, games won, games played, pairwise score, forfeits.
    pub fn table(&self) -> String {
        let width = self.names.iter().map(|n| n.len()).max().unwrap_or(4).max(4);
        let mut s = format!(
            "{:>4} {:<width$} {:>7} {:>7} {:>7} {:>6} {:>7} {:>8}\n",
            "Rank", "Name", "Elo", "+/-", "Points", "Games", "Score", "Forfeits"
        );
        let ratings = self.ratings();
        let mut order: Vec<usize> = (0..self.names.len()).collect();
        order.sort_by(|&a, &b| ratings.elo[b].total_cmp(&ratings.elo[a]).then(a.cmp(&b)));
        for (rank, &e) in order.iter().enumerate() {
            let t = &self.engines[e];
            s += &format!(
                "{:>4} {:<width$} {:>7.1} {:>7.1} {:>7} {:>6} {:>6.1}% {:>8}\n",
                rank + 1,
                self.names[e],
                ratings.elo[e],
                ratings.error[e],
                t.points,
                t.games,
                100.0 * t.sample.mean(),
                t.forfeits
            );
        }
        s
    }

    /// `Wins by seat:` and a line per engine, `NAME  white 3/10  black 7/10`: the games it
    /// won from each seat over those it played there.
    pub fn seat_lines(&self) -> String {
        let width = self.names.iter().map(|n| n.len()).max().unwrap_or(4);
        let mut s = String::from("Wins by seat:\n");
        for (name, t) in self.names.iter().zip(&self.engines) {
            s += &format!("  {name:<width$}");
            for (seat, (&won, &played)) in t.seat_wins.iter().zip(&t.seat_games).enumerate() {
                if played > 0 {
                    let colour = match self.seat_names.get(seat) {
                        Some(name) => name.clone(),
                        None => Colour::from_index(seat).to_string(),
                    };
                    s += &format!("  {colour} {won}/{played}");
                }
            }
            s.push('\n');
        }
        s
    }

    /// The closing summary.
    pub fn summary(&self, sprt: Option<(&Sprt, SprtModel)>) -> String {
        self.result_lines(sprt) + &self.seat_lines()
    }

    fn result_lines(&self, sprt: Option<(&Sprt, SprtModel)>) -> String {
        if self.names.len() == 2 {
            let mut s = format!("{}\n{}\n", self.score_line(), self.elo_line());
            if self.pentanomial.pairs() > 0 {
                s += &self.pentanomial_line();
                s.push('\n');
            }
            if let Some((sprt, model)) = sprt {
                s += &self.sprt_line(sprt, model);
                s.push('\n');
            }
            s += &format!(
                "Forfeits: {} {}, {} {}\n",
                self.names[0], self.engines[0].forfeits, self.names[1], self.engines[1].forfeits
            );
            s
        } else {
            self.table()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairwise_scores_by_hand() {
        // Three engines, three seats, seat 1 wins.
        let seats = [0, 1, 2];
        assert_eq!(pairwise_score(&seats, Some(1), 1), Some(1.0));
        assert_eq!(pairwise_score(&seats, Some(1), 0), Some(0.25));
        assert_eq!(pairwise_score(&seats, Some(1), 2), Some(0.25));
        // Two engines, three seats (A, B, A), seat 2 wins: A's pairs (0,1) 0.5 and (2,1) 1;
        // B's pairs (1,0) 0.5 and (1,2) 0. The two add up to 1.
        assert_eq!(pairwise_score(&[0, 1, 0], Some(2), 0), Some(0.75));
        assert_eq!(pairwise_score(&[0, 1, 0], Some(2), 1), Some(0.25));
        assert_eq!(pairwise_score(&[0, 1], Some(0), 2), None);
        // A draw: every pair half.
        assert_eq!(pairwise_score(&seats, None, 2), Some(0.5));
    }

    #[test]
    fn draws_count_half_in_every_table() {
        let mut t = Tally::new(vec!["A".into(), "B".into()]);
        t.add_in_group(0, 2, &[0, 1], None, None); // a draw
        t.add_in_group(0, 2, &[1, 0], Some(1), None); // A wins with seat 1
        assert_eq!((t.pair.wins, t.pair.draws, t.pair.losses), (1, 1, 0));
        // The pair scored 1.5 points for A: pentanomial index 3.
        assert_eq!(t.pentanomial.counts, [0, 0, 0, 1, 0]);
        assert_eq!(t.engines[0].sample.mean(), 0.75);
    }

    #[test]
    fn two_engine_tally_and_lines() {
        let mut t = Tally::new(vec!["A".into(), "B".into()]);
        // A white wins, B white wins, A black wins (forfeit of B in seat 0).
        t.add(&[0, 1], Some(0), None);
        t.add(&[1, 0], Some(0), None);
        t.add(&[1, 0], Some(1), Some(0));
        assert_eq!(
            t.pair,
            Wld {
                wins: 2,
                losses: 1,
                draws: 0
            }
        );
        assert_eq!(t.score_line(), "Score of A vs B: 2 - 1 - 0 [0.667] 3");
        assert_eq!(t.engines[1].forfeits, 1);
        assert_eq!(t.engines[0].points, 2);
        assert_eq!(t.games(), 3);
        // s = 2/3: Elo = -400 log10(0.5) = 120.4; LOS = 0.5 (1 + erf(1/sqrt(6))) = 0.7181.
        assert!(
            t.elo_line().starts_with("Elo difference: 120.4 +/- "),
            "{}",
            t.elo_line()
        );
        assert!(
            t.elo_line().ends_with("LOS: 71.8 %, DrawRatio: 0.0 %"),
            "{}",
            t.elo_line()
        );
    }

    #[test]
    fn table_ranks_by_score() {
        let mut t = Tally::new(vec!["A".into(), "B".into(), "C".into()]);
        t.add(&[0, 1], Some(0), None);
        t.add(&[1, 2], Some(0), None);
        t.add(&[2, 0], Some(1), None);
        let table = t.table();
        let rows: Vec<&str> = table.lines().collect();
        assert!(
            rows[1].contains(" A ") && rows[1].contains("100.0%"),
            "{table}"
        );
        assert!(
            rows[3].contains(" C ") && rows[3].contains("0.0%"),
            "{table}"
        );
        // Finite ratings and intervals in every row, though A won all and C lost all.
        for row in &rows[1..] {
            let cols: Vec<f64> = row
                .split_whitespace()
                .filter_map(|w| w.parse().ok())
                .collect();
            assert!(cols.iter().all(|x| x.is_finite()), "{table}");
            assert!(cols[2] > 0.0, "+/- must be positive: {table}");
        }
        assert!(!table.contains("inf") && !table.contains("NaN"), "{table}");
    }

    /// Two engines, groups of two: pairs complete in any order; a lone game is no pair.
    #[test]
    fn pentanomial_counts_complete_pairs() {
        let mut t = Tally::new(vec!["A".into(), "B".into()]);
        t.add_in_group(1, 2, &[1, 0], Some(1), None); // A wins (seat 1)
        t.add_in_group(0, 2, &[0, 1], Some(0), None); // A wins
        t.add_in_group(0, 2, &[1, 0], Some(0), None); // B wins: pair 0 = 1 point
        t.add_in_group(1, 2, &[0, 1], Some(0), None); // A wins: pair 1 = 2 points
        t.add_in_group(2, 2, &[0, 1], Some(1), None); // lone game
        assert_eq!(t.pentanomial.counts, [0, 0, 1, 0, 1]);
        assert_eq!(t.pair.games(), 5);
        assert!(t
            .pentanomial_line()
            .starts_with("Ptnml(0-2): [0, 0, 1, 0, 1], 2 pairs"));
    }

    #[test]
    fn wins_by_seat() {
        let mut t = Tally::new(vec!["omega".into(), "g".into(), "g2".into()]);
        // Seats rotate; the red seat (2) wins twice, white and black once each.
        t.add(&[0, 1, 2], Some(2), None);
        t.add(&[1, 2, 0], Some(2), None);
        t.add(&[2, 0, 1], Some(0), None);
        t.add(&[0, 1, 2], Some(1), None);
        assert_eq!(
            t.seat_lines(),
            "Wins by seat:\n  omega  white 0/2  black 0/1  red 1/1\n  \
             g      white 0/1  black 1/2  red 0/1\n  \
             g2     white 1/1  black 0/1  red 1/2\n"
        );
        assert!(t.summary(None).ends_with(&t.seat_lines()));
    }
}
