//! The command line of the `omega` binary: its options, the engine's protocol loop on
//! stdin/stdout, `omega bench` and `omega learn-patterns`. `src/main.rs` is the thin front
//! door; `omega-web --engine-process` runs the same engine (see [`crate::web::cli`]).

use crate::engine::{Engine, EngineConfig};
use crate::game::Colour;
use crate::player::{PlayerKind, PlayerOptions};
use crate::protocol::{self, Session};
use std::io::{self, BufReader};
use std::process::ExitCode;

const USAGE: &str = "\
usage: omega [OPTIONS]          run the engine on stdin/stdout (see protocol.md)
       omega bench [OPTIONS]    search fixed positions, print nodes/s and playouts/s
       omega learn-patterns [--patterns-only] FILE...
                                learn the playout pattern weights from game records

options:
  --game NAME         the game played at start: omega (the default), yavalath or hexed
                      (the protocol's `game NAME` switches later)
  --swap on|off       the swap (pie) rule (default: on in yavalath, off otherwise)
  --player NAME       who chooses the turns: search (the default: the strongest player,
                      today mcts), mcts, mcts-plain, alphabeta, greedy or random; other
                      games have their own (see protocol.md)
  --seed S            seed of every random choice (default: 0)
  --movetime S        seconds a turn while the controller sets no time (default: 1)
  --ponder            think on the opponents' turns (tree search players)

tree search (mcts, mcts-plain):
  --threads N         threads searching (default: the machine's cores; for the
                      alpha-beta 1 with --depth or --nodes)
  --playouts N        stop at N playouts a thread, ignoring the clock: reproducible
                      with --seed (with mcts's one shared tree only with one thread;
                      --set parallel=root: with any)
  --tree-mb MB        memory for the search tree in MiB (default: 512; mcts with
                      3 or 4 players: 2048)
  --set NAME=VALUE    set search parameters, for experiments (comma-separated list;
                      see src/player/mcts.rs); COLOUR:NAME=VALUE (black:NAME=VALUE)
                      sets one for that colour's turns only

alpha-beta search (alphabeta):
  --depth D           search D plies (stones) deep, ignoring the clock
  --nodes N           stop at N nodes (the first iteration always finishes),
                      ignoring the clock
  --hash MB           transposition table size in MiB (default: 64)
  --width W           search only the W best moves at inner nodes (0 = all)
  --disable LIST      turn search enhancements off, for measuring them: a
                      comma-separated list of tt, killers, history, pvs, aspiration
  --enable LIST       turn them on (aspiration windows are off by default)

  -h, --help          this text
  -V, --version       the version

Logs go to stderr; set RUST_LOG=info to see the search's progress.";

/// Parsed command line.
struct Options {
    bench: bool,
    config: EngineConfig,
    game: Option<String>,
    swap: Option<bool>,
}

fn parse_options(args: &[String]) -> Result<Options, String> {
    let mut bench = false;
    let mut ponder = false;
    let mut kind = PlayerKind::DEFAULT;
    let mut player_name = "search".to_string();
    let (mut game, mut swap) = (None, None);
    // The options of the player are known once the player is: flags apply to them after.
    let mut settings: Vec<(String, String)> = Vec::new();
    let mut words = args.iter().enumerate();
    while let Some((i, flag)) = words.next() {
        let flag = flag.as_str();
        if flag == "bench" && i == 0 {
            bench = true;
            continue;
        }
        if flag == "--ponder" {
            ponder = true;
            continue;
        }
        if !FLAGS.contains(&flag) {
            return Err(format!("unknown option '{flag}'"));
        }
        let value = words
            .next()
            .map(|(_, v)| v.clone())
            .ok_or(format!("{flag} needs a value"))?;
        if flag == "--player" {
            // A name Omega does not know may be another game's player (checked at start).
            kind = PlayerKind::parse(&value).unwrap_or(PlayerKind::DEFAULT);
            player_name = value;
        } else if flag == "--game" {
            game = Some(value);
        } else if flag == "--swap" {
            swap = Some(match value.as_str() {
                "on" => true,
                "off" => false,
                _ => return Err(format!("--swap: '{value}' is not on or off")),
            });
        } else {
            settings.push((flag.to_string(), value));
        }
    }
    // A depth or node limit is for reproducible searches: the alpha-beta gets one thread,
    // unless told otherwise (lazy SMP threads share a table in an order no seed fixes).
    let threads_given = settings.iter().any(|(f, _)| f == "--threads");
    let limit_given = settings
        .iter()
        .any(|(f, _)| ["--depth", "--nodes"].contains(&f.as_str()));
    let mut config = EngineConfig::for_player(kind);
    config.player_name = player_name;
    config.ponder = ponder;
    if limit_given && !threads_given && !bench {
        config.options.alphabeta.threads = 1;
    }
    // Settings for one colour's turns go on top of every other setting (`--set black:...`).
    let mut seat_settings: Vec<(Colour, String)> = Vec::new();
    for (flag, value) in settings {
        if flag == "--set" {
            let mut all = Vec::new();
            for item in value.split(',') {
                match seat_of(item) {
                    Some((colour, setting)) => seat_settings.push((colour, setting.to_string())),
                    None => all.push(item),
                }
            }
            if !all.is_empty() {
                apply(&mut config.options, &flag, all.join(","))?;
            }
        } else if flag == "--movetime" {
            config.move_time = value
                .parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && *s > 0.0)
                .ok_or(format!("--movetime: '{value}' is not a positive number"))?
                .min(protocol::commands::MAX_SECONDS);
        } else {
            apply(&mut config.options, &flag, value)?;
        }
    }
    for (colour, setting) in &seat_settings {
        let (name, v) = setting.split_once('=').ok_or(format!(
            "--set: '{colour}:{setting}' is not COLOUR:NAME=VALUE"
        ))?;
        config
            .options
            .set_seat(*colour, name, v)
            .map_err(|e| format!("--set: {colour}:{setting}: {e}"))?;
    }
    Ok(Options {
        bench,
        config,
        game,
        swap,
    })
}

