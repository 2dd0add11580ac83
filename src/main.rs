//! `omega`: the engine on stdin/stdout, or `omega bench`.

use omega::engine::{Engine, EngineConfig};
use omega::player::PlayerKind;
use omega::protocol::{self, Session};
use std::io::{self, BufReader};
use std::process::ExitCode;

const USAGE: &str = "\
usage: omega [OPTIONS]          run the engine on stdin/stdout (see protocol.md)
       omega bench [OPTIONS]    search fixed positions, print nodes and nodes/s

options:
  --player search|greedy|random   who chooses the turns (default: search)
  --seed S                        seed of every random choice (default: 0)
  --depth D                       search D plies (stones) deep, ignoring the clock
  --nodes N                       stop at N nodes (the first iteration always finishes),
                                  ignoring the clock
  --hash MB                       transposition table size in MiB (default: 64)
  --width W                       search only the W best moves at inner nodes (0 = all)
  --disable LIST                  turn search enhancements off, for measuring them: a
                                  comma-separated list of tt, killers, history, pvs, aspiration
  --enable LIST                   turn them on (aspiration windows are off by default)
  -h, --help                      this text
  -V, --version                   the version

Logs go to stderr; set RUST_LOG=info to see one line per search iteration.";

/// Parsed command line.
struct Options {
    bench: bool,
    config: EngineConfig,
}

fn parse_options(args: &[String]) -> Result<Options, String> {
    let mut options = Options {
        bench: false,
        config: EngineConfig::default(),
    };
    let mut words = args.iter().enumerate();
    while let Some((i, flag)) = words.next() {
        let flag = flag.as_str();
        let mut value = || {
            words
                .next()
                .map(|(_, v)| v.clone())
                .ok_or(format!("{flag} needs a value"))
        };
        let number = |v: String| {
            v.parse::<u64>()
                .map_err(|_| format!("{flag}: '{v}' is not a number"))
        };
        match flag {
            "bench" if i == 0 => options.bench = true,
            "--player" => {
                let v = value()?;
                options.config.player =
                    PlayerKind::parse(&v).ok_or(format!("--player: unknown player '{v}'"))?;
            }
            "--seed" => options.config.seed = number(value()?)?,
            "--depth" => {
                options.config.search.depth = Some(number(value()?)?.clamp(1, 100) as usize)
            }
            "--nodes" => options.config.search.nodes = Some(number(value()?)?.max(1)),
            "--hash" => {
                options.config.search.hash_mb = number(value()?)?.clamp(1, 1 << 16) as usize
            }
            "--width" => options.config.search.features.width = number(value()?)? as usize,
            "--disable" | "--enable" => {
                let on = flag == "--enable";
                let features = &mut options.config.search.features;
                for name in value()?.split(',') {
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
            _ => return Err(format!("unknown option '{flag}'")),
        }
    }
    Ok(options)
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    if args.iter().any(|a| a == "-V" || a == "--version") {
        println!("omega {}", env!("CARGO_PKG_VERSION"));
        return ExitCode::SUCCESS;
    }
    let options = match parse_options(&args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("omega: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    if options.bench {
        let report = omega::bench::run(&options.config.search);
        println!("{report}");
        return ExitCode::SUCCESS;
    }
    let mut session = Session::new(Engine::new(options.config));
    let stdin = io::stdin();
    let stdout = io::stdout();
    match protocol::run(&mut session, BufReader::new(stdin.lock()), stdout.lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            log::error!("i/o error: {e}");
            ExitCode::FAILURE
        }
    }
}
