//! The commands: one enum variant and one nom parser each, and the table that names them.

use nom::branch::alt;
use nom::bytes::complete::{tag, take_while1};
use nom::character::complete::{digit1, space0, space1};
use nom::combinator::{all_consuming, map, map_opt, opt, recognize};
use nom::multi::many0;
use nom::sequence::{pair, preceded, terminated, tuple};
use nom::IResult;

/// A colour as the command line names it (letters only): which colour it is depends on the
/// game being played, so the handlers resolve it.
pub type ColourWord = String;

/// A parsed command with its arguments.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    ProtocolVersion,
    Name,
    Version,
    KnownCommand(String),
    ListCommands,
    Quit,
    BoardSize(u64),
    Players(u64),
    ClearBoard,
    /// The player and the words naming its cells (checked against the board when run).
    Play(ColourWord, Vec<String>),
    Genmove(ColourWord),
    RegGenmove(ColourWord),
    Undo,
    Score,
    FinalScore,
    Showboard,
    /// Byo-yomi stones past 2^32 saturate (no clock counts that far).
    TimeSettings {
        main: f64,
        byo_yomi: f64,
        stones: u32,
    },
    TimeLeft {
        colour: ColourWord,
        seconds: f64,
        stones: u32,
    },
    ToMove,
    /// The colour and the interval between lines in centiseconds.
    Analyze(ColourWord, u64),
    GenmoveAnalyze(ColourWord, u64),
    GoguiInterrupt,
    ListStones(ColourWord),
    /// The file and how many of its turns to play (all when absent).
    LoadGame(String, Option<u64>),
    SaveGame(String),
    /// Seconds to search at most.
    Solve(Option<f64>),
    /// Switches to the named game.
    Game(String),
    ListGames,
    /// `rules`: shows them; `rules swap on|off`: sets the swap rule.
    Rules(Option<bool>),
    /// Hexed's start: the north neighbour's cell and colour, and who moves first.
    HexedStart(String, ColourWord, ColourWord),
}

/// The interval of `analyze` when none is given, in centiseconds.
pub const DEFAULT_INTERVAL: u64 = 50;

/// One row of the command table: the name, a parser of the arguments and the usage shown
/// when they do not parse.
pub struct CommandSpec {
    pub name: &'static str,
    pub parse: fn(&str) -> IResult<&str, Command>,
    pub usage: &'static str,
}

/// Every command, in the order `list_commands` shows them.
pub const COMMANDS: &[CommandSpec] = &[
    spec(
        "protocol_version",
        |i| none(i, Command::ProtocolVersion),
        "",
    ),
    spec("name", |i| none(i, Command::Name), ""),
    spec("version", |i| none(i, Command::Version), ""),
    spec(
        "known_command",
        |i| map(word, |w| Command::KnownCommand(w.to_string()))(i),
        "COMMAND",
    ),
    spec("list_commands", |i| none(i, Command::ListCommands), ""),
    spec("quit", |i| none(i, Command::Quit), ""),
    spec("boardsize", |i| map(number, Command::BoardSize)(i), "SIZE"),
    spec("players", |i| map(number, Command::Players)(i), "COUNT"),
    spec("clear_board", |i| none(i, Command::ClearBoard), ""),
    spec("play", play, "COLOUR CELL..."),
    spec("genmove", |i| map(colour, Command::Genmove)(i), "COLOUR"),
    spec(
        "reg_genmove",
        |i| map(colour, Command::RegGenmove)(i),
        "COLOUR",
    ),
    spec("undo", |i| none(i, Command::Undo), ""),
    spec("score", |i| none(i, Command::Score), ""),
    spec("final_score", |i| none(i, Command::FinalScore), ""),
    spec("showboard", |i| none(i, Command::Showboard), ""),
    spec(
        "time_settings",
        time_settings,
        "MAIN_TIME BYO_YOMI_TIME BYO_YOMI_STONES",
    ),
    spec("time_left", time_left, "COLOUR TIME STONES"),
    spec("to_move", |i| none(i, Command::ToMove), ""),
    spec(
        "analyze",
        |i| colour_interval(i, Command::Analyze),
        "COLOUR [INTERVAL]",
    ),
    spec(
        "genmove_analyze",
        |i| colour_interval(i, Command::GenmoveAnalyze),
        "COLOUR [INTERVAL]",
    ),
    spec("gogui-interrupt", |i| none(i, Command::GoguiInterrupt), ""),
    spec(
        "list_stones",
        |i| map(colour, Command::ListStones)(i),
        "COLOUR",
    ),
    spec("loadgame", load_game, "FILE [TURNS]"),
    spec(
        "savegame",
        |i| map(word, |w| Command::SaveGame(w.to_string()))(i),
        "FILE",
    ),
    spec(
        "solve",
        |i| map(opt(seconds), Command::Solve)(i),
        "[SECONDS]",
    ),
    spec(
        "game",
        |i| map(word, |w| Command::Game(w.to_string()))(i),
        "NAME",
    ),
    spec("list_games", |i| none(i, Command::ListGames), ""),
    spec("rules", rules, "[swap on|off]"),
    spec("hexed_start", hexed_start, "CELL COLOUR FIRST"),
];