/// The colour and the rest of a `--set` item scoped to one colour's turns
/// (`black:NAME=VALUE`); `None` for an item of every turn.
fn seat_of(item: &str) -> Option<(Colour, &str)> {
    let (scope, rest) = item.split_once(':')?;
    // Only the full names: `b:` would read as a typo of an unscoped name.
    let colour = Colour::ALL.into_iter().find(|c| c.name() == scope)?;
    Some((colour, rest))
}

/// Every flag that takes a value.
const FLAGS: &[&str] = &[
    "--game",
    "--swap",
    "--player",
    "--seed",
    "--movetime",
    "--playouts",
    "--threads",
    "--tree-mb",
    "--set",
    "--depth",
    "--nodes",
    "--hash",
    "--width",
    "--disable",
    "--enable",
];

/// Applies one flag (not `--player`) to the player's options.
fn apply(options: &mut PlayerOptions, flag: &str, value: String) -> Result<(), String> {
    let number = |v: &str| {
        v.parse::<u64>()
            .map_err(|_| format!("{flag}: '{v}' is not a number"))
    };
    let ab = &mut options.alphabeta;
    match flag {
        "--seed" => options.seed = number(&value)?,
        "--playouts" => options.mcts.playouts = Some(number(&value)?.max(1)),
        "--threads" => {
            options.mcts.threads = number(&value)?.clamp(1, 256) as usize;
            options.alphabeta.threads = options.mcts.threads;
        }
        "--tree-mb" => options
            .mcts
            .set_tree_mb(number(&value)?.clamp(1, 1 << 20) as usize),
        "--set" => {
            for item in value.split(',') {
                let (name, v) = item
                    .split_once('=')
                    .ok_or(format!("--set: '{item}' is not NAME=VALUE"))?;
                options
                    .mcts
                    .set(name, v)
                    .map_err(|e| format!("--set: {e}"))?;
            }
        }
        "--depth" => ab.depth = Some(number(&value)?.clamp(1, 100) as usize),
        "--nodes" => ab.nodes = Some(number(&value)?.max(1)),
        "--hash" => ab.hash_mb = number(&value)?.clamp(1, 1 << 16) as usize,
        "--width" => ab.features.width = number(&value)? as usize,
        _ => {
            let on = flag == "--enable";
            let features = &mut ab.features;
            for name in value.split(',') {
                let switch = match name {
                    "tt" => &mut features.tt,
                    "killers" => &mut features.killers,
                    "history" => &mut features.history,
                    "pvs" => &mut features.pvs,
                    "aspiration" => &mut features.aspiration,
                    _ => return Err(format!("{flag}: unknown enhancement '{name}'")),
                };
                *switch = on;
            }
        }
    }
    Ok(())
}

