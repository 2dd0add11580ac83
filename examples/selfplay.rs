//! Tuning aid: plays the search player against a baseline in-process, seats alternated,
//! openings from seeded random turns. Usage:
//! cargo run --release --example selfplay -- GAMES MOVETIME PLAYERS BASELINE [OPENING_TURNS]
use omega::engine::{Engine, EngineConfig};
use omega::game::Colour;
use omega::player::{random_turn, PlayerKind};
use omega::timeman::TimeControl;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: usize = args.first().map_or(10, |a| a.parse().unwrap());
    let movetime: f64 = args.get(1).map_or(0.2, |a| a.parse().unwrap());
    let players: usize = args.get(2).map_or(2, |a| a.parse().unwrap());
    let baseline = PlayerKind::parse(args.get(3).map_or("greedy", |a| a.as_str())).unwrap();
    let opening: usize = args.get(4).map_or(1, |a| a.parse().unwrap());
    let mut wins = 0;
    let mut max_move = 0f64;
    for g in 0..games {
        let search_seat = g % players;
        let mut engines: Vec<Engine> = (0..players)
            .map(|s| {
                let kind = if s == search_seat {
                    PlayerKind::Search
                } else {
                    baseline
                };
                let mut config = EngineConfig {
                    player: kind,
                    seed: g as u64,
                    ..Default::default()
                };
                let var = if s == search_seat { "WIDTH" } else { "WIDTH_B" };
                if let Ok(w) = std::env::var(var) {
                    config.search.features.width = w.parse().unwrap();
                }
                let mut e = Engine::new(config);
                e.set_up(5, players).unwrap();
                e.set_time_control(TimeControl::from_gtp(0.0, movetime, 1));
                e
            })
            .collect();
        let mut referee = engines[0].game().clone();
        for _ in 0..opening {
            let t = random_turn(&referee, 1000 + (g / players) as u64);
            let c = referee.to_move();
            referee.play_turn(c, &t).unwrap();
            for e in engines.iter_mut() {
                let coords: Vec<_> = t.iter().map(|&x| referee.board().coord(x)).collect();
                e.play(c, &coords).unwrap();
            }
        }
        while !referee.is_over() {
            let c = referee.to_move();
            let start = std::time::Instant::now();
            let t = engines[c.index()].genmove(c, true).unwrap();
            max_move = max_move.max(start.elapsed().as_secs_f64());
            referee.play_turn(c, &t).unwrap();
            for (i, e) in engines.iter_mut().enumerate() {
                if i != c.index() {
                    let coords: Vec<_> = t.iter().map(|&x| referee.board().coord(x)).collect();
                    e.play(c, &coords).unwrap();
                }
            }
        }
        let (winner, margin) = referee.winner();
        if winner == Colour::from_index(search_seat) {
            wins += 1;
        }
        eprintln!(
            "game {g}: search seat {search_seat}, winner {winner}+{margin}, scores {:?}",
            referee.scores()
        );
        if std::env::var("SHOW").is_ok() && winner != Colour::from_index(search_seat) {
            eprintln!("{}", omega::protocol::render::draw(&referee));
        }
    }
    println!("search won {wins}/{games}; longest move {max_move:.3}s");
}
