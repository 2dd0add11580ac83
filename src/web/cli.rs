//! The command line of `omega-web`: a small table of flags, parsed by hand as omega-match's.

use crate::arena::words::split_words;
use std::ffi::OsStr;
use std::path::Path;

pub const USAGE: &str = "\
usage: omega-web [--port P] [--engine CMD [--name NAME]]... [--movetime SECONDS]

Serves a board on http://127.0.0.1:P/ to play and analyse Omega in a browser, against any
engines that speak the Omega text protocol. Only the loopback address is served.

  --port P              the port to listen on (default 8080; 0 picks a free one)
  --engine CMD          an engine people may seat, its command line split into words as a
                        shell would (repeatable; default: the omega binary beside this one,
                        or without one this binary as the engine, see --engine-process)
  --name NAME           the name shown for the --engine before it (default: the program's
                        file name, made unique with -2, -3, ...)
  --movetime SECONDS    the time per turn proposed for engine seats (default 1)
  --engine-stderr       let the engines' stderr through (default: discarded)
  -h, --help            print this help

  --engine-process [OMEGA-OPTIONS]...
                        internal, first argument only: run as the omega engine on
                        stdin/stdout (omega's options and protocol) instead of the server
";

/// omega-web's first argument that makes it the omega engine on stdin/stdout
/// ([`crate::cli::run`] with the arguments after it) instead of the server.
pub const ENGINE_PROCESS_FLAG: &str = "--engine-process";

/// The default engine's command line for omega-web at `exe`: the `omega` binary beside it,
/// or, when there is none, omega-web itself as the engine (`exe --engine-process`), since
/// `cargo run --release --bin omega-web` builds omega-web alone.
pub fn default_engine(exe: &Path) -> Vec<String> {
    let beside = exe.with_file_name(format!("omega{}", std::env::consts::EXE_SUFFIX));
    if beside.is_file() {
        vec![beside.display().to_string()]
    } else {
        vec![exe.display().to_string(), ENGINE_PROCESS_FLAG.into()]
    }
}

/// An engine that a seat can be given to.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineChoice {
    pub name: String,
    pub argv: Vec<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub port: u16,
    /// Never empty: the first is the default engine and the one that gives hints.
    pub engines: Vec<EngineChoice>,
    pub movetime: f64,
    pub engine_stderr: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum CliError {
    Help,
    Usage(String),
}

/// The longest and shortest time per turn an engine seat may be given, in seconds.
pub const MOVETIME_RANGE: (f64, f64) = (0.01, 3600.0);

/// Parses the arguments (without the program name). `default_engine` (a command line, see
/// [`default_engine`]) is used, named omega, when no `--engine` is given.
pub fn parse_args(args: &[String], default_engine: &[String]) -> Result<Config, CliError> {
    let mut config = Config {
        port: 8080,
        engines: Vec::new(),
        movetime: 1.0,
        engine_stderr: false,
    };
    // Names given with --name, by engine index.
    let mut names: Vec<Option<String>> = Vec::new();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || {
            it.next()
                .ok_or_else(|| CliError::Usage(format!("{flag} needs a value")))
        };
        match flag.as_str() {
            "-h" | "--help" => return Err(CliError::Help),
            "--engine-stderr" => config.engine_stderr = true,
            "--port" => {
                let v = value()?;
                config.port = v
                    .parse()
                    .map_err(|_| CliError::Usage(format!("--port: '{v}' is not a port")))?;
            }
            "--movetime" => {
                let v = value()?;
                config.movetime = v
                    .parse::<f64>()
                    .ok()
                    .filter(|t| (MOVETIME_RANGE.0..=MOVETIME_RANGE.1).contains(t))
                    .ok_or_else(|| {
                        CliError::Usage(format!(
                            "--movetime: '{v}' is not a number of seconds from {} to {}",
                            MOVETIME_RANGE.0, MOVETIME_RANGE.1
                        ))
                    })?;
            }
            "--engine" => {
                let v = value()?;
                let argv =
                    split_words(v).map_err(|e| CliError::Usage(format!("--engine '{v}': {e}")))?;
                if argv.is_empty() {
                    return Err(CliError::Usage("--engine: empty command".into()));
                }
                config.engines.push(EngineChoice {
                    name: String::new(),
                    argv,
                });
                names.push(None);
            }
            "--name" => {
                let v = value()?;
                let last = names
                    .last_mut()
                    .ok_or_else(|| CliError::Usage("--name must follow an --engine".into()))?;
                if v.trim().is_empty() {
                    return Err(CliError::Usage("--name: empty name".into()));
                }
                *last = Some(v.trim().to_string());
            }
            other => return Err(CliError::Usage(format!("unknown option '{other}'"))),
        }
    }
    if config.engines.is_empty() {
        config.engines.push(EngineChoice {
            name: String::new(),
            argv: default_engine.to_vec(),
        });
        names.push(Some("omega".into()));
    }
    // Unnamed engines take their program's file name; repeated names get -2, -3, ...
    let mut taken: Vec<String> = Vec::new();
    for (engine, name) in config.engines.iter_mut().zip(names) {
        let base = name.unwrap_or_else(|| {
            Path::new(&engine.argv[0])
                .file_name()
                .map_or("engine".into(), |f| f.to_string_lossy().into_owned())
        });
        let mut unique = base.clone();
        let mut n = 1;
        while taken.contains(&unique) {
            n += 1;
            unique = format!("{base}-{n}");
        }
        taken.push(unique.clone());
        engine.name = unique;
    }
    Ok(config)
}