/// Whether a refusal message is the usage of its command (a syntax error), as
/// [`parse_arguments`] writes it; handlers use it for a colour no game in play knows.
pub fn usage_error(name: &str) -> String {
    match find(name) {
        Some(spec) if !spec.usage.is_empty() => {
            format!("syntax error: usage: {} {}", spec.name, spec.usage)
        }
        _ => format!("syntax error: {name} takes no arguments"),
    }
}

const fn spec(
    name: &'static str,
    parse: fn(&str) -> IResult<&str, Command>,
    usage: &'static str,
) -> CommandSpec {
    CommandSpec { name, parse, usage }
}

pub fn find(name: &str) -> Option<&'static CommandSpec> {
    COMMANDS.iter().find(|c| c.name == name)
}

/// Parses a command's arguments completely (trailing spaces allowed).
pub fn parse_arguments(spec: &CommandSpec, args: &str) -> Result<Command, String> {
    all_consuming(terminated(spec.parse, space0))(args)
        .map(|(_, c)| c)
        .map_err(|_| match spec.usage {
            "" => format!("{} takes no arguments", spec.name),
            usage => format!("usage: {} {}", spec.name, usage),
        })
}

/// A command line split into its optional numeric id, its name and its arguments.
pub fn split_line(line: &str) -> (Option<&str>, &str, &str) {
    let parsed: IResult<&str, (Option<&str>, &str)> =
        pair(opt(terminated(digit1, space1)), word)(line);
    match parsed {
        Ok((rest, (id, name))) => (id, name, rest.trim_start_matches(' ')),
        Err(_) => (None, line, ""),
    }
}

// ---- argument parsers ------------------------------------------------------------------

/// A run of non-space characters.
fn word(i: &str) -> IResult<&str, &str> {
    take_while1(|c: char| c != ' ')(i)
}

/// No arguments.
fn none(i: &str, c: Command) -> IResult<&str, Command> {
    Ok((i, c))
}

/// A non-negative integer; values past 2^64 saturate (they are refused later as out of
/// range, never as overflow).
fn number(i: &str) -> IResult<&str, u64> {
    map(digit1, |d: &str| d.parse().unwrap_or(u64::MAX))(i)
}

/// A colour's name: letters only (the game in play says which names it knows).
fn colour(i: &str) -> IResult<&str, ColourWord> {
    map(take_while1(|c: char| c.is_ascii_alphabetic()), |w: &str| {
        w.to_ascii_lowercase()
    })(i)
}

/// Seconds are capped here (about 31 years) so that every later conversion to a duration
/// is in range.
pub const MAX_SECONDS: f64 = 1e9;

/// A non-negative decimal number of seconds, as `10`, `0.2` or `.5`; capped at
/// [`MAX_SECONDS`].
fn seconds(i: &str) -> IResult<&str, f64> {
    let digits = recognize(alt((
        recognize(tuple((digit1, opt(pair(tag("."), opt(digit1)))))),
        recognize(pair(tag("."), digit1)),
    )));
    map_opt(digits, |s: &str| {
        s.parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .map(|v| v.min(MAX_SECONDS))
    })(i)
}

fn play(i: &str) -> IResult<&str, Command> {
    map(pair(colour, many0(preceded(space1, word))), |(c, words)| {
        Command::Play(c, words.into_iter().map(str::to_string).collect())
    })(i)
}

fn colour_interval(i: &str, make: fn(ColourWord, u64) -> Command) -> IResult<&str, Command> {
    map(
        pair(colour, opt(preceded(space1, number))),
        move |(c, interval)| make(c, interval.unwrap_or(DEFAULT_INTERVAL)),
    )(i)
}

fn load_game(i: &str) -> IResult<&str, Command> {
    map(
        pair(word, opt(preceded(space1, number))),
        |(file, turns)| Command::LoadGame(file.to_string(), turns),
    )(i)
}

