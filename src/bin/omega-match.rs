//! `omega-match`: plays engines against each other and measures their strength.
//! All the logic lives in `omega::arena`; this is the thin front door.

use omega::arena::cli::{parse_args, CliError, USAGE, VERSION};
use omega::arena::runner::{self, note, Out};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

fn main() {
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let config = match parse_args(&args) {
        Ok(c) => c,
        Err(CliError::Help) => {
            let mut out = Out::default();
            out.line(USAGE.trim_end());
            return;
        }
        Err(CliError::Version) => {
            Out::default().line(VERSION);
            return;
        }
        Err(CliError::Usage(msg)) => {
            note(&msg);
            std::process::exit(2);
        }
    };
    let interrupt = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&interrupt);
    // First Ctrl-C: stop cleanly (the runner prints the summary so far). Second: leave now.
    let handler = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(runner::EXIT_INTERRUPTED);
        }
    });
    if let Err(e) = handler {
        note(&format!("warning: cannot catch Ctrl-C: {e}"));
    }
    std::process::exit(runner::run(config, interrupt));
}