/// Why `engine` cannot start, when its program is nowhere: a path that is not a file, or a
/// bare name in no folder of `path_var` (the `PATH`). omega-web says so when it starts, for an
/// engine given with `--engine` (the default engine exists: see [`default_engine`]).
pub fn missing_program(engine: &EngineChoice, path_var: Option<&OsStr>) -> Option<String> {
    let program = engine.argv.first()?;
    let found = if program.contains('/') {
        Path::new(program).is_file()
    } else {
        path_var.is_some_and(|p| std::env::split_paths(p).any(|dir| dir.join(program).is_file()))
    };
    if found {
        return None;
    }
    let mut why = format!(
        "the engine {} cannot start: there is no program '{program}'",
        engine.name
    );
    if Path::new(program).file_name() == Some(OsStr::new("omega")) {
        why += " (`cargo build --release` builds it)";
    }
    Some(why)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Config, CliError> {
        let args = split_words(line).unwrap();
        parse_args(&args, &["/x/omega".to_string()])
    }

    #[test]
    fn defaults_and_engines() {
        let c = parse("").unwrap();
        assert_eq!(c.port, 8080);
        assert_eq!(c.movetime, 1.0);
        assert_eq!(c.engines.len(), 1);
        assert_eq!(c.engines[0].name, "omega");
        assert_eq!(c.engines[0].argv, ["/x/omega"]);
        let c = parse(
            "--port 0 --engine '/a/omega --threads 1' --engine /a/omega --name strong \
             --engine /b/omega --movetime 0.5",
        )
        .unwrap();
        assert_eq!(c.port, 0);
        assert_eq!(c.movetime, 0.5);
        let names: Vec<&str> = c.engines.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["omega", "strong", "omega-2"]);
        assert_eq!(c.engines[0].argv, ["/a/omega", "--threads", "1"]);
    }

    #[test]
    fn refusals() {
        assert_eq!(parse("-h"), Err(CliError::Help));
        for bad in [
            "--port",
            "--port x",
            "--port 70000",
            "--movetime 0",
            "--movetime x",
            "--name n",
            "--engine ''",
            "--engine \"'a\"",
            "--bogus",
        ] {
            assert!(
                matches!(parse(bad), Err(CliError::Usage(_))),
                "{bad} accepted"
            );
        }
    }

    #[test]
    fn default_engine_is_omega_beside_else_itself() {
        let dir = std::env::temp_dir().join(format!("omega-web-default-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let exe = dir.join("omega-web");
        let omega = dir.join(format!("omega{}", std::env::consts::EXE_SUFFIX));
        let _ = std::fs::remove_file(&omega);
        // No omega beside: omega-web itself is the engine, and parse_args seats it as omega.
        let itself = default_engine(&exe);
        assert_eq!(
            itself,
            [exe.display().to_string(), "--engine-process".into()]
        );
        let c = parse_args(&[], &itself).unwrap();
        assert_eq!(c.engines[0].name, "omega");
        assert_eq!(c.engines[0].argv, itself);
        // So the default never draws the missing-program warning while omega-web exists.
        std::fs::write(&exe, "").unwrap();
        assert_eq!(missing_program(&c.engines[0], None), None);
        // An omega beside it (a file, not a folder) is the default.
        std::fs::write(&omega, "").unwrap();
        assert_eq!(default_engine(&exe), [omega.display().to_string()]);
        std::fs::remove_file(&omega).unwrap();
        std::fs::create_dir(&omega).unwrap();
        assert_eq!(default_engine(&exe), itself);
        std::fs::remove_dir(&omega).unwrap();
        std::fs::remove_file(&exe).unwrap();
        let _ = std::fs::remove_dir(&dir);
    }

    #[test]
    fn missing_programs_are_named() {
        let c =
            parse("--engine /bin/sh --engine sh --engine /x/omega --engine nowhere-xyz").unwrap();
        let path = Some(OsStr::new("/usr/bin:/bin"));
        let missing: Vec<Option<String>> =
            c.engines.iter().map(|e| missing_program(e, path)).collect();
        assert_eq!(missing[0], None);
        assert_eq!(missing[1], None);
        assert_eq!(
            missing[2].as_deref(),
            Some(
                "the engine omega cannot start: there is no program '/x/omega' \
                 (`cargo build --release` builds it)"
            )
        );
        assert_eq!(
            missing[3].as_deref(),
            Some("the engine nowhere-xyz cannot start: there is no program 'nowhere-xyz'")
        );
        assert!(missing_program(&c.engines[1], None).is_some());
    }
}