fn rules(i: &str) -> IResult<&str, Command> {
    let on_off = alt((map(tag("on"), |_| true), map(tag("off"), |_| false)));
    map(
        opt(preceded(pair(tag("swap"), space1), on_off)),
        Command::Rules,
    )(i)
}

fn hexed_start(i: &str) -> IResult<&str, Command> {
    map(
        tuple((word, preceded(space1, colour), preceded(space1, colour))),
        |(cell, colour, first)| Command::HexedStart(cell.to_string(), colour, first),
    )(i)
}

/// A count of byo-yomi stones, saturating at 2^32 - 1.
fn stones(i: &str) -> IResult<&str, u32> {
    map(number, |n| n.min(u32::MAX as u64) as u32)(i)
}

fn time_settings(i: &str) -> IResult<&str, Command> {
    map(
        tuple((seconds, preceded(space1, seconds), preceded(space1, stones))),
        |(main, byo_yomi, stones)| Command::TimeSettings {
            main,
            byo_yomi,
            stones,
        },
    )(i)
}

fn time_left(i: &str) -> IResult<&str, Command> {
    map(
        tuple((colour, preceded(space1, seconds), preceded(space1, stones))),
        |(colour, seconds, stones)| Command::TimeLeft {
            colour,
            seconds,
            stones,
        },
    )(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Command, String> {
        let (_, name, args) = split_line(line);
        parse_arguments(find(name).ok_or("unknown")?, args)
    }

    #[test]
    fn parses_every_argument_shape() {
        assert_eq!(parse("boardsize 7"), Ok(Command::BoardSize(7)));
        assert_eq!(
            parse("boardsize 99999999999999999999999"),
            Ok(Command::BoardSize(u64::MAX))
        );
        assert!(parse("boardsize -3").is_err());
        assert!(parse("boardsize 5 5").is_err());
        assert_eq!(
            parse("play W a1 B2"),
            Ok(Command::Play("w".into(), vec!["a1".into(), "B2".into()]))
        );
        assert_eq!(
            parse("play black"),
            Ok(Command::Play("black".into(), vec![]))
        );
        assert!(parse("play 5 a1").is_err());
        assert_eq!(parse("rules swap on"), Ok(Command::Rules(Some(true))));
        assert_eq!(parse("rules"), Ok(Command::Rules(None)));
        assert!(parse("rules swap maybe").is_err());
        assert_eq!(
            parse("time_settings 0 0.2 1"),
            Ok(Command::TimeSettings {
                main: 0.0,
                byo_yomi: 0.2,
                stones: 1
            })
        );
        assert!(parse("time_settings 0 -1 1").is_err());
        assert!(parse("time_settings 0 1e999 1").is_err());
        assert_eq!(
            parse("time_left red .5 0"),
            Ok(Command::TimeLeft {
                colour: "red".into(),
                seconds: 0.5,
                stones: 0
            })
        );
        assert!(parse("showboard now").is_err());
        assert_eq!(
            parse("analyze b"),
            Ok(Command::Analyze("b".into(), DEFAULT_INTERVAL))
        );
        assert_eq!(
            parse("genmove_analyze white 10"),
            Ok(Command::GenmoveAnalyze("white".into(), 10))
        );
        assert!(parse("analyze white -1").is_err());
        assert!(parse("analyze 50").is_err());
        assert_eq!(
            parse("loadgame g.gtp 3"),
            Ok(Command::LoadGame("g.gtp".into(), Some(3)))
        );
        assert_eq!(
            parse("loadgame g.gtp"),
            Ok(Command::LoadGame("g.gtp".into(), None))
        );
        assert!(parse("loadgame").is_err());
        assert!(parse("savegame a b").is_err());
        assert_eq!(parse("solve"), Ok(Command::Solve(None)));
        assert_eq!(parse("solve 2.5"), Ok(Command::Solve(Some(2.5))));
        assert!(parse("solve x").is_err());
        assert_eq!(parse("quit   "), Ok(Command::Quit));
    }

    #[test]
    fn splits_ids_names_and_arguments() {
        assert_eq!(split_line("12 play w a1"), (Some("12"), "play", "w a1"));
        assert_eq!(split_line("play w a1"), (None, "play", "w a1"));
        assert_eq!(split_line("12"), (None, "12", ""));
    }

    #[test]
    fn table_names_are_unique() {
        for (i, c) in COMMANDS.iter().enumerate() {
            assert!(COMMANDS[i + 1..].iter().all(|d| d.name != c.name));
            assert!(std::ptr::eq(find(c.name).unwrap(), c));
        }
    }
}
