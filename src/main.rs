//! `omega`: the engine on stdin/stdout, or `omega bench`. All the logic lives in
//! `omega::cli`; this is the thin front door.

use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    omega::cli::run(&args)
}