/// Runs `omega` with `args` (the command line without the program name): the engine on
/// stdin/stdout until `quit` or the end of input, `omega bench` or `omega learn-patterns`.
/// The caller sets up the logger (to stderr). Exit codes: 0, 1 on an i/o error or a bad
/// game record, 2 on a bad command line or a game that cannot start.
pub fn run(args: &[String]) -> ExitCode {
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    if args.iter().any(|a| a == "-V" || a == "--version") {
        println!("omega {}", env!("CARGO_PKG_VERSION"));
        return ExitCode::SUCCESS;
    }
    if args.first().is_some_and(|a| a == "learn-patterns") {
        return learn_patterns(&args[1..]);
    }
    let options = match parse_options(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("omega: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    if options.bench {
        let report = crate::bench::run(&options.config.options);
        println!("{report}");
        return ExitCode::SUCCESS;
    }
    let mut session = Session::new(Engine::new(options.config));
    if let Err(e) = session.start(options.game.as_deref(), options.swap) {
        eprintln!("omega: {e}");
        return ExitCode::from(2);
    }
    let stdout = io::stdout();
    match protocol::run(&mut session, BufReader::new(io::stdin()), stdout.lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            log::error!("i/o error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `omega learn-patterns [--patterns-only] FILE...`: fits the pattern gammas to the games of
/// the given transcripts and prints them as the source of the table for their number of
/// players (`src/playout/pattern_weights.rs` for 2, `pattern_weights_3p.rs`,
/// `pattern_weights_4p.rs`); with `--patterns-only` the size classes stay at 1 (see
/// `Choices::fit`). Contract: every game has the same number of players (a table serves one
/// number).
fn learn_patterns(args: &[String]) -> ExitCode {
    let fit_sizes = args.first().is_none_or(|a| a != "--patterns-only");
    let files = &args[usize::from(!fit_sizes)..];
    if files.is_empty() {
        eprintln!(
            "usage: omega learn-patterns [--patterns-only] FILE...   (game transcripts, e.g. match records)"
        );
        return ExitCode::from(2);
    }
    let mut choices = crate::playout::Choices::default();
    let mut players = None;
    for file in files {
        let game = std::fs::read_to_string(file)
            .map_err(|e| e.to_string())
            .and_then(|text| crate::transcript::read(&text).map_err(|e| e.to_string()));
        let game = match game {
            Ok(game) => game,
            Err(e) => {
                eprintln!("omega: {file}: {e}");
                return ExitCode::FAILURE;
            }
        };
        match players {
            Some(p) if p != game.players() => {
                eprintln!(
                    "omega: {file}: a game of {} players among games of {p}: a table is learnt from games of one number of players",
                    game.players()
                );
                return ExitCode::FAILURE;
            }
            _ => players = Some(game.players()),
        }
        choices.add_game(&game);
    }
    let about = format!(
        "{} games of {} players, {} stones",
        files.len(),
        players.unwrap_or(2),
        choices.len()
    );
    eprintln!("omega: learning from {about}");
    let gammas = choices.fit(LEARNING_ROUNDS, fit_sizes);
    print!("{}", crate::playout::to_source(&gammas, &about));
    ExitCode::SUCCESS
}

/// Rounds of minorization-maximization: the gammas move by less than 1 % past about 30.
const LEARNING_ROUNDS: usize = 50;

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &str) -> Result<Options, String> {
        let args: Vec<String> = args.split_whitespace().map(String::from).collect();
        parse_options(&args)
    }

    #[test]
    fn a_colours_settings_go_on_top_of_every_other_setting() {
        let options = parse("--set black:exploration=0.5,rave_equivalence=300 --set prior_bias=2")
            .unwrap()
            .config
            .options;
        let base = options.mcts;
        assert_eq!(base.search.rave_equivalence, 300.0);
        assert_eq!(base.search.prior_bias, 2.0);
        let black = options.mcts_seats[Colour::Black.index()].expect("black's own options");
        assert_eq!(black.search.exploration, 0.5);
        // Set after the colour's item, for every colour, so for black too.
        assert_eq!(black.search.prior_bias, 2.0);
        assert_eq!(black.search.rave_equivalence, 300.0);
        assert_ne!(base.search.exploration, 0.5);
        for colour in [Colour::White, Colour::Red, Colour::Blue] {
            assert!(options.mcts_seats[colour.index()].is_none(), "{colour}");
        }
    }

    #[test]
    fn bad_colour_settings_are_refused() {
        for bad in [
            "--set black:threads=2",
            "--set red:parallel=root",
            "--set black:no_such_name=1",
            "--set black:exploration=x",
            "--set black:exploration",
            "--set green:exploration=1",
            "--set b:exploration=1",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
